// Package planmode is the exit_plan_mode tool: in plan mode (the plan
// permission preset, where nothing that changes files runs) the model
// presents its plan with it, the session shows the plan and asks the
// user whether to implement it, and, when they say so, switches back to
// the preset it had before plan mode, so the model carries on in the
// same turn.
//
// The tool knows nothing of the protocol: the session shows the plan
// (Options.Show) and asks the user (Options.Reviewer):
//
//	tool, err := planmode.Tool(planmode.Options{
//		InPlanMode: func() bool { return pol.Preset() == policy.Plan },
//		Show:       func(plan string) { log.Append(session.PlanUpdated{Markdown: plan}) },
//		Reviewer:   sessionConfig.Plans,
//	})
package planmode
