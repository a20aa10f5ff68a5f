package bridge

import (
	"context"

	"github.com/dsh-acp/dsh-acp/acp"
)

// loginMethodID is the id of the sign-in method the bridge offers.
const loginMethodID = "dsh-acp-login"

// Auth is how a user signs in to the model's provider from the editor.
type Auth struct {
	// Check returns an error saying what is missing when model cannot be
	// used for want of a key (a provider that needs none never fails);
	// nil when it can. Nil checks nothing.
	Check func(model string) error
	// Command and LoginArgs run the interactive sign-in (this program
	// with "login"); the editor runs them in a terminal. An empty Command
	// offers no sign-in method.
	Command   string
	LoginArgs []string
	// Logout forgets the stored keys; nil does not offer logout.
	Logout func() error
}

// methods returns the sign-in methods for a client: a terminal method
// when it runs them (clientCapabilities.auth.terminal), else, for Zed's
// older convention (_meta["terminal-auth"]), an agent method carrying the
// command to run in its _meta.
func (a Auth) methods(terminal, legacy bool) []acp.AuthMethod {
	if a.Command == "" || (!terminal && !legacy) {
		return []acp.AuthMethod{}
	}
	const name = "Sign in with an API key"
	description := "Store the model provider's API key for dsh-acp (keys in the environment still win)"
	if terminal {
		return []acp.AuthMethod{{Terminal: &acp.AuthMethodTerminalInline{
			Id: loginMethodID, Name: name, Description: &description, Args: a.LoginArgs,
		}}}
	}
	return []acp.AuthMethod{{Agent: &acp.AuthMethodAgent{
		Id: loginMethodID, Name: name, Description: &description,
		Meta: map[string]any{"terminal-auth": map[string]any{
			"label": name, "command": a.Command, "args": a.LoginArgs, "env": map[string]string{},
		}},
	}}}
}

// check answers the auth-required error (-32000) when model has no key.
func (a Auth) check(model string) error {
	if a.Check == nil {
		return nil
	}
	if err := a.Check(model); err != nil {
		return acp.AuthRequired("%v", err)
	}
	return nil
}

// Authenticate answers once the default model can be used: after the
// sign-in terminal stored a key, or when none is needed. Otherwise it
// answers the auth-required error saying what is missing.
func (b *Bridge) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	settings := b.menu().start(b.opts.Defaults)
	if err := b.opts.Auth.check(settings.Model); err != nil {
		return acp.AuthenticateResponse{}, err
	}
	return acp.AuthenticateResponse{}, nil
}

// Logout forgets the stored keys (keys in the environment stay).
func (b *Bridge) Logout(context.Context, acp.LogoutRequest) (acp.LogoutResponse, error) {
	if b.opts.Auth.Logout == nil {
		return acp.LogoutResponse{}, acp.MethodNotFound("logout")
	}
	if err := b.opts.Auth.Logout(); err != nil {
		return acp.LogoutResponse{}, acp.InternalError("logout: %v", err)
	}
	return acp.LogoutResponse{}, nil
}
