package subagent

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

// readOnlyGuard is the pre-execute middleware of a read-only child: what
// the rest of the chain (its policy, at most read-only) would ask the
// user about is refused unless the call only reads — so a command that is
// not read-only never runs, nor asks. A read the policy asks about (a
// file outside the workspace) still asks.
func readOnlyGuard(typeName string) pipeline.PreExecute {
	return func(ctx context.Context, call *registry.Call, next pipeline.PreNext) (pipeline.Decision, error) {
		d, err := next(ctx)
		if err != nil || d.Kind != pipeline.DecisionAsk {
			return d, err
		}
		if tool := call.Bound().Tool(); tool != nil && tool.Effect() == registry.EffectRead {
			return d, nil
		}
		why := ""
		if d.Reason != "" {
			why = ": " + d.Reason
		}
		return pipeline.Deny(fmt.Sprintf("%s: a %s subagent only reads, and runs only read-only commands%s", call.Name(), typeName, why)), nil
	}
}
