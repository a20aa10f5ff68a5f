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
// PAGER=cat, GIT_PAGER=cat, DSH_COMMAND_ID set to an id of its own, and
// the agent's environment minus secrets. A variable is withheld when its
// name, upper-cased and split into words at every character that is not a
// letter or digit, has a word that contains PASSWORD, PASSWD, PASSPHRASE,
// SECRET or CREDENTIAL; ends in KEY, KEYS, TOKEN or TOKENS; is AUTH, PASS,
// PWD, PAT, CREDS or COOKIE; or is SESSION as the last word — unless it
// is PWD or SSH_AUTH_SOCK, or Options.EnvAllow lets it through. The
// agent's own keys (DSH_API_KEY, DEEPSEEK_API_KEY, OPENAI_API_KEY) are
// always withheld.
//
// With Options.Sandbox, every command runs in the kernel sandbox (package
// sandbox) under the policy Options.SandboxPolicy gives for it, read at
// each command, so a change of preset holds from the next one; a call
// with `sandbox: false` runs outside it (the permission policy asks the
// user first). The process group's leader is then the sandbox's helper,
// which runs the shell and ends with it: exit codes, signals, timeouts
// and kills read as without it. When a confined command fails and its
// output shows the sandbox stopped it (EACCES, EPERM or EROFS on a path
// it may not touch, an unreachable network), the result carries
// "[sandbox: blocked <what>; …]" before the other markers, saying it can
// be run again with `sandbox: false`.
//
// Stopping a command always stops its whole group and its strays (the
// processes that left the group, say with setsid, found by the
// DSH_COMMAND_ID they inherited): SIGTERM, then SIGKILL after
// Options.KillGrace. A foreground command is stopped when its timeout
// passes (it then reads "[timed out after <ms>ms]"), when its call is
// cancelled (the call fails with registry.CodeAborted), and when it ends leaving
// processes behind; its call returns only once every process of the group
// is gone. A stray that is the embedding process's child (dsh-acp is a
// child subreaper, so orphans become its children) is reaped once dead.
//
// A foreground command's output is reported live through
// registry.Call.Report as it arrives (stdout and stderr interleaved, never
// splitting a UTF-8 character), and kept for the result within
// Options.OutputLimit per stream: its first and last halves, with the
// output spilled to a file (its first Options.SpillLimit bytes, 64 MiB by
// default) that is removed when the Shell closes. The result text is stdout, then "[stderr]" and
// stderr, then the markers "[timed out after <ms>ms]" and
// "[killed by signal: <SIG>]" or "[exit code: <N>]", each on its own
// line; a non-zero exit is a successful call for the model. The
// presentation meta carries the same exit in structure: {"exitCode"|
// "signal", "timedOut"?, "truncated"?} (or {"jobId"} for a background
// start), and the terminal result card prefers it to the markers. The
// editor is shown a command that exited non-zero, was killed by a signal
// or timed out as failed (presentation.CommandEnd), its output followed
// by how it ended; a started job, and job_output of a job that is running
// or exited 0, as completed.
//
// With run_in_background the command starts as a job ("job_1", "job_2", …)
// and the call returns "started background job <id>" at once. A job's
// stdout and stderr share one pipe; its latest output is kept in memory
// for job_output, and in a spill file (within the same limit) once that
// overflows. Jobs
// run until they end, job_kill, their timeout (only when one was given),
// or Close.
package shell
