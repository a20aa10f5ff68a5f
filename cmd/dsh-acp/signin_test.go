package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
	configfile "github.com/dsh-acp/dsh-acp/config"
)

// Signing in from the editor, through the built binary and the real
// catalog (no model script), with no API key in the environment: Zed is
// offered the terminal method that runs `dsh-acp login`; session/new
// answers auth-required until `dsh-acp login` has stored a key, which the
// running process and a new one both see; the ACP logout method removes
// the key, and session/new answers auth-required again. Every frame is
// validated against the ACP schema, and no request leaves the machine.
func TestSignInThroughTheBinary(t *testing.T) {
	bin := spawnBinary(t)
	schema := acptest.LoadSchema(t)
	env := newSignInEnv(t)
	ctx := guarded(t)

	first := env.connect(t, bin, schema)
	answer := initializeAsZed(t, first)
	if want := []authMethodWire{{ID: "dsh-acp-login", Type: "terminal", Args: []string{"login"}}}; !slices.EqualFunc(answer.AuthMethods, want, authMethodWire.equal) {
		t.Errorf("authMethods = %+v, want %+v", answer.AuthMethods, want)
	}
	if answer.AgentCapabilities.Auth.Logout == nil {
		t.Error("agentCapabilities.auth.logout is not advertised")
	}
	requireAuthRequired(t, first, env.ws)

	const key = "sk-signin-0123456789abcdef"
	out := env.login(t, bin, key+"\n")
	if strings.Contains(out, key) || strings.Contains(out, "0123456789abcdef") {
		t.Errorf("login printed the key:\n%s", out)
	}
	checkFileMode(t, env.credentials, 0o600)
	if got, ok, err := configfile.OpenCredentials(env.credentials).Get("deepseek"); got != key || !ok || err != nil {
		t.Errorf("stored key = %q, %v, %v; want %q", got, ok, err, key)
	}

	// The running process reads the credentials file at each check.
	requireNewSession(t, first, env.ws)
	second := env.connect(t, bin, schema)
	initializeAsZed(t, second)
	requireNewSession(t, second, env.ws)

	var loggedOut json.RawMessage
	if err := second.Call(ctx, "logout", struct{}{}, &loggedOut); err != nil {
		t.Fatalf("logout: %v", err)
	}
	if string(loggedOut) != "{}" {
		t.Errorf("logout answered %s, want {}", loggedOut)
	}
	if data, err := os.ReadFile(env.credentials); err == nil && bytes.Contains(data, []byte(key)) {
		t.Errorf("the credentials file still holds the key after logout:\n%s", data)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	requireAuthRequired(t, second, env.ws)
	requireAuthRequired(t, first, env.ws)

	for _, c := range []*acptest.Client{first, second} {
		if err := c.Close(); err != nil {
			t.Errorf("the server did not stop cleanly: %v\nstderr:\n%s", err, env.stderr.String())
		}
	}
	if n := env.proxied.Load(); n != 0 {
		t.Errorf("%d requests tried to leave the machine", n)
	}
}

// The sign-in method offered follows what the client says it can run: a
// terminal method for auth.terminal, Zed's older _meta["terminal-auth"]
// convention (an agent method carrying the command), and nothing for a
// client that can run neither.
func TestSignInMethodsByClient(t *testing.T) {
	bin := spawnBinary(t)
	schema := acptest.LoadSchema(t)
	tests := []struct {
		name string
		caps string
		want []authMethodWire
	}{
		{name: "auth.terminal", caps: `{"auth":{"terminal":true}}`,
			want: []authMethodWire{{ID: "dsh-acp-login", Type: "terminal", Args: []string{"login"}}}},
		{name: "Zed's terminal-auth meta", caps: `{"_meta":{"terminal-auth":true}}`,
			want: []authMethodWire{{ID: "dsh-acp-login", Command: bin, Args: []string{"login"}}}},
		{name: "neither", caps: `{}`, want: []authMethodWire{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newSignInEnv(t)
			c := env.connect(t, bin, schema)
			var res initializeWire
			params := json.RawMessage(`{"protocolVersion":1,"clientCapabilities":` + tt.caps + `}`)
			if err := c.Call(guarded(t), "initialize", params, &res); err != nil {
				t.Fatalf("initialize: %v", err)
			}
			if !slices.EqualFunc(res.AuthMethods, tt.want, authMethodWire.equal) {
				t.Errorf("authMethods = %+v, want %+v", res.AuthMethods, tt.want)
			}
			if tt.want != nil && res.AuthMethods == nil {
				t.Error("authMethods is missing, want a list")
			}
		})
	}
}

// signInEnv is a binary's environment without any API key: its own
// configuration and state directories, and proxies that count (and
// refuse) every request that would leave the machine.
type signInEnv struct {
	vars        []string
	ws          string
	credentials string
	stderr      *lockedBuffer
	proxied     *atomic.Int64
}

func newSignInEnv(t *testing.T) *signInEnv {
	t.Helper()
	dir := t.TempDir()
	e := &signInEnv{
		ws:          filepath.Join(dir, "ws"),
		credentials: filepath.Join(dir, "config", "dsh-acp", "credentials.json"),
		stderr:      &lockedBuffer{},
		proxied:     &atomic.Int64{},
	}
	if err := os.Mkdir(e.ws, 0o755); err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.proxied.Add(1)
		http.Error(w, "tests reach no network", http.StatusForbidden)
	}))
	t.Cleanup(proxy.Close)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch upper := strings.ToUpper(name); {
		case strings.HasPrefix(name, "DSH_"), strings.HasSuffix(upper, "_API_KEY"),
			strings.HasPrefix(name, "XDG_"), strings.HasSuffix(upper, "_PROXY"):
			continue
		}
		e.vars = append(e.vars, kv)
	}
	e.vars = append(e.vars,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"DSH_STATE_DIR="+filepath.Join(dir, "state"),
		"HTTP_PROXY="+proxy.URL, "HTTPS_PROXY="+proxy.URL,
		"TMPDIR="+dir)
	return e
}

// connect starts bin serving ACP in the environment and connects a
// schema-validating client to it; the process stops when the client
// closes.
func (e *signInEnv) connect(t *testing.T, bin string, schema *acptest.Schema) *acptest.Client {
	t.Helper()
	return acptest.Connect(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
		cmd := exec.CommandContext(ctx, bin)
		cmd.Dir, cmd.Env = e.ws, e.vars
		cmd.Stdin, cmd.Stdout, cmd.Stderr = r, w, e.stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("dsh-acp: %w\nstderr:\n%s", err, e.stderr.String())
		}
		return nil
	}, acptest.WithSchema(schema), acptest.WithCloseTimeout(hangGuard))
}

// login runs `dsh-acp login` with stdin piped (one line: the key) and
// returns what it printed on stdout and stderr.
func (e *signInEnv) login(t *testing.T, bin, stdin string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "login")
	cmd.Dir, cmd.Env = e.ws, e.vars
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("dsh-acp login: %v\n%s", err, out.String())
	}
	if want := "Stored the API key for deepseek in " + e.credentials + ".\n"; out.String() != want {
		t.Errorf("dsh-acp login said %q, want %q", out.String(), want)
	}
	return out.String()
}

// initializeWire is the part of the initialize answer these tests read.
type initializeWire struct {
	AuthMethods       []authMethodWire `json:"authMethods"`
	AgentCapabilities struct {
		Auth struct {
			Logout *struct{} `json:"logout"`
		} `json:"auth"`
	} `json:"agentCapabilities"`
}

// authMethodWire is one sign-in method as sent: a terminal method's args,
// or the command an agent method carries in _meta["terminal-auth"].
type authMethodWire struct {
	ID      string
	Type    string
	Args    []string
	Command string
}

func (m *authMethodWire) UnmarshalJSON(data []byte) error {
	var w struct {
		ID   string   `json:"id"`
		Type string   `json:"type"`
		Args []string `json:"args"`
		Meta struct {
			TerminalAuth struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"terminal-auth"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*m = authMethodWire{ID: w.ID, Type: w.Type, Args: w.Args, Command: w.Meta.TerminalAuth.Command}
	if m.Command != "" {
		m.Args = w.Meta.TerminalAuth.Args
	}
	return nil
}

func (m authMethodWire) equal(o authMethodWire) bool {
	return m.ID == o.ID && m.Type == o.Type && m.Command == o.Command && slices.Equal(m.Args, o.Args)
}

// initializeAsZed sends Zed's initialize and returns the answer.
func initializeAsZed(t *testing.T, c *acptest.Client) initializeWire {
	t.Helper()
	var res initializeWire
	if err := c.Call(guarded(t), "initialize", zedInitializeParams(t), &res); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return res
}

// zedInitializeParams are the params of Zed's initialize request.
func zedInitializeParams(tb testing.TB) json.RawMessage {
	tb.Helper()
	var req struct {
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal([]byte(zedInitialize), &req); err != nil {
		tb.Fatal(err)
	}
	return req.Params
}

// newSessionParams is session/new in ws.
func newSessionParams(ws string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"cwd":%q,"mcpServers":[]}`, ws))
}

// requireAuthRequired checks that session/new is refused with the ACP
// auth-required error, whose message tells the user to run dsh-acp login.
func requireAuthRequired(t *testing.T, c *acptest.Client, ws string) {
	t.Helper()
	err := c.Call(guarded(t), "session/new", newSessionParams(ws), nil)
	var rpcErr *acptest.RPCError
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32000 || !strings.Contains(rpcErr.Message, "dsh-acp login") {
		t.Fatalf("session/new without a key: %v; want error -32000 naming `dsh-acp login`", err)
	}
}

// requireNewSession checks that session/new answers a session.
func requireNewSession(t *testing.T, c *acptest.Client, ws string) {
	t.Helper()
	var created struct {
		SessionID string `json:"sessionId"`
	}
	if err := c.Call(guarded(t), "session/new", newSessionParams(ws), &created); err != nil || created.SessionID == "" {
		t.Fatalf("session/new with a stored key: %v (answer %+v)", err, created)
	}
}

// guarded is a context that ends after hangGuard: a call that never
// returns fails the test instead of hanging it.
func guarded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	t.Cleanup(cancel)
	return ctx
}
