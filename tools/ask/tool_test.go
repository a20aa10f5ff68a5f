package ask_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/ask"
)

// askerFunc is an Asker made of a function.
type askerFunc func(ctx context.Context, req ask.Request) (ask.Reply, error)

func (f askerFunc) Ask(ctx context.Context, req ask.Request) (ask.Reply, error) { return f(ctx, req) }

// run executes one ask_user call through the pipeline with asker.
func run(t *testing.T, asker ask.Asker, args string) pipeline.Result {
	t.Helper()
	tool, err := ask.Tool(asker)
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	reg.Register(nil, tool)
	return pipeline.New(reg, pipeline.Options{}).Execute(context.Background(), pipeline.Input{CallID: "c1", Name: ask.Name, Arguments: args})
}

func TestAskUserResults(t *testing.T) {
	const two = `{"questions":[{"question":"Which database?","options":["PostgreSQL","SQLite"]},{"question":"Anything else?"}]}`
	tests := []struct {
		name  string
		args  string
		reply ask.Reply
		want  string
	}{
		{"answered", two, ask.Reply{Answers: []ask.Answer{{Selected: []string{"SQLite"}}, {Text: "keep it small"}}},
			"The user answered:\n1. Which database?\n   Answer: SQLite\n2. Anything else?\n   Answer: keep it small"},
		{"a choice and words, and a blank", two, ask.Reply{Answers: []ask.Answer{{Selected: []string{"SQLite"}, Text: " in memory "}, {}}},
			"1. Which database?\n   Answer: SQLite (and wrote: in memory)\n2. Anything else?\n   Answer: (no answer)"},
		{"several picked", `{"questions":[{"question":"Which?","options":["a","b","c"],"multiple":true}]}`,
			ask.Reply{Answers: []ask.Answer{{Selected: []string{"a", "c"}}}}, "1. Which?\n   Answer: a; c"},
		{"declined", two, ask.Reply{Outcome: ask.Declined}, "The user declined to answer."},
		{"unavailable", two, ask.Reply{Outcome: ask.Unavailable}, "End your turn now and ask in your answer instead"},
		{"a note", two, ask.Reply{Answers: []ask.Answer{{}, {}}, Note: "The editor offered one choice only."}, "\nThe editor offered one choice only."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got ask.Request
			r := run(t, askerFunc(func(_ context.Context, req ask.Request) (ask.Reply, error) {
				got = req
				return tt.reply, nil
			}), tt.args)
			text := presentation.JoinText(r.Content)
			if r.IsError || !strings.Contains(text, tt.want) {
				t.Fatalf("result %q (isError %v), want it to hold %q", text, r.IsError, tt.want)
			}
			if got.CallID != "c1" || got.Arguments != tt.args {
				t.Errorf("the asker got call %q with arguments %s", got.CallID, got.Arguments)
			}
		})
	}
}

func TestAskUserRefusesBadQuestions(t *testing.T) {
	five := `{"questions":[{"question":"a?"},{"question":"b?"},{"question":"c?"},{"question":"d?"},{"question":"e?"}]}`
	tests := []struct {
		name, args, want string
	}{
		{"no questions", `{"questions":[]}`, "questions must hold 1 to 4 questions, not 0"},
		{"five questions", five, "questions must hold 1 to 4 questions, not 5"},
		{"an empty question", `{"questions":[{"question":"  "}]}`, "questions[0].question is empty"},
		{"one option", `{"questions":[{"question":"q?","options":["yes"]}]}`, "questions[0].options must hold 2 to 10 choices, not 1"},
		{"eleven options", `{"questions":[{"question":"q?","options":["1","2","3","4","5","6","7","8","9","10","11"]}]}`, "not 11"},
		{"an empty option", `{"questions":[{"question":"q?","options":["a",""]}]}`, "questions[0].options[1] is empty"},
		{"a repeated option", `{"questions":[{"question":"q?","options":["a"," a"]}]}`, `questions[0].options[1] repeats "a"`},
		{"multiple without options", `{"questions":[{"question":"q?","multiple":true}]}`, "questions[0].multiple needs options"},
		{"every problem at once", `{"questions":[{"question":""},{"question":"b?","options":["x"]}]}`, "questions[0].question is empty: write the question the user should answer; questions[1].options must hold"},
		{"no questions member", `{}`, `missing required property "questions"`},
		{"a question that is no object", `{"questions":["why?"]}`, "questions[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, askerFunc(func(context.Context, ask.Request) (ask.Reply, error) {
				t.Error("bad questions reached the user")
				return ask.Reply{}, nil
			}), tt.args)
			text := presentation.JoinText(r.Content)
			if !r.IsError || r.Code() != registry.CodeInvalidArgs || !strings.Contains(text, tt.want) {
				t.Errorf("result %q (isError %v, code %s), want INVALID_ARGS holding %q", text, r.IsError, r.Code(), tt.want)
			}
		})
	}
}

func TestAskUserFailures(t *testing.T) {
	const one = `{"questions":[{"question":"Which?"}]}`
	tests := []struct {
		name  string
		reply ask.Reply
		err   error
		want  string
	}{
		{"the asker fails", ask.Reply{}, errors.New("the client went away"), "asking the user: the client went away"},
		{"the user cancels", ask.Reply{}, ask.ErrCancelled, "the user cancelled the turn"},
		{"answers that do not fit the questions", ask.Reply{Answers: []ask.Answer{{}, {}}}, nil, "2 answers to 1 questions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, askerFunc(func(context.Context, ask.Request) (ask.Reply, error) { return tt.reply, tt.err }), one)
			if text := presentation.JoinText(r.Content); !r.IsError || !strings.Contains(text, tt.want) {
				t.Errorf("result %q (isError %v), want an error holding %q", text, r.IsError, tt.want)
			}
		})
	}
}

// TestAskUserCancelled: a call whose turn is cancelled while the user
// reads the question ends aborted, and the asker saw the cancellation.
func TestAskUserCancelled(t *testing.T) {
	asking := make(chan struct{})
	tool, err := ask.Tool(askerFunc(func(ctx context.Context, _ ask.Request) (ask.Reply, error) {
		close(asking)
		<-ctx.Done()
		return ask.Reply{}, ctx.Err()
	}))
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	reg.Register(nil, tool)
	ctx, cancel := context.WithCancel(context.Background())
	x := pipeline.New(reg, pipeline.Options{}).Bind(pipeline.Input{CallID: "c1", Name: ask.Name, Arguments: `{"questions":[{"question":"Which?"}]}`})
	x.Prepare(ctx)
	go x.Dispatch()
	<-asking
	cancel()
	<-x.Settled()
	if r := x.Finish(); !r.IsError || r.Code() != registry.CodeAborted {
		t.Errorf("result %q (code %s), want ABORTED", presentation.JoinText(r.Content), r.Code())
	}
}

func TestAskUserCard(t *testing.T) {
	long := strings.Repeat("why ", 40) + "?"
	tests := []struct {
		name string
		args string
		want presentation.CallView
	}{
		{"one free-text question", `{"questions":[{"question":"Which   name\nshould it have?"}]}`,
			presentation.GenericCallView{Title: "Which name should it have?", Kind: presentation.KindThink}},
		{"options", `{"questions":[{"question":"Which?","options":["a","b"],"multiple":true}]}`,
			presentation.GenericCallView{Title: "Which?", Kind: presentation.KindThink,
				Content: []presentation.ContentBlock{presentation.Text("1. Which? (any of)\n   - a\n   - b")}}},
		{"several", `{"questions":[{"question":"One?"},{"question":"Two?"}]}`,
			presentation.GenericCallView{Title: "One? (+1 more)", Kind: presentation.KindThink,
				Content: []presentation.ContentBlock{presentation.Text("1. One?\n2. Two?")}}},
		{"a long question", `{"questions":[{"question":"` + long + `"}]}`,
			presentation.GenericCallView{Title: strings.TrimSpace(long)[:119] + "…", Kind: presentation.KindThink}},
		{"none", `{"questions":[]}`, presentation.GenericCallView{Title: "Ask the user", Kind: presentation.KindThink}},
	}
	tool, err := ask.Tool(askerFunc(func(context.Context, ask.Request) (ask.Reply, error) { return ask.Reply{}, nil }))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, err := registry.MaterializeArguments(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			bound, err := tool.Bind(args)
			if err != nil {
				t.Fatal(err)
			}
			if got := bound.PresentCall(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("PresentCall = %#v, want %#v", got, tt.want)
			}
		})
	}
	if tool.Effect() != registry.EffectOther {
		t.Errorf("effect = %v, want other (every preset lets it run)", tool.Effect())
	}
	if _, err := ask.Tool(nil); err == nil {
		t.Error("a tool without an Asker was defined")
	}
}
