package live

import (
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Rules is how a session remembers the user's "always" answers.
type Rules interface {
	// Suggest returns the rules an "always allow" of call would keep.
	Suggest(call *registry.Call) ([]policy.Rule, bool)
	// Remember keeps rule for the project.
	Remember(rule policy.Rule) error
	// List returns the project's rules; Forget removes the one at index
	// i of List.
	List() ([]policy.Rule, error)
	Forget(i int) (policy.Rule, error)
}

// Command is a slash command the user wrote: a prompt file whose text,
// with $ARGUMENTS replaced by what follows the command, is sent to the
// model.
type Command struct {
	Name, Description string
	// Prompt is the file's text.
	Prompt string
}
