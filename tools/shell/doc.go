// Package shell provides the bash tool and the background job tools
// (job_output, job_list, job_kill), bound to one session by a Shell.
//
//	sh, err := shell.New(ws, shell.Options{})
//	if err != nil { … }
//	defer sh.Close() // kills the session's jobs, waits for every process
//	for _, tool := range sh.Tools() {
//		reg.Register(scope, tool)
//	}
//	p := pipeline.New(reg, pipeline.Options{})
//	r := p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: "bash",
//		Arguments: `{"command":"go test ./...","timeout":300000}`,
//		OnProgress: func(pr registry.Progress) { stream(pr.Output) }})
//	// r.Content: "ok  example/pkg 0.01s\n" (or "…\n[exit code: 1]")
//
// Every command runs as `bash -c <command>` (sh when there is no bash) in
// its own session and process group, with stdin on /dev/null, TERM=dumb,
// PAGER=cat and GIT_PAGER=cat, and the agent's environment minus secrets
// (DSH_API_KEY, DEEPSEEK_API_KEY, OPENAI_API_KEY and every name ending in
// _TOKEN, _SECRET or _API_KEY). Stopping a command always stops its whole
// group: SIGTERM, then SIGKILL after Options.KillGrace. A foreground
// command is stopped when its timeout passes (it then reads
// "[timed out after <ms>ms]"), when its call is cancelled (the call fails
// with CodeAborted), and when it ends leaving processes behind; its call
// returns only once every process of the group is gone.
//
// A foreground command's output is reported live through
// registry.Call.Report as it arrives (stdout and stderr interleaved, never
// splitting a UTF-8 character), and kept for the result within
// Options.OutputLimit per stream: its first and last halves, with the full
// output spilled to a file. The result text is stdout, then "[stderr]" and
// stderr, then the markers "[timed out after <ms>ms]" and
// "[killed by signal: <SIG>]" or "[exit code: <N>]", each on its own
// line; a non-zero exit is a successful call. The presentation meta
// carries the same exit in structure: {"exitCode"|"signal", "timedOut"?,
// "truncated"?} (or {"jobId"} for a background start), and the terminal
// result card prefers it to the markers.
//
// With run_in_background the command starts as a job ("job_1", "job_2", …)
// and the call returns "started background job <id>" at once. A job's
// stdout and stderr share one pipe; its latest output is kept in memory
// for job_output, all of it in a spill file once that overflows. Jobs
// run until they end, job_kill, their timeout (only when one was given),
// or Close.
package shell
