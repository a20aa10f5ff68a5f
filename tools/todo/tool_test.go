package todo_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/todo"
)

func TestTodoWrite(t *testing.T) {
	tests := []struct {
		name      string
		args      string
		wantText  string
		wantError bool
		wantPlan  []todo.Item
	}{
		{
			name:     "a plan with default priority",
			args:     `{"todos":[{"content":"read the code","status":"completed"},{"content":"fix the bug","status":"in_progress","priority":"high"},{"content":"run the tests","status":"pending"}]}`,
			wantText: "Updated the todo list: 3 items (1 completed, 1 in progress, 1 pending).",
			wantPlan: []todo.Item{
				{Content: "read the code", Status: todo.StatusCompleted, Priority: todo.PriorityMedium},
				{Content: "fix the bug", Status: todo.StatusInProgress, Priority: todo.PriorityHigh},
				{Content: "run the tests", Status: todo.StatusPending, Priority: todo.PriorityMedium},
			},
		},
		{name: "an empty list clears the plan", args: `{"todos":[]}`, wantText: "Cleared the todo list.", wantPlan: []todo.Item{}},
		{name: "unknown status", args: `{"todos":[{"content":"x","status":"done"}]}`, wantText: `"todos[0].status" must be one of ["pending","in_progress","completed"]`, wantError: true},
		{name: "unknown priority", args: `{"todos":[{"content":"x","status":"pending","priority":"urgent"}]}`, wantText: `"todos[0].priority" must be one of ["high","medium","low"]`, wantError: true},
		{name: "blank content", args: `{"todos":[{"content":"  ","status":"pending"}]}`, wantText: "todos[0] has no content", wantError: true},
		{name: "missing todos", args: `{}`, wantText: `missing required property "todos"`, wantError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var plans [][]todo.Item
			tool, err := todo.Tool(func(items []todo.Item) { plans = append(plans, items) })
			if err != nil {
				t.Fatal(err)
			}
			reg := registry.New()
			reg.Register(nil, tool)
			r := pipeline.New(reg, pipeline.Options{}).Execute(context.Background(), pipeline.Input{CallID: "c", Name: todo.Name, Arguments: tt.args})
			text := presentation.JoinText(r.Content)
			if r.IsError != tt.wantError || !strings.Contains(text, tt.wantText) {
				t.Fatalf("result = %q (isError %v), want %q (isError %v)", text, r.IsError, tt.wantText, tt.wantError)
			}
			if tt.wantError {
				if len(plans) != 0 {
					t.Errorf("a failed call changed the plan")
				}
				return
			}
			if len(plans) != 1 || len(plans[0]) != len(tt.wantPlan) {
				t.Fatalf("plans = %v, want one plan %v", plans, tt.wantPlan)
			}
			for i := range tt.wantPlan {
				if plans[0][i] != tt.wantPlan[i] {
					t.Errorf("item %d = %+v, want %+v", i, plans[0][i], tt.wantPlan[i])
				}
			}
		})
	}
}

func TestTodoPresentCall(t *testing.T) {
	tool, err := todo.Tool(nil)
	if err != nil {
		t.Fatal(err)
	}
	args, _ := registry.MaterializeArguments(`{"todos":[{"content":"a","status":"pending"}]}`)
	want := presentation.GenericCallView{Title: "Update todo list", Kind: presentation.KindOther}
	bound, err := tool.Bind(args)
	if err != nil {
		t.Fatal(err)
	}
	if got := bound.PresentCall(); !reflect.DeepEqual(got, want) {
		t.Errorf("PresentCall = %#v, want %#v", got, want)
	}
	if tool.Effect() != registry.EffectOther {
		t.Errorf("effect = %v", tool.Effect())
	}
}
