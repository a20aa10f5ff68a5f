package bridge_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// formsInitialize is a client that shows elicitation forms.
const formsInitialize = `{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{}}}}`

// question is one ask_user question as the model writes it.
type question struct {
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
	Multiple bool     `json:"multiple,omitempty"`
}

// askStep is a model step calling ask_user with questions.
func askStep(id string, questions ...question) llm.Message {
	return toolStep(id, "ask_user", map[string]any{"questions": questions})
}

// formRequest is an elicitation/create as the client reads it.
type formRequest struct {
	Mode            string `json:"mode"`
	SessionID       string `json:"sessionId"`
	ToolCallID      string `json:"toolCallId"`
	Message         string `json:"message"`
	RequestedSchema struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	} `json:"requestedSchema"`
}

// fieldNames are the form's property names in the order sent.
func (f formRequest) fieldNames(t *testing.T) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(f.RequestedSchema.Properties)))
	var names []string
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return names
}

// answerForms answers every elicitation/create with what answer returns
// for it (a raw result), after checking the result against the schema's
// CreateElicitationResponse; forms receives each request.
func answerForms(e *env, forms chan<- formRequest, answer func(ctx context.Context, f formRequest) string) {
	e.c.Handle("elicitation/create", func(ctx context.Context, params json.RawMessage) (any, error) {
		var f formRequest
		if err := json.Unmarshal(params, &f); err != nil {
			e.t.Errorf("undecodable form: %v", err)
		}
		if forms != nil {
			forms <- f
		}
		result := answer(ctx, f)
		if err := e.c.Schema().Validate(acptest.FromClient, acptest.Response, "elicitation/create", json.RawMessage(result)); err != nil {
			e.t.Errorf("the test's answer breaks the schema: %v", err)
		}
		return json.RawMessage(result), nil
	})
}

// recv receives from ch, failing the test after waitTimeout (a guard
// against a hang, not a pace).
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitTimeout):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// lastToolResults is what the model read back in its last request.
func lastToolResults(t *testing.T, model *llm.Scripted) string {
	t.Helper()
	reqs := model.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model was never asked")
	}
	return toolResults(reqs[len(reqs)-1])
}

// checkAskEnd checks what followed the question: with wantResult "",
// the turn ended with it (the model was not asked again); otherwise the
// model read wantResult.
func checkAskEnd(t *testing.T, model *llm.Scripted, wantResult string) {
	t.Helper()
	if wantResult == "" {
		if n := len(model.Requests()); n != 1 {
			t.Errorf("the model was asked %d times, want once (the turn ended with the question)", n)
		}
		return
	}
	if got := lastToolResults(t, model); !strings.Contains(got, wantResult) {
		t.Errorf("the model read %q, want it to hold %q", got, wantResult)
	}
}

// TestAskUserByForm: with forms, ask_user sends one elicitation/create
// scoped to the call — a choice, a multi-select and a text, each choice
// with a field for the user's own words — and the answers reach the
// model's next request.
func TestAskUserByForm(t *testing.T) {
	model := llm.NewScripted(askStep("c_ask",
		question{Question: "Which database?", Options: []string{"PostgreSQL", "SQLite"}},
		question{Question: "Which features?", Options: []string{"auth", "billing", "search"}, Multiple: true},
		question{Question: "Anything else?"},
	), llm.Message{Content: "noted"})
	e := newEnv(t, withProvider(model))
	forms := make(chan formRequest, 1)
	answerForms(e, forms, func(context.Context, formRequest) string {
		return `{"action":"accept","content":{"q1":"SQLite","q2":["auth","search"],"q2_own":"and logs","q3":"keep it small"}}`
	})
	e.initialize(formsInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "set up the cache"); got != "end_turn" {
		t.Fatalf("stopReason = %s, want end_turn", got)
	}
	f := recv(t, forms, "the form")
	if f.Mode != "form" || f.SessionID != s || f.ToolCallID != "c_ask" || f.Message != "The agent has 3 questions for you." {
		t.Errorf("form %+v: want form mode, scoped to session %s and call c_ask", f, s)
	}
	if got, want := f.fieldNames(t), []string{"q1", "q1_own", "q2", "q2_own", "q3"}; !slices.Equal(got, want) {
		t.Errorf("fields %q, want %q", got, want)
	}
	var props map[string]struct {
		Type  string   `json:"type"`
		Title string   `json:"title"`
		Enum  []string `json:"enum"`
		Items struct {
			Enum []string `json:"enum"`
		} `json:"items"`
	}
	if err := json.Unmarshal(f.RequestedSchema.Properties, &props); err != nil {
		t.Fatal(err)
	}
	if p := props["q1"]; p.Type != "string" || p.Title != "Which database?" || !slices.Equal(p.Enum, []string{"PostgreSQL", "SQLite"}) {
		t.Errorf("q1 = %+v, want a single choice", p)
	}
	if p := props["q2"]; p.Type != "array" || !slices.Equal(p.Items.Enum, []string{"auth", "billing", "search"}) {
		t.Errorf("q2 = %+v, want a multi-select", p)
	}
	if p := props["q3"]; p.Type != "string" || p.Enum != nil || !slices.Equal(f.RequestedSchema.Required, []string{"q3"}) {
		t.Errorf("q3 = %+v (required %q), want a required text", p, f.RequestedSchema.Required)
	}
	got := lastToolResults(t, model)
	for _, want := range []string{
		"1. Which database?\n   Answer: SQLite",
		"2. Which features?\n   Answer: auth; search (and wrote: and logs)",
		"3. Anything else?\n   Answer: keep it small",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the model read %q, want it to hold %q", got, want)
		}
	}
	calls := forCall(e.updates(s), "c_ask")
	if len(calls) == 0 || calls[0].ToolKind != "think" || calls[0].Title == nil || *calls[0].Title != "Which database? (+2 more)" {
		t.Errorf("the call's card: %+v, want kind think titled by its question", calls)
	}
	if st := finalStatus(calls); st != "completed" {
		t.Errorf("the call ended %s, want completed", st)
	}
}

// TestAskUserFormOutcomes: decline tells the model; cancel ends the turn
// cancelled, the model not asked again; an action no version defines is
// no answer; a client that fails the form leaves the model to ask in its
// answer.
func TestAskUserFormOutcomes(t *testing.T) {
	tests := []struct {
		name       string
		answer     string
		rpcError   bool
		wantStop   string
		wantResult string // "": the turn ends with the question
	}{
		{name: "decline", answer: `{"action":"decline"}`, wantStop: "end_turn", wantResult: "The user declined to answer."},
		{name: "cancel", answer: `{"action":"cancel"}`, wantStop: "cancelled"},
		{name: "an unknown action", answer: `{"action":"_later"}`, wantStop: "end_turn", wantResult: `The editor answered "_later"`},
		{name: "the client fails", rpcError: true, wantStop: "end_turn", wantResult: "ask in your answer instead"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := llm.NewScripted(askStep("c_ask", question{Question: "Which name?"}), llm.Message{Content: "ok"})
			e := newEnv(t, withProvider(model))
			if tt.rpcError {
				e.c.Handle("elicitation/create", func(context.Context, json.RawMessage) (any, error) {
					return nil, &acptest.RPCError{Code: -32603, Message: "the form broke"}
				})
			} else {
				answerForms(e, nil, func(context.Context, formRequest) string { return tt.answer })
			}
			e.initialize(formsInitialize)
			s := e.newSession("")
			if got := e.prompt(s, "name it"); got != tt.wantStop {
				t.Fatalf("stopReason = %s, want %s", got, tt.wantStop)
			}
			checkAskEnd(t, model, tt.wantResult)
		})
	}
}

// TestPendingFormEnds: session/cancel, or session/close, while the form
// is open ends the turn cancelled and withdraws the form
// ($/cancel_request with its id); after a cancel the next turn runs.
func TestPendingFormEnds(t *testing.T) {
	tests := []struct {
		name    string
		end     func(e *env, session string)
		carryOn bool
	}{
		{"session/cancel", func(e *env, s string) { e.cancel(s) }, true},
		{"session/close", func(e *env, s string) {
			if err := e.c.Call(testCtx(e.t), "session/close", map[string]any{"sessionId": s}, nil); err != nil {
				e.t.Fatalf("session/close: %v", err)
			}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := llm.NewScripted(askStep("c_ask", question{Question: "Which name?"}), llm.Message{Content: "after"})
			e := newEnv(t, withProvider(model))
			release := make(chan struct{})
			defer close(release)
			forms := make(chan formRequest, 1)
			answerForms(e, forms, func(context.Context, formRequest) string {
				<-release
				return `{"action":"decline"}`
			})
			e.initialize(formsInitialize)
			s := e.newSession("")
			p := e.startPrompt(s, "name it")
			recv(t, forms, "the form")
			tt.end(e, s)
			if got := p.stop(); got != "cancelled" {
				t.Errorf("stopReason = %s, want cancelled", got)
			}
			request := e.waitFrame("the form", acptest.MethodFrame("elicitation/create"))
			withdrawn := e.waitFrame("$/cancel_request", acptest.MethodFrame("$/cancel_request"))
			var params struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if err := json.Unmarshal(withdrawn.Params, &params); err != nil || string(params.RequestID) != string(request.ID) {
				t.Errorf("withdrew %s, want the form's request %s", withdrawn.Params, request.ID)
			}
			if tt.carryOn {
				if got := e.prompt(s, "again"); got != "end_turn" {
					t.Errorf("the next prompt = %s, want end_turn", got)
				}
			}
		})
	}
}

// TestAskUserByPermission: without forms, one question with options is
// a permission prompt about the call whose options are the choices and a
// way to decline; the choice, the decline and a cancel each do what
// they say.
func TestAskUserByPermission(t *testing.T) {
	tests := []struct {
		name       string
		multiple   bool
		answer     acpsdk.RequestPermissionResponse
		wantStop   string
		wantResult string // "": the turn ends with the question
	}{
		{name: "a choice", answer: selected("choice-1"), wantStop: "end_turn", wantResult: "1. Which database?\n   Answer: SQLite"},
		{name: "one of several", multiple: true, answer: selected("choice-0"), wantStop: "end_turn", wantResult: "Answer: PostgreSQL\n(This editor let the user pick one option only.)"},
		{name: "decline", answer: selected("decline"), wantStop: "end_turn", wantResult: "The user declined to answer."},
		{name: "an option never offered", answer: selected("choice-7"), wantStop: "end_turn", wantResult: "The user declined to answer."},
		{name: "cancelled", answer: acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{Cancelled: &acpsdk.RequestPermissionOutcomeCancelled{}}}, wantStop: "cancelled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := llm.NewScripted(askStep("c_ask", question{Question: "Which database?", Options: []string{"PostgreSQL", "SQLite"}, Multiple: tt.multiple}),
				llm.Message{Content: "ok"})
			e := newEnv(t, withProvider(model))
			asked := make(chan acpsdk.RequestPermissionRequest, 1)
			e.c.HandlePermission(func(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
				asked <- req
				return tt.answer
			})
			e.initialize(plainInitialize)
			s := e.newSession("")
			if got := e.prompt(s, "set up the cache"); got != tt.wantStop {
				t.Fatalf("stopReason = %s, want %s", got, tt.wantStop)
			}
			req := recv(t, asked, "the permission prompt")
			if req.ToolCall.ToolCallId != "c_ask" || req.ToolCall.Title == nil || *req.ToolCall.Title != "Which database?" ||
				req.ToolCall.Kind == nil || *req.ToolCall.Kind != acpsdk.ToolKindThink {
				t.Errorf("the prompt is about %+v, want the call c_ask, titled by its question", req.ToolCall)
			}
			var options []string
			for _, o := range req.Options {
				options = append(options, string(o.OptionId)+"/"+o.Name+"/"+string(o.Kind))
			}
			want := []string{"choice-0/PostgreSQL/allow_once", "choice-1/SQLite/allow_once", "decline/Don't answer/reject_once"}
			if !slices.Equal(options, want) {
				t.Errorf("options %q, want %q", options, want)
			}
			checkAskEnd(t, model, tt.wantResult)
		})
	}
}

// TestAskUserCannotAsk: without forms, a question without options, or
// several questions, cannot be asked: the model is told to ask in its
// answer, and nothing is sent to the client.
func TestAskUserCannotAsk(t *testing.T) {
	tests := []struct {
		name      string
		questions []question
	}{
		{"free text", []question{{Question: "Which name?"}}},
		{"two questions with options", []question{{Question: "A?", Options: []string{"x", "y"}}, {Question: "B?", Options: []string{"x", "y"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := llm.NewScripted(askStep("c_ask", tt.questions...), llm.Message{Content: "Which name should it have?"})
			e := newEnv(t, withProvider(model))
			e.initialize(plainInitialize)
			s := e.newSession("")
			if got := e.prompt(s, "name it"); got != "end_turn" {
				t.Fatalf("stopReason = %s, want end_turn", got)
			}
			if got, want := lastToolResults(t, model), "This editor cannot show questions to the user. End your turn now and ask in your answer instead"; !strings.Contains(got, want) {
				t.Errorf("the model read %q, want it to hold %q", got, want)
			}
			for _, f := range e.c.Frames() {
				if f.IsRequest() && f.Method != "" {
					t.Errorf("the server asked the client %s", f.Method)
				}
			}
		})
	}
}

// TestAskUserBadQuestions: questions the tool refuses reach no one, and
// the model reads an INVALID_ARGS error that names the problem.
func TestAskUserBadQuestions(t *testing.T) {
	five := make([]question, 5)
	for i := range five {
		five[i] = question{Question: "Why?"}
	}
	tests := []struct {
		name      string
		questions []question
		want      string
	}{
		{"no questions", []question{}, "questions must hold 1 to 4 questions, not 0"},
		{"five questions", five, "questions must hold 1 to 4 questions, not 5"},
		{"an empty question", []question{{Question: " "}}, "questions[0].question is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := llm.NewScripted(askStep("c_ask", tt.questions...), llm.Message{Content: "sorry"})
			e := newEnv(t, withProvider(model))
			answerForms(e, nil, func(context.Context, formRequest) string {
				t.Error("a refused question reached the user")
				return `{"action":"decline"}`
			})
			e.initialize(formsInitialize)
			s := e.newSession("")
			if got := e.prompt(s, "ask me"); got != "end_turn" {
				t.Fatalf("stopReason = %s, want end_turn", got)
			}
			got := lastToolResults(t, model)
			if !strings.Contains(got, "invalid arguments: ") || !strings.Contains(got, tt.want) {
				t.Errorf("the model read %q, want an invalid-arguments error holding %q", got, tt.want)
			}
			if st := finalStatus(forCall(e.updates(s), "c_ask")); st != "failed" {
				t.Errorf("the call ended %s, want failed", st)
			}
		})
	}
}

// TestAskUserRunsUnderEveryPreset: ask_user asks by itself, so no preset
// asks to approve it: the form is the only request.
func TestAskUserRunsUnderEveryPreset(t *testing.T) {
	for _, preset := range policy.Presets() {
		t.Run(string(preset), func(t *testing.T) {
			model := llm.NewScripted(askStep("c_ask", question{Question: "Which name?"}), llm.Message{Content: "ok"})
			e := newEnv(t, withProvider(model), withPreset(preset))
			answerForms(e, nil, func(context.Context, formRequest) string {
				return `{"action":"accept","content":{"q1":"cache"}}`
			})
			e.initialize(formsInitialize)
			s := e.newSession("")
			if got := e.prompt(s, "name it"); got != "end_turn" {
				t.Fatalf("stopReason = %s, want end_turn", got)
			}
			checkAskEnd(t, model, "Answer: cache")
			for _, f := range e.c.Frames() {
				if f.Method == "session/request_permission" {
					t.Errorf("%s asked to approve the question: %s", preset, f.Params)
				}
			}
		})
	}
}

// TestAskUserSpellsOutControls: a question and choices the model wrote
// with terminal escapes and a right-to-left override reach the editor
// with those spelled out (escapeControls), in the form and in the
// permission prompt; the user's pick still maps back to the model's own
// option.
func TestAskUserSpellsOutControls(t *testing.T) {
	const (
		hostileQuestion = "Deploy?\x1b[2J\u202e"
		hostileOption   = "yes\x1b[31m"
		shownQuestion   = `Deploy?\x1b[2J\u202e`
		shownOption     = `yes\x1b[31m`
	)
	step := askStep("c_ask", question{Question: hostileQuestion, Options: []string{hostileOption, "no"}})
	t.Run("form", func(t *testing.T) {
		model := llm.NewScripted(step, llm.Message{Content: "ok"})
		e := newEnv(t, withProvider(model))
		forms := make(chan formRequest, 1)
		answerForms(e, forms, func(_ context.Context, f formRequest) string {
			return `{"action":"accept","content":{"q1":` + quote(shownOption) + `}}`
		})
		e.initialize(formsInitialize)
		s := e.newSession("")
		e.prompt(s, "deploy")
		f := recv(t, forms, "the form")
		var props map[string]struct {
			Title string   `json:"title"`
			Enum  []string `json:"enum"`
		}
		if err := json.Unmarshal(f.RequestedSchema.Properties, &props); err != nil {
			t.Fatal(err)
		}
		if f.Message != shownQuestion || props["q1"].Title != shownQuestion || !slices.Equal(props["q1"].Enum, []string{shownOption, "no"}) {
			t.Errorf("form %q / %+v: want the controls spelled out", f.Message, props["q1"])
		}
		checkAskEnd(t, model, "Answer: "+hostileOption+"\n")
	})
	t.Run("permission", func(t *testing.T) {
		model := llm.NewScripted(step, llm.Message{Content: "ok"})
		e := newEnv(t, withProvider(model))
		asked := make(chan acpsdk.RequestPermissionRequest, 1)
		e.c.HandlePermission(func(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
			asked <- req
			return selected("choice-0")
		})
		e.initialize(plainInitialize)
		s := e.newSession("")
		e.prompt(s, "deploy")
		req := recv(t, asked, "the permission prompt")
		if req.ToolCall.Title == nil || *req.ToolCall.Title != shownQuestion || req.Options[0].Name != shownOption {
			t.Errorf("prompt titled %q with option %q: want the controls spelled out", *req.ToolCall.Title, req.Options[0].Name)
		}
		checkAskEnd(t, model, "Answer: "+hostileOption)
	})
}
