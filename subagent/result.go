package subagent

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/schema"
)

// ResultTool is the name of the tool a child asked for a structured
// result finishes with.
const ResultTool = "submit_result"

// MaxResultTries is how many results a child may offer before its task
// fails: each invalid value it submits counts, and so does each time it
// ends without submitting one.
const MaxResultTries = 3

// resultBox receives a child's structured result: the tool whose
// parameters are the task's output_schema, which validates every value
// the child submits, tells it what was wrong, and counts its tries.
type resultBox struct {
	schema *schema.Schema
	// exhausted is called once, when the last try failed.
	exhausted func(error)

	mu         sync.Mutex
	value      *jsonvalue.Value
	tries      int
	violations []string
}

// tool is the result tool of b.
func (b *resultBox) tool() (*registry.Tool, error) {
	return registry.DefineRaw(registry.RawSpec{
		Name: ResultTool,
		Description: "Finish your task: call this once, with your result as the arguments; they must match the parameters' schema exactly. " +
			"A result that does not is refused with what is wrong: correct it and call again. Your task ends when a result is accepted.",
		Parameters: b.schema.JSON(),
		Output: registry.RawOutput{
			Schema: `{"type":"string"}`,
			Render: func(_ registry.Arguments, v jsonvalue.Value) ([]presentation.ContentBlock, error) {
				return []presentation.ContentBlock{presentation.Text(v.Text())}, nil
			},
		},
		Execute: b.submit,
		PresentCall: func(registry.Arguments) presentation.CallView {
			return presentation.GenericCallView{Title: "Submit the result", Kind: presentation.KindOther}
		},
	})
}

// submit is the result tool's body: a valid value is kept and ends the
// child's turn; an invalid one is refused with every violation.
func (b *resultBox) submit(_ context.Context, call *registry.Call, args registry.Arguments) (any, error) {
	v := args.Value()
	violations := b.schema.Validate(v, "")
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.value != nil {
		return "The result was accepted already; your task is over.", nil
	}
	if len(violations) == 0 {
		b.value = &v
		call.ConcludeTurn()
		return "Result accepted.", nil
	}
	err := b.failLocked(violations)
	return nil, err
}

// missed counts a turn the child ended without submitting a result, and
// returns the message that asks it again, or false when it has no try
// left (exhausted was called).
func (b *resultBox) missed() (prompt string, again bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.value != nil {
		return "", false
	}
	b.failLocked(nil)
	if b.tries >= MaxResultTries {
		return "", false
	}
	return fmt.Sprintf("You ended without a result. Finish now by calling %s with your result as its arguments, matching its schema (try %d of %d).",
		ResultTool, b.tries+1, MaxResultTries), true
}

// failLocked counts a failed try and returns the error the child reads;
// the last one also calls exhausted. b.mu is held.
func (b *resultBox) failLocked(violations []string) error {
	b.tries++
	if violations != nil {
		b.violations = violations
	}
	left := MaxResultTries - b.tries
	var err *registry.Error
	if violations != nil {
		err = registry.ArgsError(violations)
		err.Message = fmt.Sprintf("the result does not match the schema: %s. Correct it and call %s again (%d tries left).",
			strings.Join(violations, "; "), ResultTool, left)
	}
	if left <= 0 {
		b.exhausted(b.exhaustedError())
	}
	if err == nil {
		return nil
	}
	return err
}

// exhaustedError says why the task failed; b.mu is held.
func (b *resultBox) exhaustedError() error {
	if len(b.violations) == 0 {
		return registry.NewError(registry.CodeInvalidToolOutput,
			fmt.Sprintf("the subagent gave no result matching output_schema in %d tries", MaxResultTries))
	}
	err := registry.OutputError(TaskTool, b.violations)
	err.Message = fmt.Sprintf("the subagent gave no result matching output_schema in %d tries; the last one: %s",
		MaxResultTries, strings.Join(b.violations, "; "))
	return err
}

// failure is the task's error when no result was accepted.
func (b *resultBox) failure() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.exhaustedError()
}

// result returns the accepted value, if any.
func (b *resultBox) result() (jsonvalue.Value, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.value == nil {
		return jsonvalue.Value{}, false
	}
	return *b.value, true
}
