package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// sampleForm is a form with each kind of field.
func sampleForm(session string) acp.ElicitationForm {
	return acp.ElicitationForm{
		SessionID: session, ToolCallID: "call-1", Message: "Which database?",
		Fields: []acp.ElicitationField{
			{Name: "q2", Title: "Which database?", Choices: []string{"PostgreSQL", "SQLite"}},
			{Name: "q1", Title: "Which features?", Choices: []string{"auth", "billing"}, Multiple: true},
			{Name: "q3", Title: "Anything else?", Description: "free text", Required: true},
		},
	}
}

// TestElicitationFormWire pins the form's wire shape — fields in their
// order, not sorted — and that it validates against the pinned schema's
// elicitation/create.
func TestElicitationFormWire(t *testing.T) {
	data, err := json.Marshal(sampleForm("s1"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"mode":"form","sessionId":"s1","toolCallId":"call-1","message":"Which database?","requestedSchema":{"type":"object","properties":{` +
		`"q2":{"type":"string","title":"Which database?","enum":["PostgreSQL","SQLite"]},` +
		`"q1":{"type":"array","title":"Which features?","items":{"type":"string","enum":["auth","billing"]}},` +
		`"q3":{"type":"string","title":"Anything else?","description":"free text"}},"required":["q3"]}}`
	if string(data) != want {
		t.Errorf("wire\n got %s\nwant %s", data, want)
	}
	if err := mustSchema(t).Validate(acptest.FromAgent, acptest.Request, "elicitation/create", data); err != nil {
		t.Error(err)
	}
}

func TestElicitationFormRefusesWhatCannotBeSent(t *testing.T) {
	field := acp.ElicitationField{Name: "q1", Title: "Why?"}
	tests := []struct {
		name string
		form acp.ElicitationForm
	}{
		{"no session", acp.ElicitationForm{Message: "m", Fields: []acp.ElicitationField{field}}},
		{"no message", acp.ElicitationForm{SessionID: "s", Fields: []acp.ElicitationField{field}}},
		{"no fields", acp.ElicitationForm{SessionID: "s", Message: "m"}},
		{"a nameless field", acp.ElicitationForm{SessionID: "s", Message: "m", Fields: []acp.ElicitationField{{Title: "x"}}}},
		{"two fields of one name", acp.ElicitationForm{SessionID: "s", Message: "m", Fields: []acp.ElicitationField{field, field}}},
		{"a multi-select without choices", acp.ElicitationForm{SessionID: "s", Message: "m", Fields: []acp.ElicitationField{{Name: "q", Multiple: true}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if data, err := json.Marshal(tt.form); err == nil {
				t.Errorf("encoded %s, want an error", data)
			}
		})
	}
}

// TestCreateElicitationAnswers round-trips elicitation/create: each
// answer a client may give (every one checked against the schema's
// response), and the answers that do not fit.
func TestCreateElicitationAnswers(t *testing.T) {
	tests := []struct {
		name       string
		answer     string
		wantAction acp.ElicitationAction
		wantValues map[string][]string // field → values; a nil slice: no value
		wantErr    error
		invalid    bool // the answer breaks the schema (the agent must cope)
	}{
		{name: "accept", answer: `{"action":"accept","content":{"q2":"SQLite","q1":["auth","billing"],"q3":"soon"}}`,
			wantAction: acp.ElicitationAccept, wantValues: map[string][]string{"q2": {"SQLite"}, "q1": {"auth", "billing"}, "q3": {"soon"}}},
		{name: "accept with a field left out", answer: `{"action":"accept","content":{"q3":"x"}}`,
			wantAction: acp.ElicitationAccept, wantValues: map[string][]string{"q2": nil, "q3": {"x"}}},
		{name: "accept with a number", answer: `{"action":"accept","content":{"q3":5}}`,
			wantAction: acp.ElicitationAccept, wantValues: map[string][]string{"q3": nil}},
		{name: "decline", answer: `{"action":"decline"}`, wantAction: acp.ElicitationDecline},
		{name: "cancel", answer: `{"action":"cancel"}`, wantAction: acp.ElicitationCancel},
		{name: "an extension's action", answer: `{"action":"_later"}`, wantAction: "_later"},
		{name: "no action", answer: `{}`, wantErr: acp.ErrInvalidAnswer, invalid: true},
		{name: "an empty action", answer: `{"action":""}`, wantErr: acp.ErrInvalidAnswer},
		{name: "content that is no object", answer: `{"action":"accept","content":[1]}`, wantErr: acp.ErrInvalidAnswer, invalid: true},
		{name: "a string", answer: `"ok"`, wantErr: acp.ErrInvalidAnswer, invalid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			err := mustSchema(t).Validate(acptest.FromClient, acptest.Response, "elicitation/create", json.RawMessage(tt.answer))
			if (err != nil) != tt.invalid {
				t.Fatalf("the answer's schema check: %v, want invalid %v", err, tt.invalid)
			}
			type outcome struct {
				resp acp.ElicitationResponse
				err  error
			}
			got := make(chan outcome, 1)
			agent := &fakeAgent{prompt: func(ctx context.Context, conn *acp.Conn, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
				resp, err := conn.CreateElicitation(ctx, sampleForm(string(req.SessionId)))
				got <- outcome{resp, err}
				return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, nil
			}}
			c := newClient(t, agent)
			c.Handle("elicitation/create", func(context.Context, json.RawMessage) (any, error) {
				return json.RawMessage(tt.answer), nil
			})
			if err := c.Call(ctx, "session/prompt", textPrompt("s1", "go"), nil); err != nil {
				t.Fatal(err)
			}
			o := <-got
			if tt.wantErr != nil {
				if !errors.Is(o.err, tt.wantErr) {
					t.Fatalf("err %v, want %v", o.err, tt.wantErr)
				}
				return
			}
			if o.err != nil {
				t.Fatal(o.err)
			}
			if o.resp.Action != tt.wantAction {
				t.Errorf("action %q, want %q", o.resp.Action, tt.wantAction)
			}
			for name, want := range tt.wantValues {
				values, ok := o.resp.Values(name)
				if ok != (want != nil) || !slices.Equal(values, want) {
					t.Errorf("Values(%q) = %q, %v; want %q", name, values, ok, want)
				}
			}
		})
	}
}

// TestCreateElicitationWithdrawnOnCancel: a form pending when the turn
// is cancelled returns at once and is withdrawn with $/cancel_request.
func TestCreateElicitationWithdrawnOnCancel(t *testing.T) {
	ctx := testCtx(t)
	asked := make(chan struct{})
	errs := make(chan error, 1)
	agent := &fakeAgent{prompt: func(ctx context.Context, conn *acp.Conn, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
		_, err := conn.CreateElicitation(ctx, sampleForm(string(req.SessionId)))
		errs <- err
		return acpsdk.PromptResponse{}, err
	}}
	c := newClient(t, agent)
	c.Handle("elicitation/create", func(ctx context.Context, _ json.RawMessage) (any, error) {
		close(asked)
		<-ctx.Done() // the client's own end: the test's close
		return json.RawMessage(`{"action":"cancel"}`), nil
	})
	var resp acpsdk.PromptResponse
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "session/prompt", textPrompt("s1", "go"), &resp) }()
	<-asked
	if err := c.Notify("session/cancel", acpsdk.CancelNotification{SessionId: "s1"}); err != nil {
		t.Fatal(err)
	}
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("CreateElicitation returned %v, want the cancellation", err)
	}
	if _, err := c.WaitFrame(ctx, acptest.MethodFrame("$/cancel_request")); err != nil {
		t.Fatalf("the form was not withdrawn: %v", err)
	}
	if err := <-done; err != nil || resp.StopReason != acpsdk.StopReasonCancelled {
		t.Errorf("prompt answered %+v, %v; want cancelled", resp, err)
	}
}
