package shell

import (
	"context"
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// jobReport is the value of job_output and job_kill, and one entry of
// job_list: a job, its state, and (job_output) its output since the last
// read.
type jobReport struct {
	JobID   string `json:"jobId"`
	Command string `json:"command"`
	// State is "running", "exited with code N" or "killed by signal SIG",
	// possibly after "timed out after <ms>ms, ".
	State   string `json:"state"`
	Running bool   `json:"running"`
	// Output is the job's output not read before (job_output only).
	Output string `json:"output,omitempty"`
	// Skipped counts output bytes that were no longer kept in memory;
	// SpillPath then holds the full output ("" when unavailable), or only
	// its first SpillKept bytes when SpillKept is set.
	Skipped   int64  `json:"skipped,omitempty"`
	SpillPath string `json:"spillPath,omitempty"`
	SpillKept int64  `json:"spillKept,omitempty"`
	// Blocked says what the sandbox blocked, when the job has ended and
	// its output shows it (job_output only).
	Blocked string `json:"sandboxBlocked,omitempty"`
	// AlreadyEnded says job_kill found the job ended already.
	AlreadyEnded bool `json:"alreadyEnded,omitempty"`
	// end is how the job ended, nil while it runs: for the card only.
	end *jobEnd
}

// jobEnd is how an ended job ended.
type jobEnd struct {
	exitStatus
	timeoutMs int
}

// reportOf describes j as it is now.
func reportOf(j *job) jobReport {
	r := jobReport{JobID: j.id, Command: j.command, State: "running", Running: true}
	if j.ended() {
		r.State, r.Running = j.endState(), false
		r.end = &jobEnd{exitStatus: j.exit, timeoutMs: j.timeoutMs}
	}
	return r
}

// lookup returns the job with id, or the error that tells the model what
// to do.
func (s *Shell) lookup(id string) (*job, error) {
	if j := s.jobs.get(id); j != nil {
		return j, nil
	}
	return nil, jobNotFound(id)
}

// jobOutputTool defines job_output.
func (s *Shell) jobOutputTool() (*registry.Tool, error) {
	return registry.Define(registry.Spec[jobIDArgs, jobReport]{
		Name:        "job_output",
		Description: "Read a background job's output since the last read, and whether it is still running.",
		Handler: func(_ context.Context, _ *registry.Call, a jobIDArgs) (jobReport, error) {
			j, err := s.lookup(a.JobID)
			if err != nil {
				return jobReport{}, err
			}
			r := reportOf(j) // the state first: if it says ended, all output is in
			var spill spillRef
			r.Output, r.Skipped, spill = j.out.unread(!r.Running)
			r.SpillPath, r.SpillKept = spill.path, spill.kept
			if !r.Running {
				r.Blocked = j.blocked
			}
			return r, nil
		},
		Render:           textRender[jobIDArgs](renderJobOutput),
		PresentationMeta: func(_ jobIDArgs, r jobReport) (any, error) { return jobEndMetaOf(r), nil },
		Effect:           registry.EffectRead,
		ConcurrencySafe:  func(jobIDArgs) bool { return true },
		PresentCall:      presentJobOutputCall,
		PresentResult:    presentJobOutputResult,
	})
}

// jobListTool defines job_list.
func (s *Shell) jobListTool() (*registry.Tool, error) {
	return registry.Define(registry.Spec[noArgs, []jobReport]{
		Name:        "job_list",
		Description: "List this session's background jobs with their ids, states and commands.",
		Handler: func(context.Context, *registry.Call, noArgs) ([]jobReport, error) {
			reports := []jobReport{}
			for _, j := range s.jobs.all() {
				reports = append(reports, reportOf(j))
			}
			return reports, nil
		},
		Render:          textRender[noArgs](renderJobList),
		Effect:          registry.EffectRead,
		ConcurrencySafe: func(noArgs) bool { return true },
		PresentCall:     presentJobListCall,
	})
}

// jobKillTool defines job_kill.
func (s *Shell) jobKillTool() (*registry.Tool, error) {
	return registry.Define(registry.Spec[jobIDArgs, jobReport]{
		Name:        "job_kill",
		Description: "Stop a background job and every process it started (SIGTERM, then SIGKILL). Its output stays readable with job_output.",
		Handler: func(ctx context.Context, _ *registry.Call, a jobIDArgs) (jobReport, error) {
			j, err := s.lookup(a.JobID)
			if err != nil {
				return jobReport{}, err
			}
			alreadyEnded := j.ended()
			j.requestKill()
			select {
			case <-j.done:
			case <-ctx.Done():
				return jobReport{}, &registry.Error{Code: registry.CodeAborted, Message: "cancelled while " + j.id + " was being stopped; it will still be stopped"}
			}
			r := reportOf(j)
			r.AlreadyEnded = alreadyEnded
			return r, nil
		},
		Render:      textRender[jobIDArgs](renderJobKill),
		Effect:      registry.EffectExecute,
		PresentCall: presentJobKillCall,
	})
}

// textRender adapts a text renderer to a Spec's Render.
func textRender[A, R any](render func(R) string) func(A, R) ([]presentation.ContentBlock, error) {
	return func(_ A, r R) ([]presentation.ContentBlock, error) {
		return []presentation.ContentBlock{presentation.Text(render(r))}, nil
	}
}

// renderJobOutput is the text of a job_output result: a note on output no
// longer kept, the new output (or "(no new output)"), the sandbox's
// denial marker when it blocked something (before the state, as in a
// command's result), and the job's state as "[<id>: <state>]" on its own
// line.
func renderJobOutput(r jobReport) string {
	var b strings.Builder
	if r.Skipped > 0 {
		fmt.Fprintf(&b, "[%d earlier bytes not kept; %s]\n", r.Skipped, spillRef{path: r.SpillPath, kept: r.SpillKept})
	}
	if r.Output == "" {
		b.WriteString("(no new output)")
	}
	b.WriteString(r.Output)
	if !strings.HasSuffix(r.Output, "\n") {
		b.WriteByte('\n')
	}
	if r.Blocked != "" {
		b.WriteString(denialMarker(r.Blocked) + "\n")
	}
	fmt.Fprintf(&b, "[%s: %s]", r.JobID, r.State)
	return b.String()
}

// renderJobList is the text of a job_list result: one job a line, as
// "<id> (<state>): <command's first line>".
func renderJobList(reports []jobReport) string {
	if len(reports) == 0 {
		return "no background jobs in this session"
	}
	lines := make([]string, len(reports))
	for i, r := range reports {
		command, _, multiline := strings.Cut(r.Command, "\n")
		if multiline {
			command += " …"
		}
		lines[i] = fmt.Sprintf("%s (%s): %s", r.JobID, r.State, command)
	}
	return strings.Join(lines, "\n")
}

// renderJobKill is the text of a job_kill result.
func renderJobKill(r jobReport) string {
	if r.AlreadyEnded {
		return fmt.Sprintf("background job %s had already ended (%s)", r.JobID, r.State)
	}
	return fmt.Sprintf("stopped background job %s (%s)", r.JobID, r.State)
}
