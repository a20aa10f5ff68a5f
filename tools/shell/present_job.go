package shell

import (
	"encoding/json"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// jobEndMeta is job_output's presentation meta: how the job ended, once
// it has. As JSON: {"exitCode"?: int, "signal"?: string, "timeoutMs"?:
// int}; {} while the job runs.
type jobEndMeta struct {
	ExitCode  *int   `json:"exitCode,omitempty"`
	Signal    string `json:"signal,omitempty"`
	TimeoutMs int    `json:"timeoutMs,omitempty"`
}

// jobEndMetaOf projects a job report to its meta.
func jobEndMetaOf(r jobReport) jobEndMeta {
	if r.end == nil {
		return jobEndMeta{}
	}
	m := jobEndMeta{Signal: r.end.signal, TimeoutMs: r.end.timeoutMs}
	if r.end.signal == "" {
		code := r.end.code
		m.ExitCode = &code
	}
	return m
}

// presentJobOutputResult is the completed card of job_output: its text as
// the model reads it (ending in the job's state, "[job_1: exited with code
// 3]"), failed once the job has ended and failed as a foreground command
// would (presentation.CommandEnd.Failed); nil, the text shown as it is,
// otherwise. Reading a running job, or one that succeeded, completes.
func presentJobOutputResult(_ jobIDArgs, result presentation.ToolResult) presentation.ResultView {
	var m jobEndMeta
	if result.IsError || json.Unmarshal([]byte(result.Meta), &m) != nil {
		return nil
	}
	end := presentation.CommandEnd{ExitCode: m.ExitCode, Signal: m.Signal, Timeout: time.Duration(m.TimeoutMs) * time.Millisecond}
	if !end.Failed() {
		return nil
	}
	return presentation.GenericResultView{Content: presentation.CloneContent(result.Content), Failed: true}
}
