package ask

import (
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/registry"
)

// The limits of one call.
const (
	// MaxQuestions is how many questions one call may ask.
	MaxQuestions = 4
	// MinOptions and MaxOptions bound a question's options, when it has
	// any.
	MinOptions = 2
	MaxOptions = 10
)

// Question is one question for the user.
type Question struct {
	Question string   `json:"question" jsonschema:"the question, complete and self-contained, as the user will read it"`
	Options  []string `json:"options,omitempty" jsonschema:"2 to 10 short, distinct choices; the user may also answer in their own words"`
	Multiple bool     `json:"multiple,omitempty" jsonschema:"true when the user may pick several options (needs options); default false"`
}

// Args are the tool's arguments.
type Args struct {
	Questions []Question `json:"questions" jsonschema:"1 to 4 questions, asked together"`
}

// checkArgs returns the INVALID_ARGS error naming every problem of args,
// or nil.
func checkArgs(args Args) error {
	var problems []string
	if n := len(args.Questions); n == 0 || n > MaxQuestions {
		problems = append(problems, fmt.Sprintf("questions must hold 1 to %d questions, not %d", MaxQuestions, n))
	}
	for i, q := range args.Questions {
		problems = append(problems, q.problems(fmt.Sprintf("questions[%d]", i))...)
	}
	if len(problems) > 0 {
		return registry.ArgsError(problems)
	}
	return nil
}

// problems lists what is wrong with q, each naming where.
func (q Question) problems(at string) []string {
	var out []string
	if strings.TrimSpace(q.Question) == "" {
		out = append(out, fmt.Sprintf("%s.question is empty: write the question the user should answer", at))
	}
	if n := len(q.Options); n > 0 && (n < MinOptions || n > MaxOptions) {
		out = append(out, fmt.Sprintf("%s.options must hold %d to %d choices, not %d (leave options out for a free-text question)", at, MinOptions, MaxOptions, n))
	}
	seen := map[string]bool{}
	for j, o := range q.Options {
		switch key := strings.TrimSpace(o); {
		case key == "":
			out = append(out, fmt.Sprintf("%s.options[%d] is empty", at, j))
		case seen[key]:
			out = append(out, fmt.Sprintf("%s.options[%d] repeats %q", at, j, key))
		default:
			seen[key] = true
		}
	}
	if q.Multiple && len(q.Options) == 0 {
		out = append(out, fmt.Sprintf("%s.multiple needs options to pick from", at))
	}
	return out
}
