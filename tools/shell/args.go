package shell

// bashArgs are the arguments of the bash tool.
type bashArgs struct {
	Command         string `json:"command" jsonschema:"the command to run with bash -c"`
	Description     string `json:"description,omitempty" jsonschema:"what the command does, in five to ten words, shown to the user"`
	Workdir         string `json:"workdir,omitempty" jsonschema:"directory to run in, absolute or relative to the session's working directory; defaults to the working directory"`
	Timeout         *int   `json:"timeout,omitempty" jsonschema:"timeout in milliseconds; default 120000, at most 600000"`
	RunInBackground bool   `json:"run_in_background,omitempty" jsonschema:"start the command as a background job and return at once; read it with job_output"`
}

// jobIDArgs are the arguments of job_output and job_kill.
type jobIDArgs struct {
	JobID string `json:"job_id" jsonschema:"the job id bash returned, e.g. job_1"`
}

// noArgs are the arguments of job_list.
type noArgs struct{}
