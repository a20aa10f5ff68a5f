package subagent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/schema"
)

// TaskArgs are the task tool's arguments.
type TaskArgs struct {
	Description string `json:"description" jsonschema:"a short description of the task (3 to 6 words), shown to the user"`
	Prompt      string `json:"prompt" jsonschema:"the task, complete and self-contained: the subagent sees nothing of this conversation, so say everything it needs to know and what to answer"`
	// SubagentType names the type; General when empty.
	SubagentType string `json:"subagent_type,omitempty" jsonschema:"the type of subagent to start (general when omitted)"`
	// OutputSchema, when set, asks for a structured result: the task's
	// result is a value matching it.
	OutputSchema *jsonvalue.Value `json:"output_schema,omitempty"`
}

// Tool returns the task tool, which starts a child of one of r's types
// for each call and returns its final answer, or, with output_schema, the
// structured value it submitted (validated). Tasks of a parallel type may
// run in parallel (MaxParallel at once).
func (r *Runner) Tool() (*registry.Tool, error) {
	return registry.Define(registry.Spec[TaskArgs, string]{
		Name:        TaskTool,
		Description: r.description(),
		Handler:     r.task,
		Effect:      registry.EffectOther,
		ConcurrencySafe: func(a TaskArgs) bool {
			t, err := find(r.types, typeOr(a.SubagentType))
			return err == nil && t.Parallel
		},
		PresentCall: func(a TaskArgs) presentation.CallView {
			return presentation.GenericCallView{Title: taskTitle(a), Kind: presentation.KindOther}
		},
		RefineSchema: func(s *jsonschema.Schema) {
			names := make([]any, len(r.types))
			for i, t := range r.types {
				names[i] = t.Name
			}
			s.Properties["subagent_type"].Enum = names
			s.Properties["output_schema"] = &jsonschema.Schema{
				Type: "object",
				Description: "a JSON Schema the result must match, when you want a machine-readable result: an object schema using only " +
					"type, properties, required, additionalProperties, items, enum, const, oneOf and description/title/default/examples",
			}
		},
	})
}

// description is the task tool's description: what it does, and every
// type it starts.
func (r *Runner) description() string {
	var b strings.Builder
	b.WriteString("Start a subagent: a child agent with a fresh context, its own tools and instructions, that carries out one task and returns its final answer (or, with output_schema, a value matching it). ")
	b.WriteString("Use it for searches and investigations that would fill your context, and for self-contained work; call several in one step to run them in parallel. ")
	b.WriteString("The subagent sees nothing of this conversation: give it a complete prompt. Types:\n")
	for _, t := range r.types {
		fmt.Fprintf(&b, "- %s: %s\n", t.Name, firstLine(t.Description))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// task is the task tool's body.
func (r *Runner) task(ctx context.Context, call *registry.Call, args TaskArgs) (string, error) {
	t, err := find(r.types, typeOr(args.SubagentType))
	if err != nil {
		return "", registry.ArgsError([]string{err.Error()})
	}
	var out *schema.Schema
	if args.OutputSchema != nil {
		out, err = schema.CompileObject(*args.OutputSchema)
		var unsupported *schema.Error
		if errors.As(err, &unsupported) {
			violations := make([]string, len(unsupported.Violations))
			for i, v := range unsupported.Violations {
				violations[i] = "output_schema" + strings.TrimPrefix(v, "schema")
			}
			return "", registry.ArgsError(violations)
		}
		if err != nil {
			return "", registry.ArgsError([]string{"output_schema: " + err.Error()})
		}
	}
	if strings.TrimSpace(args.Prompt) == "" {
		return "", registry.ArgsError([]string{"prompt must say what the subagent is to do"})
	}
	release, err := r.acquire(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	return r.runChild(ctx, call, t, args, out)
}

// taskTitle is how a task call is shown: its type and description.
func taskTitle(a TaskArgs) string {
	d := strings.TrimSpace(a.Description)
	if d == "" {
		d = "task"
	}
	return typeOr(a.SubagentType) + ": " + d
}

func typeOr(name string) string {
	if name == "" {
		return General
	}
	return name
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
