package bridge_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// planInitialize advertises the unstable plan operations.
const planInitialize = `{"protocolVersion":1,"clientCapabilities":{"plan":{}}}`

// thePlan is the plan the scripted model presents.
const thePlan = "# Plan\n\n1. Write notes.txt\n2. Check it\n"

// setMode switches the session's mode the way the user does.
func (e *env) setMode(session, mode string) {
	e.t.Helper()
	if err := e.c.Call(testCtx(e.t), "session/set_mode", map[string]any{"sessionId": session, "modeId": mode}, nil); err != nil {
		e.t.Fatalf("session/set_mode %s: %v", mode, err)
	}
}

// reviewAnswer answers plan reviews (permission requests of kind
// switch_mode) with option, keeps each request, and fails the test on
// any other permission request.
type reviewAnswer struct {
	t      *testing.T
	option string
	mu     sync.Mutex
	asked  []acpsdk.RequestPermissionRequest
}

func (r *reviewAnswer) handle(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
	r.mu.Lock()
	r.asked = append(r.asked, req)
	r.mu.Unlock()
	if req.ToolCall.Kind == nil || *req.ToolCall.Kind != acpsdk.ToolKindSwitchMode {
		r.t.Errorf("a permission request that is no plan review: %+v", req.ToolCall)
		return selected("reject-once")
	}
	return selected(r.option)
}

func (r *reviewAnswer) requests() []acpsdk.RequestPermissionRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.asked)
}

// askNothing is a permission handler that fails the test: nothing may
// ask where.
func askNothing(t *testing.T, where string) func(acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
	return func(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
		t.Errorf("asked about %s %s", req.ToolCall.ToolCallId, where)
		return selected("allow-once")
	}
}

// callResult is the text of a call's last update's content.
func callResult(us []update) string {
	if len(us) == 0 {
		return ""
	}
	var b strings.Builder
	for _, it := range us[len(us)-1].items() {
		b.WriteString(it.Content.Text)
	}
	return b.String()
}

// modeUpdates are the modes the session's current_mode_update and
// config_option_update frames told, in order, each as "current:<mode>"
// or "option:<mode>", with the frame index.
func modeUpdates(us []update) (told []string, frames []int) {
	for _, u := range us {
		switch u.Kind {
		case "current_mode_update":
			var v struct {
				CurrentModeID string `json:"currentModeId"`
			}
			_ = json.Unmarshal(u.Raw, &v)
			told, frames = append(told, "current:"+v.CurrentModeID), append(frames, u.Frame)
		case "config_option_update":
			var v struct {
				ConfigOptions []configOption `json:"configOptions"`
			}
			_ = json.Unmarshal(u.Raw, &v)
			mode, _ := optionValue(v.ConfigOptions, "mode")
			told, frames = append(told, "option:"+mode), append(frames, u.Frame)
		}
	}
	return told, frames
}

// In plan mode a write and a command that is not read-only are refused
// without asking, with a message that sends the model to exit_plan_mode;
// a read-only command runs.
func TestPlanModeRefusesWritesAndCommands(t *testing.T) {
	model := llm.NewScripted(
		llm.Message{ToolCalls: []llm.ToolCall{
			call("c_write", "write", map[string]any{"file_path": "notes.txt", "content": "x\n"}),
		}},
		toolStep("c_touch", "bash", map[string]any{"command": "touch marker"}),
		toolStep("c_ls", "bash", map[string]any{"command": "ls"}),
		llm.Message{Content: "planned"},
	)
	e := newEnv(t, withProvider(model), withPreset(policy.Plan))
	e.c.HandlePermission(askNothing(t, "in plan mode"))
	e.initialize(plainInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "plan a change"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	for _, path := range []string{"notes.txt", "marker"} {
		if readFile(t, e.dir+"/"+path) != "<absent>" {
			t.Errorf("%s was created in plan mode", path)
		}
	}
	us := e.updates(s)
	for _, id := range []string{"c_write", "c_touch"} {
		c := forCall(us, id)
		if finalStatus(c) != "failed" {
			t.Errorf("%s: statuses %v, want failed", id, statuses(c))
		}
		if text := callResult(c); !strings.Contains(text, "the session is in plan mode") || !strings.Contains(text, "exit_plan_mode") {
			t.Errorf("%s: result %q, want it to say plan mode refuses it and to present the plan with exit_plan_mode", id, text)
		}
	}
	if c := forCall(us, "c_ls"); finalStatus(c) != "completed" {
		t.Errorf("ls: statuses %v, want completed (a read-only command runs in plan mode)", statuses(c))
	}
}

// exit_plan_mode → "Implement the plan": the session goes back to the
// preset it had before plan mode, through the user's own switch (the
// client is told with current_mode_update and config_option_update, and
// a load finds it), and the same turn's next write runs under it.
func TestExitPlanModeImplement(t *testing.T) {
	tests := []struct {
		name    string
		start   policy.Preset // the preset the session starts with
		viaUser bool          // the user switches to plan mode after session/new
		want    policy.Preset // the preset the plan is implemented under
	}{
		{"from workspace-write", policy.WorkspaceWrite, true, policy.WorkspaceWrite},
		{"from full-access", policy.FullAccess, true, policy.FullAccess},
		{"a session that started in plan mode", policy.Plan, false, policy.WorkspaceWrite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := llm.NewScripted(
				toolStep("c_first", "write", map[string]any{"file_path": "notes.txt", "content": "too early\n"}),
				toolStep("c_exit", "exit_plan_mode", map[string]any{"plan": thePlan}),
				toolStep("c_write", "write", map[string]any{"file_path": "notes.txt", "content": "planned\n"}),
				llm.Message{Content: "done"},
			)
			state, dir := t.TempDir(), tempDir(t)
			e := newEnv(t, withProvider(model), withPreset(tt.start), withStore(openStore(t, state)), withDir(dir))
			review := &reviewAnswer{t: t, option: "allow-once"}
			e.c.HandlePermission(review.handle)
			e.initialize(plainInitialize)
			s := e.newSession("")
			if tt.viaUser {
				e.setMode(s, string(policy.Plan))
			}
			if got := e.prompt(s, "plan, then write notes.txt"); got != "end_turn" {
				t.Fatalf("stopReason = %s", got)
			}
			if got := readFile(t, dir+"/notes.txt"); got != "planned\n" {
				t.Errorf("notes.txt = %q, want the write after the approval to have run", got)
			}
			us := e.updates(s)
			if c := forCall(us, "c_first"); finalStatus(c) != "failed" {
				t.Errorf("the write before the approval: %v, want refused", statuses(c))
			}
			if c := forCall(us, "c_write"); finalStatus(c) != "completed" {
				t.Errorf("the write after the approval: %v, want completed", statuses(c))
			}
			exit := forCall(us, "c_exit")
			if len(exit) == 0 || exit[0].ToolKind != "switch_mode" || finalStatus(exit) != "completed" {
				t.Fatalf("exit_plan_mode's card %+v, want a completed switch_mode call", exit)
			}
			checkOutcome(t, "live", exit, "Plan approved — implementing", "now in "+string(tt.want)+" mode", "in this turn")
			reqs := review.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d permission requests, want the one plan review", len(reqs))
			}
			checkPlanReview(t, reqs[0])
			told, at := modeUpdates(us)
			want := []string{"current:" + string(tt.want), "option:" + string(tt.want)}
			if tt.viaUser {
				want = append([]string{"current:plan", "option:plan"}, want...)
			}
			if !slices.Equal(told, want) {
				t.Errorf("mode updates %q, want %q", told, want)
			}
			if c := forCall(us, "c_write"); len(c) > 0 && len(at) > 0 && at[len(at)-1] > c[0].Frame {
				t.Errorf("the mode updates came after the next write's card")
			}
			e.c.Close()

			e2 := newEnv(t, withStore(openStore(t, state)), withDir(dir))
			e2.initialize(plainInitialize)
			var loaded struct {
				ConfigOptions []configOption `json:"configOptions"`
			}
			if err := e2.load(s, dir, &loaded); err != nil {
				t.Fatalf("session/load: %v", err)
			}
			checkOutcome(t, "replay", forCall(e2.updates(s), "c_exit"), "Plan approved — implementing", "now in "+string(tt.want)+" mode", "in this turn")
			if got, _ := optionValue(loaded.ConfigOptions, "mode"); got != string(tt.want) {
				t.Errorf("after load: mode = %q, want %q (stored as a user's switch is)", got, tt.want)
			}
		})
	}
}

// checkOutcome checks a plan review's final update: its content is the
// one line the user reads (what other clients show), and its rawOutput is
// what the model was told, holding each of model.
func checkOutcome(t *testing.T, where string, exit []update, line string, model ...string) {
	t.Helper()
	if len(exit) == 0 {
		t.Fatalf("%s: no updates for exit_plan_mode", where)
	}
	last := exit[len(exit)-1]
	items := last.items()
	if len(items) != 1 || items[0].Type != "content" || items[0].Content.Text != line {
		t.Errorf("%s: exit_plan_mode's content %s, want the one line %q", where, last.Content, line)
	}
	var raw struct {
		RawOutput *string `json:"rawOutput"`
	}
	_ = json.Unmarshal(last.Raw, &raw)
	if raw.RawOutput == nil {
		t.Fatalf("%s: exit_plan_mode's final update %s has no rawOutput string", where, last.Raw)
	}
	for _, m := range model {
		if !strings.Contains(*raw.RawOutput, m) {
			t.Errorf("%s: exit_plan_mode's rawOutput %q, want the model's instructions (%q)", where, *raw.RawOutput, m)
		}
	}
}

// checkPlanReview checks a plan review's request: the exit_plan_mode
// call, kind switch_mode, the plan as its content, and the two choices.
func checkPlanReview(t *testing.T, req acpsdk.RequestPermissionRequest) {
	t.Helper()
	if req.ToolCall.ToolCallId != "c_exit" {
		t.Errorf("the review is about %s, want c_exit", req.ToolCall.ToolCallId)
	}
	raw, _ := json.Marshal(req.ToolCall.Content)
	if !strings.Contains(string(raw), "Write notes.txt") {
		t.Errorf("the review's content %s, want the plan", raw)
	}
	var got []string
	for _, o := range req.Options {
		got = append(got, string(o.OptionId)+"|"+o.Name+"|"+string(o.Kind))
	}
	want := []string{"allow-once|Implement the plan|allow_once", "reject-once|Keep planning|reject_once"}
	if !slices.Equal(got, want) {
		t.Errorf("options %q, want %q", got, want)
	}
}

// "Keep planning": the model is told to revise, and the session stays in
// plan mode (a write in the same turn is still refused).
func TestExitPlanModeKeepPlanning(t *testing.T) {
	model := llm.NewScripted(
		toolStep("c_exit", "exit_plan_mode", map[string]any{"plan": thePlan}),
		toolStep("c_write", "write", map[string]any{"file_path": "notes.txt", "content": "x\n"}),
		llm.Message{Content: "what should change?"},
	)
	e := newEnv(t, withProvider(model))
	review := &reviewAnswer{t: t, option: "reject-once"}
	e.c.HandlePermission(review.handle)
	e.initialize(plainInitialize)
	s := e.newSession("")
	e.setMode(s, string(policy.Plan))
	if got := e.prompt(s, "plan it"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	us := e.updates(s)
	checkOutcome(t, "live", forCall(us, "c_exit"), "Keep planning", "keep planning", "Revise the plan")
	if c := forCall(us, "c_write"); finalStatus(c) != "failed" || !strings.Contains(callResult(c), "plan mode") {
		t.Errorf("the write after keep planning: %v %q, want refused in plan mode", statuses(c), callResult(c))
	}
	if readFile(t, e.dir+"/notes.txt") != "<absent>" {
		t.Error("notes.txt was written after keep planning")
	}
	if told, _ := modeUpdates(us); !slices.Equal(told, []string{"current:plan", "option:plan"}) {
		t.Errorf("mode updates %q, want only the user's switch to plan", told)
	}
	if len(review.requests()) != 1 {
		t.Errorf("%d reviews, want 1", len(review.requests()))
	}
}

// Cancelling the turn while the plan review waits ends the turn
// cancelled and leaves the session in plan mode; so does a review the
// client answers "cancelled".
func TestExitPlanModeCancelled(t *testing.T) {
	for _, how := range []string{"session/cancel", "a cancelled outcome"} {
		t.Run(how, func(t *testing.T) {
			model := llm.NewScripted(
				toolStep("c_exit", "exit_plan_mode", map[string]any{"plan": thePlan}),
				llm.Message{Content: "never asked"},
			)
			e := newEnv(t, withProvider(model))
			asked := make(chan struct{}, 1)
			e.c.Handle("session/request_permission", func(ctx context.Context, _ json.RawMessage) (any, error) {
				asked <- struct{}{}
				if how == "a cancelled outcome" {
					return json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`), nil
				}
				<-ctx.Done()
				return json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`), nil
			})
			e.initialize(plainInitialize)
			s := e.newSession("")
			e.setMode(s, string(policy.Plan))
			turn := e.startPrompt(s, "plan it")
			<-asked
			if how == "session/cancel" {
				e.cancel(s)
			}
			if got := turn.stop(); got != "cancelled" {
				t.Errorf("stopReason = %s, want cancelled", got)
			}
			if told, _ := modeUpdates(e.updates(s)); !slices.Equal(told, []string{"current:plan", "option:plan"}) {
				t.Errorf("mode updates %q, want the session left in plan mode", told)
			}
			if strings.Contains(agentText(e.updates(s)), "never asked") {
				t.Error("the model was asked again after the cancel")
			}
		})
	}
}

// Outside plan mode exit_plan_mode fails with a clear error and asks
// nothing.
func TestExitPlanModeOutsidePlanMode(t *testing.T) {
	model := llm.NewScripted(toolStep("c_exit", "exit_plan_mode", map[string]any{"plan": thePlan}), llm.Message{Content: "ok"})
	e := newEnv(t, withProvider(model))
	e.c.HandlePermission(askNothing(t, "outside plan mode"))
	e.initialize(planInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "go"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	c := forCall(e.updates(s), "c_exit")
	if finalStatus(c) != "failed" || !strings.Contains(callResult(c), "not in plan mode") {
		t.Errorf("exit_plan_mode outside plan mode: %v %q, want a failure saying the session is not in plan mode", statuses(c), callResult(c))
	}
	for _, u := range e.updates(s) {
		if u.Kind == "plan_update" || u.Kind == "plan" {
			t.Errorf("a plan was shown: %s", u.Raw)
		}
	}
}

// The plan under review is a plan_update of Markdown to a client that
// advertises plan; the others get it as the agent's text and the legacy
// plan of its steps.
func TestPlanReviewShowsThePlan(t *testing.T) {
	for _, withPlan := range []bool{true, false} {
		name := map[bool]string{true: "with the plan capability", false: "without it"}[withPlan]
		t.Run(name, func(t *testing.T) {
			model := llm.NewScripted(toolStep("c_exit", "exit_plan_mode", map[string]any{"plan": thePlan}), llm.Message{Content: "ok"})
			e := newEnv(t, withProvider(model), withPreset(policy.Plan))
			e.c.HandlePermission((&reviewAnswer{t: t, option: "reject-once"}).handle)
			e.initialize(map[bool]string{true: planInitialize, false: plainInitialize}[withPlan])
			s := e.newSession("")
			if got := e.prompt(s, "plan it"); got != "end_turn" {
				t.Fatalf("stopReason = %s", got)
			}
			us := e.updates(s)
			var kinds []string
			for _, u := range us {
				if strings.HasPrefix(u.Kind, "plan") {
					kinds = append(kinds, u.Kind)
				}
			}
			if withPlan {
				if !slices.Equal(kinds, []string{"plan_update"}) {
					t.Fatalf("plan updates %q, want one plan_update", kinds)
				}
				for _, u := range us {
					if u.Kind == "plan_update" {
						var v struct {
							Plan struct{ Type, PlanID, Content string } `json:"plan"`
						}
						_ = json.Unmarshal(u.Raw, &v)
						if v.Plan.Type != "markdown" || v.Plan.Content != strings.TrimSpace(thePlan) {
							t.Errorf("plan_update %s, want the Markdown plan", u.Raw)
						}
					}
				}
				if strings.Contains(agentText(us), "Write notes.txt") {
					t.Error("the plan was also sent as text to a client that shows plans")
				}
				return
			}
			if !slices.Equal(kinds, []string{"plan"}) {
				t.Fatalf("plan updates %q, want one legacy plan", kinds)
			}
			if !strings.Contains(agentText(us), "1. Write notes.txt\n2. Check it") {
				t.Errorf("agent text %q, want the plan", agentText(us))
			}
			for _, u := range us {
				if u.Kind == "plan" {
					var got []string
					for _, en := range u.Entries {
						got = append(got, en.Content+"|"+en.Status)
					}
					if want := []string{"Write notes.txt|pending", "Check it|pending"}; !slices.Equal(got, want) {
						t.Errorf("legacy plan entries %q, want %q", got, want)
					}
				}
			}
		})
	}
}

// todo_write lists are plan_update items to a client that advertises
// plan, plan_removed when cleared; the legacy plan to the others.
func TestTodoListAsPlanOperations(t *testing.T) {
	todos := func(items ...string) map[string]any {
		list := []map[string]any{}
		for _, it := range items {
			list = append(list, map[string]any{"content": it, "status": "pending"})
		}
		return map[string]any{"todos": list}
	}
	for _, withPlan := range []bool{true, false} {
		name := map[bool]string{true: "with the plan capability", false: "without it"}[withPlan]
		t.Run(name, func(t *testing.T) {
			model := llm.NewScripted(
				toolStep("c_1", "todo_write", todos("read", "write")),
				toolStep("c_2", "todo_write", todos()),
				llm.Message{Content: "ok"},
			)
			e := newEnv(t, withProvider(model))
			e.initialize(map[bool]string{true: planInitialize, false: plainInitialize}[withPlan])
			s := e.newSession("")
			if got := e.prompt(s, "track it"); got != "end_turn" {
				t.Fatalf("stopReason = %s", got)
			}
			var got []string
			for _, u := range e.updates(s) {
				if strings.HasPrefix(u.Kind, "plan") {
					got = append(got, string(u.Raw))
				}
			}
			want := []string{
				`{"sessionUpdate":"plan","entries":[{"content":"read","priority":"medium","status":"pending"},{"content":"write","priority":"medium","status":"pending"}]}`,
				`{"sessionUpdate":"plan","entries":[]}`,
			}
			if withPlan {
				want = []string{
					`{"sessionUpdate":"plan_update","plan":{"type":"items","planId":"todos","entries":[{"content":"read","priority":"medium","status":"pending"},{"content":"write","priority":"medium","status":"pending"}]}}`,
					`{"sessionUpdate":"plan_removed","planId":"todos"}`,
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("plan updates:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// The plan mode preset is offered with the others, as a config option
// value and as a legacy mode.
func TestPlanModeIsOffered(t *testing.T) {
	e := newEnv(t)
	e.initialize(plainInitialize)
	var created struct {
		ConfigOptions []configOption `json:"configOptions"`
		Modes         struct {
			AvailableModes []struct{ ID, Name string } `json:"availableModes"`
		} `json:"modes"`
	}
	if err := e.c.Call(testCtx(t), "session/new", acpsdk.NewSessionRequest{Cwd: e.dir, McpServers: []acpsdk.McpServer{}}, &created); err != nil {
		t.Fatal(err)
	}
	var values, modes []string
	for _, o := range created.ConfigOptions {
		if o.ID == "mode" {
			for _, v := range o.Options {
				values = append(values, v.Value)
			}
		}
	}
	for _, m := range created.Modes.AvailableModes {
		modes = append(modes, m.ID)
	}
	want := []string{"read-only", "workspace-write", "full-access", "plan"}
	if !slices.Equal(values, want) || !slices.Equal(modes, want) {
		t.Errorf("mode option values %q, legacy modes %q; want %q", values, modes, want)
	}
}

// A stored session loaded in plan mode goes back, on "Implement the
// plan", to the preset its log says it had before plan mode.
func TestExitPlanModeAfterLoad(t *testing.T) {
	state, dir := t.TempDir(), tempDir(t)
	e := newEnv(t, withStore(openStore(t, state)), withDir(dir))
	e.initialize(plainInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "hello"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	e.setMode(s, string(policy.FullAccess))
	e.setMode(s, string(policy.Plan))
	e.c.Close()

	model := llm.NewScripted(toolStep("c_exit", "exit_plan_mode", map[string]any{"plan": thePlan}), llm.Message{Content: "ok"})
	e2 := newEnv(t, withProvider(model), withStore(openStore(t, state)), withDir(dir))
	e2.c.HandlePermission((&reviewAnswer{t: t, option: "allow-once"}).handle)
	e2.initialize(plainInitialize)
	if err := e2.load(s, dir, nil); err != nil {
		t.Fatalf("session/load: %v", err)
	}
	if got := e2.prompt(s, "implement it"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	checkOutcome(t, "after load", forCall(e2.updates(s), "c_exit"), "Plan approved — implementing", "now in full-access mode")
}
