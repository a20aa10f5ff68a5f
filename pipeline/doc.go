// Package pipeline executes tool calls: every call a model makes passes
// through the same stages, in this order.
//
//  1. Arguments are materialized once into immutable canonical JSON ("" is
//     {}, text that is not JSON is kept as a string) and bound to the tool
//     once (registry.Tool.Bind): validated and decoded a single time, and
//     that binding answers every later question about the call.
//  2. The pre-execute chain (middleware in the net/http style) decides
//     allow, deny or ask; an ask goes to the Approver.
//  3. Guards may still deny.
//  4. Execute wrappers run around the tool body; they may replace its
//     context but never detach it from the caller's cancellation. The
//     built-in TimeoutPolicy is one of them.
//  5. The post-execute chain accepts (possibly replacing content or value)
//     or blocks the result.
//  6. The tool's finalizer runs once, then observers see the result.
//
// Any panic becomes a failed result; a cancelled caller gets ABORTED or
// ABORTED_BEFORE_DISPATCH. No body holds a call's result past its
// cancellation or timeout: one that has not returned within
// Options.BodyGrace is abandoned to finish on its own, and nothing it does
// afterwards counts. Execute runs every stage on the caller's goroutine,
// so a stuck body still holds Execute; a scheduler that runs
// Execution.Dispatch on a goroutine of its own and waits on
// Execution.Settled is never held. In use:
//
//	p := pipeline.New(reg, pipeline.Options{Approver: approver})
//	p.UsePreExecute(nil, func(ctx context.Context, call *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
//		if call.Name() == "bash" {
//			return pipeline.Ask("runs a shell command"), nil
//		}
//		return next(ctx)
//	})
//	result := p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: "echo", Arguments: `{"text":"hi"}`, Scope: agent})
//
// Schedulers that overlap calls use Bind, then Execution.Mode to find the
// calls that may overlap, Execution.PresentCall to announce them,
// Execution.Prepare, Execution.Dispatch (on a goroutine of its own),
// Execution.Settled and Execution.Finish to run them, and
// Execution.PresentResult to show what they did.
package pipeline
