package shell

import (
	"fmt"
	"os/exec"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

// confinement is how a command about to run in dir is confined: the
// launch's confine func and the policy it applies, or nil for a command
// that runs unconfined — no sandbox here, a preset without one, or a call
// that asked (and was allowed) to run outside it (escape).
func (s *Shell) confinement(dir string, escape bool) (confine func(*exec.Cmd) (*sandbox.Confined, error), p *sandbox.Policy) {
	if escape || s.opts.Sandbox == nil || !s.opts.Sandbox.Status().Available() {
		return nil, nil
	}
	policy, confined := s.opts.SandboxPolicy(dir)
	if !confined {
		return nil, nil
	}
	return func(cmd *exec.Cmd) (*sandbox.Confined, error) {
		c, err := s.opts.Sandbox.Confine(cmd, policy)
		if err != nil {
			return nil, fmt.Errorf("the sandbox could not be prepared: %w", err)
		}
		return c, nil
	}, &policy
}

// sandboxNote is what the bash tool's description says of the sandbox.
func (s *Shell) sandboxNote() string {
	if s.opts.Sandbox == nil {
		return ""
	}
	if !s.opts.Sandbox.Status().Available() {
		return "\n- Commands run without a kernel sandbox on this machine, so the user is asked before each command that changes anything."
	}
	return "\n- Unless the session has full access, commands run in a kernel sandbox: they may change files only in the workspace, the temporary directory and the toolchain caches, cannot read credential files (~/.ssh, ~/.aws, …) and have no network. A result that shows the sandbox blocked something says so in a \"[sandbox: …]\" line. When the command truly needs what was blocked, call bash again with sandbox: false and a description saying why: that asks the user to run it outside the sandbox. Never set sandbox: false before the sandbox has blocked something."
}
