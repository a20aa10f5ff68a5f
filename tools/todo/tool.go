package todo

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Name is the tool's model-facing name.
const Name = "todo_write"

// Args are the tool's arguments: the complete new list.
type Args struct {
	Todos []Item `json:"todos" jsonschema:"the complete plan; it replaces the previous list"`
}

const description = `Replace the plan for this task with a new list of items. Use it for work of three or more steps: write the list before starting, keep exactly one item in_progress while you work on it, and mark items completed as soon as they are done. Every call sends the complete list.`

// Tool returns the todo_write tool. onPlan receives each accepted list
// (items normalized: priority defaults to medium); it must be safe for
// concurrent use.
func Tool(onPlan func([]Item)) (*registry.Tool, error) {
	return registry.Define(registry.Spec[Args, []Item]{
		Name:        Name,
		Description: description,
		Effect:      registry.EffectOther,
		Handler: func(_ context.Context, _ *registry.Call, args Args) ([]Item, error) {
			items, err := normalize(args.Todos)
			if err != nil {
				return nil, err
			}
			if onPlan != nil {
				onPlan(append([]Item(nil), items...))
			}
			return items, nil
		},
		Render: func(_ Args, items []Item) ([]presentation.ContentBlock, error) {
			return []presentation.ContentBlock{presentation.Text(summary(items))}, nil
		},
		PresentCall: func(Args) presentation.CallView {
			return presentation.GenericCallView{Title: "Update todo list", Kind: presentation.KindOther}
		},
		RefineSchema: func(s *jsonschema.Schema) {
			item := s.Properties["todos"].Items
			item.Properties["status"].Enum = []any{string(StatusPending), string(StatusInProgress), string(StatusCompleted)}
			item.Properties["priority"].Enum = []any{string(PriorityHigh), string(PriorityMedium), string(PriorityLow)}
		},
	})
}

// normalize fills default priorities and refuses empty items.
func normalize(todos []Item) ([]Item, error) {
	items := make([]Item, len(todos))
	for i, t := range todos {
		if strings.TrimSpace(t.Content) == "" {
			return nil, &registry.Error{Code: "TODO_EMPTY_ITEM", Message: fmt.Sprintf("todos[%d] has no content: give every item a short description", i)}
		}
		if t.Priority == "" {
			t.Priority = PriorityMedium
		}
		items[i] = t
	}
	return items, nil
}

// summary is what the model reads back.
func summary(items []Item) string {
	if len(items) == 0 {
		return "Cleared the todo list."
	}
	counts := map[Status]int{}
	for _, it := range items {
		counts[it.Status]++
	}
	return fmt.Sprintf("Updated the todo list: %d items (%d completed, %d in progress, %d pending).",
		len(items), counts[StatusCompleted], counts[StatusInProgress], counts[StatusPending])
}
