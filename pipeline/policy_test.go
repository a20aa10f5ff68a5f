package pipeline_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

func preDecide(d pipeline.Decision) pipeline.PreExecute {
	return func(context.Context, *registry.Call, pipeline.PreNext) (pipeline.Decision, error) { return d, nil }
}

func approve(outcome pipeline.ApprovalOutcome, err error) pipeline.Approver {
	return pipeline.ApproverFunc(func(context.Context, pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
		return outcome, err
	})
}

func TestPreExecuteAndApproval(t *testing.T) {
	tests := []struct {
		name       string
		approver   pipeline.Approver
		decision   pipeline.Decision
		agentless  bool
		want       want
		wantBodies int
	}{
		{"C30 deny", nil, pipeline.Deny("denied by policy"), false, want{content: "Error: denied by policy", isError: true, value: "-"}, 0},
		{"deny without a reason", nil, pipeline.Deny(""), false, want{content: "Error: denied by policy", isError: true, value: "-"}, 0},
		{"C31 ask with no approver says the ask reason", nil, pipeline.Ask("needs a human"), false, want{content: `Error: tool "echo" requires approval (needs a human), but no approval channel is available`, isError: true, value: "-"}, 0},
		{"C32 ask without a reason", nil, pipeline.Ask(""), false, want{content: `Error: tool "echo" requires approval, but no approval channel is available`, isError: true, value: "-"}, 0},
		{"C33 allowed once", approve(pipeline.ApprovalAllowedOnce, nil), pipeline.Ask("why"), false, want{content: "hi", value: `"hi"`}, 1},
		{"C34 rejected", approve(pipeline.ApprovalRejected, nil), pipeline.Ask(""), false, want{content: `Error: tool "echo" did not run: the permission request was answered "reject"`, isError: true, value: "-"}, 0},
		{"C35 cancelled", approve(pipeline.ApprovalCancelled, nil), pipeline.Ask(""), false, want{content: `Error: approval for tool "echo" was cancelled`, isError: true, value: "-"}, 0},
		{"C37 unavailable", approve(pipeline.ApprovalUnavailable, nil), pipeline.Ask(""), false, want{content: `Error: tool "echo" requires approval, but no approval channel is available`, isError: true, value: "-"}, 0},
		{"unavailable, with a reason", approve(pipeline.ApprovalUnavailable, nil), pipeline.Ask("writes x"), false, want{content: `Error: tool "echo" requires approval (writes x), but no approval channel is available`, isError: true, value: "-"}, 0},
		{"failed request fails closed", approve(pipeline.ApprovalAllowedOnce, errors.New("client gone")), pipeline.Ask(""), false, want{content: `Error: tool "echo" requires approval, but asking for it failed: client gone`, isError: true, value: "-"}, 0},
		{"C38 agent-less ask", approve(pipeline.ApprovalAllowedOnce, nil), pipeline.Ask(""), true, want{content: `Error: tool "echo" requires approval, but the call has no agent to route it through`, isError: true, value: "-"}, 0},
		{"C39 rogue outcome", approve(pipeline.ApprovalOutcome(99), nil), pipeline.Ask(""), false, want{contains: "unknown outcome 99", isError: true, value: "-"}, 0},
		{"unknown decision kind", nil, pipeline.Decision{Kind: 42}, false, want{contains: "unknown decision kind 42", isError: true, value: "-"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bodies, asked, postSaw := 0, 0, 0
			var approver pipeline.Approver
			if tt.approver != nil {
				approver = pipeline.ApproverFunc(func(ctx context.Context, req pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
					asked++
					if req.ToolName != "echo" || req.CallID != "call_1" || req.Scope == nil || req.Call == nil || req.Reason != tt.decision.Reason {
						t.Errorf("approval request = %+v", req)
					}
					return tt.approver.RequestApproval(ctx, req)
				})
			}
			f := newFixture(t, pipeline.Options{Approver: approver})
			f.echo(t, func(s *echoSpec) {
				s.Handler = func(_ context.Context, _ *registry.Call, a textArgs) (string, error) {
					bodies++
					return a.Text, nil
				}
			})
			f.p.UsePreExecute(nil, preDecide(tt.decision))
			f.p.UsePostExecute(nil, func(ctx context.Context, _ *registry.Call, _ pipeline.Result, next pipeline.PostNext) (pipeline.PostDecision, error) {
				postSaw++
				return next(ctx)
			})
			in := pipeline.Input{CallID: "call_1", Name: "echo", Arguments: `{"text":"hi"}`, Scope: f.agent}
			if tt.agentless {
				in.Scope = nil
			}
			check(t, f.p.Execute(context.Background(), in), tt.want)
			if bodies != tt.wantBodies {
				t.Errorf("body ran %d times, want %d", bodies, tt.wantBodies)
			}
			if tt.agentless && asked != 0 {
				t.Errorf("an agent-less call was asked about")
			}
			// C30: post-execute sees denials; C39: a failing ask skips it.
			wantPost := 1
			if tt.name == "C39 rogue outcome" || tt.name == "unknown decision kind" {
				wantPost = 0
			}
			if postSaw != wantPost {
				t.Errorf("post-execute ran %d times, want %d", postSaw, wantPost)
			}
		})
	}
}

func TestListenerFailures(t *testing.T) {
	// C74, C75, C76, C77.
	coded := &registry.Error{Code: "POLICY", Message: "policy store unreachable"}
	tests := []struct {
		name  string
		setup func(f *fixture)
		want  want
	}{
		{"C75 panicking pre-execute", func(f *fixture) {
			f.p.UsePreExecute(nil, func(context.Context, *registry.Call, pipeline.PreNext) (pipeline.Decision, error) {
				panic("pre exploded")
			})
		}, want{content: "Error: pre exploded", isError: true, value: "-"}},
		{"C77 pre-execute coded error", func(f *fixture) {
			f.p.UsePreExecute(nil, func(context.Context, *registry.Call, pipeline.PreNext) (pipeline.Decision, error) {
				return pipeline.Decision{}, coded
			})
		}, want{content: "Error: policy store unreachable", isError: true, code: "POLICY", value: "-"}},
		{"C74 panicking execute wrapper", func(f *fixture) {
			f.p.UseExecute(nil, func(context.Context, *registry.Call, pipeline.ExecuteNext) (pipeline.Result, error) {
				panic("wrapper exploded")
			})
		}, want{content: "Error: wrapper exploded", isError: true, value: "-"}},
		{"C76 panicking post-execute", func(f *fixture) {
			f.p.UsePostExecute(nil, func(context.Context, *registry.Call, pipeline.Result, pipeline.PostNext) (pipeline.PostDecision, error) {
				panic("post exploded")
			})
		}, want{content: "Error: post exploded", isError: true, value: "-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, pipeline.Options{})
			f.echo(t, nil)
			tt.setup(f)
			check(t, f.run(context.Background(), "echo", `{"text":"hi"}`), tt.want)
		})
	}
}

// TestApprovalRequestCarriesCardAndReason: the approver is handed what
// the user approves — the approval card, computed when the call asks,
// else the pending card — and the reason the pre-execute chain gave, so
// it derives neither.
func TestApprovalRequestCarriesCardAndReason(t *testing.T) {
	pending := presentation.GenericCallView{Title: "Echo hi", Kind: presentation.KindOther}
	type ctxKey struct{}
	tests := []struct {
		name     string
		present  func(*echoSpec, *string)
		reason   string
		wantCard presentation.CallView
	}{
		{"the approval card, computed when the call asks", func(s *echoSpec, world *string) {
			s.PresentCall = func(textArgs) presentation.CallView { return pending }
			s.PresentApproval = func(ctx context.Context, a textArgs) presentation.CallView {
				if ctx.Value(ctxKey{}) != "approval" {
					return nil
				}
				return presentation.DiffCallView{Title: "Echo " + a.Text, Diffs: []presentation.FileDiff{{Path: "f", NewText: *world}}}
			}
		}, "writes f, outside the workspace", presentation.DiffCallView{Title: "Echo hi", Diffs: []presentation.FileDiff{{Path: "f", NewText: "as it is when asked"}}}},
		{"the pending card when the tool has no other", func(s *echoSpec, _ *string) {
			s.PresentCall = func(textArgs) presentation.CallView { return pending }
		}, "runs a command", pending},
		{"no card, no reason", func(*echoSpec, *string) {}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []pipeline.ApprovalRequest
			f := newFixture(t, pipeline.Options{Approver: pipeline.ApproverFunc(func(_ context.Context, req pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
				got = append(got, req)
				return pipeline.ApprovalRejected, nil
			})})
			world := "as it was announced"
			f.echo(t, func(s *echoSpec) { tt.present(s, &world) })
			f.p.UsePreExecute(nil, func(ctx context.Context, _ *registry.Call, _ pipeline.PreNext) (pipeline.Decision, error) {
				world = "as it is when asked"
				return pipeline.Ask(tt.reason), nil
			})
			f.run(context.WithValue(context.Background(), ctxKey{}, "approval"), "echo", `{"text":"hi"}`)
			if len(got) != 1 {
				t.Fatalf("%d approval requests, want 1", len(got))
			}
			if !reflect.DeepEqual(got[0].Card, tt.wantCard) || got[0].Reason != tt.reason {
				t.Errorf("request card %#v, reason %q; want %#v, %q", got[0].Card, got[0].Reason, tt.wantCard, tt.reason)
			}
		})
	}
}

func TestScopedPreExecuteGatesOnlyItsAgent(t *testing.T) {
	// C192.
	f := newFixture(t, pipeline.Options{})
	f.echo(t, nil)
	f.p.UsePreExecute(f.agent, preDecide(pipeline.Deny("agent gate")))
	other := f.reg.NewScope("other", nil)
	for _, tc := range []struct {
		scope  *registry.Scope
		denied bool
	}{{f.agent, true}, {other, false}, {nil, false}} {
		r := f.p.Execute(context.Background(), pipeline.Input{CallID: "c", Name: "echo", Arguments: `{"text":"x"}`, Scope: tc.scope})
		if r.IsError != tc.denied {
			t.Errorf("scope %v: isError = %v, want %v", tc.scope, r.IsError, tc.denied)
		}
	}
}

func TestGuardsRunAfterPreExecute(t *testing.T) {
	// C193, C194.
	f := newFixture(t, pipeline.Options{})
	bodies := 0
	f.echo(t, func(s *echoSpec) {
		s.Handler = func(_ context.Context, _ *registry.Call, a textArgs) (string, error) {
			bodies++
			return a.Text, nil
		}
	})
	var order []string
	f.p.UsePreExecute(nil, func(ctx context.Context, _ *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
		order = append(order, "pre")
		return next(ctx)
	})
	f.reg.Guard(f.agent, func(*registry.Call) string { order = append(order, "scoped guard"); return "" })
	f.reg.Guard(nil, func(*registry.Call) string { order = append(order, "global guard"); return "" })
	f.reg.Guard(nil, func(*registry.Call) string { return "global denial" })
	check(t, f.run(context.Background(), "echo", `{"text":"x"}`), want{content: "Error: global denial", isError: true, value: "-"})
	if got := len(order); got != 2 || order[0] != "pre" || order[1] != "global guard" {
		t.Errorf("order = %v", order)
	}
	if bodies != 0 {
		t.Errorf("the body ran after a guard denied")
	}
	// A denying pre-execute skips the guards.
	order = nil
	f.p.UsePreExecute(nil, preDecide(pipeline.Deny("no")))
	f.run(context.Background(), "echo", `{"text":"x"}`)
	for _, o := range order {
		if o != "pre" {
			t.Errorf("a guard ran after a deny: %v", order)
		}
	}
}

func TestPostExecuteDecisions(t *testing.T) {
	ctxMsg := registry.UserContext
	tests := []struct {
		name     string
		body     func(call *registry.Call, a textArgs) (string, error)
		decide   func(r pipeline.Result) pipeline.PostDecision
		dispose  bool
		want     want
		wantSeen bool
	}{
		{
			name: "C40 C15 accept with replacement content keeps value and meta",
			decide: func(pipeline.Result) pipeline.PostDecision {
				return pipeline.AcceptContent([]presentation.ContentBlock{presentation.Text("redacted")})
			},
			want: want{content: "redacted", value: `"hi"`, meta: `{"m":"hi"}`},
		},
		{
			name: "C15 C18 value replacement re-renders and re-projects, adding only the decision's contexts",
			decide: func(pipeline.Result) pipeline.PostDecision {
				d := pipeline.AcceptValue("policy value")
				d.AdditionalContexts = []registry.ContextMessage{ctxMsg("post")}
				return d
			},
			want: want{content: "policy value", value: `"policy value"`, meta: `{"m":"policy value"}`, contexts: []string{"post"}},
		},
		{
			name: "C16 replacing both",
			decide: func(pipeline.Result) pipeline.PostDecision {
				d := pipeline.AcceptValue("v")
				d.Content = []presentation.ContentBlock{presentation.Text("c")}
				return d
			},
			want: want{content: "Error: post-execute accept decision cannot replace both value and content", isError: true, value: "-"},
		},
		{
			name:   "C16 an invalid replacement value",
			decide: func(pipeline.Result) pipeline.PostDecision { return pipeline.AcceptValue(42) },
			want:   want{contains: `Error: tool "echo" returned invalid output: value does not fit string`, isError: true, code: registry.CodeInvalidToolOutput, value: "-"},
		},
		{
			name: "C17 C41 block",
			decide: func(pipeline.Result) pipeline.PostDecision {
				return pipeline.Block(presentation.Text("blocked by policy"))
			},
			want: want{content: "blocked by policy", isError: true, value: "-"},
		},
		{
			name:   "C19 empty block feedback",
			decide: func(pipeline.Result) pipeline.PostDecision { return pipeline.Block() },
			want:   want{content: "Error: tool result blocked by post-execute policy", isError: true, value: "-"},
		},
		{
			name: "C19 non-text block feedback",
			decide: func(pipeline.Result) pipeline.PostDecision {
				return pipeline.Block(presentation.ImageBlock{MimeType: "image/png", Data: "AA=="})
			},
			want: want{content: "[image content]", isError: true, value: "-"},
		},
		{
			name: "C20 block feedback that is not JSON",
			decide: func(pipeline.Result) pipeline.PostDecision {
				return pipeline.Block(presentation.UnknownBlock{Type: "x", JSON: "{"})
			},
			want: want{content: "Error: tool result must be losslessly JSON-serializable", isError: true, value: "-"},
		},
		{
			name: "C21 value replacement on a failure",
			body: func(*registry.Call, textArgs) (string, error) { return "", errors.New("broke") },
			decide: func(pipeline.Result) pipeline.PostDecision {
				return pipeline.AcceptValue("v")
			},
			want: want{content: "Error: post-execute cannot replace the value of a failed result", isError: true, value: "-"},
		},
		{
			name:    "C22 tool disposed before a value replacement",
			dispose: true,
			decide:  func(pipeline.Result) pipeline.PostDecision { return pipeline.AcceptValue("v") },
			want:    want{content: `Error: unknown tool "echo"`, isError: true, code: registry.CodeUnknownTool, value: "-"},
		},
		{
			name: "C44 C47 a block keeps only its own contexts",
			body: func(call *registry.Call, a textArgs) (string, error) {
				call.DeferContext(ctxMsg("deferred"))
				return a.Text, nil
			},
			decide: func(pipeline.Result) pipeline.PostDecision {
				d := pipeline.Block(presentation.Text("no"))
				d.AdditionalContexts = []registry.ContextMessage{ctxMsg("block")}
				return d
			},
			want: want{content: "no", isError: true, value: "-", contexts: []string{"block"}},
		},
		{
			name: "C45 C46 context order: deferred, then post",
			body: func(call *registry.Call, a textArgs) (string, error) {
				call.DeferContext(ctxMsg("nested-1"))
				call.DeferContext(ctxMsg("nested-2"))
				return a.Text, nil
			},
			decide: func(pipeline.Result) pipeline.PostDecision {
				d := pipeline.Accept()
				d.AdditionalContexts = []registry.ContextMessage{ctxMsg("post")}
				return d
			},
			want: want{content: "hi", value: `"hi"`, contexts: []string{"nested-1", "nested-2", "post"}},
		},
		{
			name: "C47 a failing composite keeps its deferred contexts",
			body: func(call *registry.Call, a textArgs) (string, error) {
				call.DeferContext(ctxMsg("deferred"))
				return "", errors.New("composite failed")
			},
			decide: func(pipeline.Result) pipeline.PostDecision { return pipeline.Accept() },
			want:   want{content: "Error: composite failed", isError: true, value: "-", contexts: []string{"deferred"}},
		},
		{
			name:   "unknown post decision",
			decide: func(pipeline.Result) pipeline.PostDecision { return pipeline.PostDecision{Kind: 9} },
			want:   want{contains: "unknown decision kind 9", isError: true, value: "-"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, pipeline.Options{})
			f.echo(t, func(s *echoSpec) {
				s.PresentationMeta = func(_ textArgs, v string) (any, error) { return map[string]string{"m": v}, nil }
				if tt.body != nil {
					s.Handler = func(_ context.Context, call *registry.Call, a textArgs) (string, error) { return tt.body(call, a) }
				}
			})
			f.p.UsePostExecute(nil, func(_ context.Context, _ *registry.Call, r pipeline.Result, _ pipeline.PostNext) (pipeline.PostDecision, error) {
				if tt.dispose {
					f.unregister()
				}
				return tt.decide(r), nil
			})
			check(t, f.run(context.Background(), "echo", `{"text":"hi"}`), tt.want)
		})
	}
}
