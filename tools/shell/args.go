package shell

// bashArgs are the arguments of the bash tool.
type bashArgs struct {
	Command         string `json:"command" jsonschema:"the command to run with bash -c"`
	Description     string `json:"description,omitempty" jsonschema:"what the command does, in five to ten words, shown to the user"`
	Workdir         string `json:"workdir,omitempty" jsonschema:"directory to run in, absolute or relative to the session's working directory; defaults to the working directory"`
	Timeout         *int   `json:"timeout,omitempty" jsonschema:"timeout in milliseconds; default 120000, at most 600000"`
	RunInBackground bool   `json:"run_in_background,omitempty" jsonschema:"start the command as a background job and return at once; read it with job_output"`
	Sandbox         *bool  `json:"sandbox,omitempty" jsonschema:"false asks the user to run the command outside the sandbox; only after the sandbox blocked something the command needs"`
}

// escapes reports whether the call asks to run outside the sandbox.
func (a bashArgs) escapes() bool { return a.Sandbox != nil && !*a.Sandbox }

// jobIDArgs are the arguments of job_output and job_kill.
type jobIDArgs struct {
	JobID string `json:"job_id" jsonschema:"the job id bash returned, e.g. job_1"`
}

// noArgs are the arguments of job_list.
type noArgs struct{}
