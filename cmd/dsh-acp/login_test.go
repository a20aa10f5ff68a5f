package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/term"

	configfile "github.com/dsh-acp/dsh-acp/config"
)

// login typed into a real pseudo-terminal: the prompt shows, nothing
// typed echoes, the key lands in a 0600 file in a 0700 directory, the
// terminal is left as it was; then logout removes the key.
func TestLoginThroughATerminal(t *testing.T) {
	master, slave, ok := openPTY(t)
	if !ok {
		t.Skip("no pseudo-terminals here")
	}
	defer master.Close()
	out := readPTY(master)
	xdg := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": xdg}
	before, err := term.GetState(int(slave.Fd()))
	if err != nil {
		t.Fatal(err)
	}

	code := make(chan int, 1)
	go func() {
		code <- runAccount(t, []string{"login", "--provider", "deepseek"}, env, streams{in: slave, out: slave, err: slave})
	}()
	out.await(t, "API key for deepseek (input hidden): ")
	const key = "sk-typed-0123456789"
	if _, err := master.Write([]byte(key + "\r")); err != nil {
		t.Fatal(err)
	}
	if c := <-code; c != 0 {
		t.Fatalf("login exit %d; terminal:\n%s", c, out.String())
	}
	credentials := filepath.Join(xdg, "dsh-acp", "credentials.json")
	out.await(t, "Stored the API key for deepseek in "+credentials+".")
	after, err := term.GetState(int(slave.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before, after) {
		t.Error("login left the terminal changed")
	}
	slave.Close()
	out.wait()
	if strings.Contains(out.String(), key) || strings.Contains(out.String(), "sk-typed") {
		t.Errorf("the key was echoed:\n%q", out.String())
	}
	checkFileMode(t, credentials, 0o600)
	checkFileMode(t, filepath.Dir(credentials), 0o700|os.ModeDir)
	if got, ok, err := configfile.OpenCredentials(credentials).Get("deepseek"); got != key || !ok || err != nil {
		t.Errorf("stored key = %q, %v, %v", got, ok, err)
	}

	var stdout, stderr bytes.Buffer
	if c := runAccount(t, []string{"logout"}, env, streams{in: strings.NewReader(""), out: &stdout, err: &stderr}); c != 0 {
		t.Fatalf("logout exit %d: %s", c, stderr.String())
	}
	if want := "Removed the API key for deepseek from " + credentials + ".\n"; stdout.String() != want {
		t.Errorf("logout said %q, want %q", stdout.String(), want)
	}
	if _, ok, _ := configfile.OpenCredentials(credentials).Get("deepseek"); ok {
		t.Error("the key outlived logout")
	}
}

// Ctrl-C at the hidden prompt stores nothing and restores the terminal.
func TestLoginCancelledInATerminal(t *testing.T) {
	master, slave, ok := openPTY(t)
	if !ok {
		t.Skip("no pseudo-terminals here")
	}
	defer master.Close()
	defer slave.Close()
	out := readPTY(master)
	xdg := t.TempDir()
	before, err := term.GetState(int(slave.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	code := make(chan int, 1)
	go func() {
		code <- runAccount(t, []string{"login"}, map[string]string{"XDG_CONFIG_HOME": xdg}, streams{in: slave, out: slave, err: slave})
	}()
	out.await(t, "(input hidden): ")
	if _, err := master.Write([]byte("sk-half\x03")); err != nil {
		t.Fatal(err)
	}
	if c := <-code; c != 1 {
		t.Errorf("exit %d, want 1", c)
	}
	out.await(t, "dsh-acp login: cancelled: nothing was stored")
	if after, _ := term.GetState(int(slave.Fd())); !reflect.DeepEqual(before, after) {
		t.Error("login left the terminal changed")
	}
	if _, err := os.Stat(filepath.Join(xdg, "dsh-acp", "credentials.json")); !os.IsNotExist(err) {
		t.Errorf("a cancelled login stored something: %v", err)
	}
	slave.Close()
	out.wait()
}

// Without a terminal, login reads one line of stdin, so it can be
// scripted.
func TestLoginFromStdin(t *testing.T) {
	local := writeFile(t, filepath.Join(t.TempDir(), "config.toml"), `model = "qwen"
[providers.local]
base_url = "http://localhost:11434/v1"
[models.qwen]
provider = "local"
`)
	tests := []struct {
		name       string
		args       []string
		env        map[string]string
		stdin      string
		code       int
		stdout     string // what stdout says, "%s" standing for the credentials file
		stderr     string
		provider   string
		storedKey  string
		noCredsDir bool
	}{
		{name: "the default model's provider", args: []string{"login"}, stdin: "sk-one\n", provider: "deepseek", storedKey: "sk-one",
			stdout: "Stored the API key for deepseek in %s.\n"},
		{name: "the config file's default model's provider", args: []string{"login", "--config", local}, stdin: "  sk-local  ", provider: "local", storedKey: "sk-local",
			stdout: "Stored the API key for local in %s.\n"},
		{name: "DSH_MODEL's provider", args: []string{"login"}, env: map[string]string{"DSH_MODEL": "gpt-4.1"}, stdin: "sk-oa\n", provider: "openai", storedKey: "sk-oa",
			stdout: "Stored the API key for openai in %s.\n"},
		{name: "a key in the environment wins, and login says so", args: []string{"login"}, env: map[string]string{"DEEPSEEK_API_KEY": "sk-env"},
			stdin: "sk-two\n", provider: "deepseek", storedKey: "sk-two",
			stdout: "Stored the API key for deepseek in %s.\nDEEPSEEK_API_KEY is set, and a key in the environment wins over the stored one.\n"},
		{name: "an empty line", args: []string{"login"}, stdin: " \n", code: 1, stderr: "dsh-acp login: no API key given: nothing was stored\n"},
		{name: "no input", args: []string{"login"}, code: 1, stderr: "dsh-acp login: no API key given: nothing was stored\n"},
		{name: "a key with white space inside", args: []string{"login"}, stdin: "sk-a sk-b\n", code: 1,
			stderr: "dsh-acp login: the API key holds white space or control characters: give the key alone: nothing was stored\n"},
		{name: "an unknown provider", args: []string{"login", "--provider", "nope"}, stdin: "sk\n", code: 1,
			stderr: "dsh-acp login: unknown provider \"nope\" (known: deepseek, openai)\n"},
		{name: "a model outside the catalog", args: []string{"login", "--model", "qwen2.5-coder"}, stdin: "sk\n", code: 1,
			stderr: "dsh-acp login: the model \"qwen2.5-coder\" is not in the config file, so its provider is unknown: name one with --provider (deepseek, openai)\n"},
		{name: "no configuration directory", args: []string{"login"}, stdin: "sk\n", code: 1, noCredsDir: true,
			stderr: "dsh-acp login: no configuration directory: neither XDG_CONFIG_HOME nor HOME is set\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			xdg := t.TempDir()
			env := map[string]string{"XDG_CONFIG_HOME": xdg}
			if tt.noCredsDir {
				env = map[string]string{}
			}
			for k, v := range tt.env {
				env[k] = v
			}
			credentials := filepath.Join(xdg, "dsh-acp", "credentials.json")
			var stdout, stderr bytes.Buffer
			code := runAccount(t, tt.args, env, streams{in: strings.NewReader(tt.stdin), out: &stdout, err: &stderr})
			wantOut := strings.ReplaceAll(tt.stdout, "%s", credentials)
			if code != tt.code || stdout.String() != wantOut || stderr.String() != tt.stderr {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant %d, %q, %q", code, stdout.String(), stderr.String(), tt.code, wantOut, tt.stderr)
			}
			if tt.storedKey == "" {
				if _, err := os.Stat(credentials); !os.IsNotExist(err) {
					t.Errorf("a failed login stored something: %v", err)
				}
				return
			}
			if got, _, err := configfile.OpenCredentials(credentials).Get(tt.provider); got != tt.storedKey || err != nil {
				t.Errorf("stored %q (%v), want %q", got, err, tt.storedKey)
			}
			checkFileMode(t, credentials, 0o600)
		})
	}
}

func TestLogout(t *testing.T) {
	xdg := t.TempDir()
	credentials := filepath.Join(xdg, "dsh-acp", "credentials.json")
	creds := configfile.OpenCredentials(credentials)
	for _, p := range []string{"deepseek", "openai", "gone"} {
		if err := creds.Set(p, "sk-"+p); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		args   []string
		env    map[string]string
		stdout string
		left   []string
	}{
		{args: []string{"logout", "--provider", "openai"}, stdout: "Removed the API key for openai from %s.\n", left: []string{"deepseek", "gone"}},
		{args: []string{"logout", "--provider", "openai"}, stdout: "No API key for openai is stored in %s.\n", left: []string{"deepseek", "gone"}},
		// A provider no longer in the config file can still be logged out.
		{args: []string{"logout", "--provider", "gone"}, env: map[string]string{"DSH_API_KEY": "sk-env"},
			stdout: "Removed the API key for gone from %s.\n", left: []string{"deepseek"}},
		{args: []string{"logout"}, env: map[string]string{"DSH_API_KEY": "sk-env"},
			stdout: "Removed the API key for deepseek from %s.\nDSH_API_KEY is still set in the environment, and dsh-acp uses it.\n"},
		{args: []string{"logout", "--all"}, stdout: "No API key is stored in %s.\n"},
	}
	for _, tt := range tests {
		env := map[string]string{"XDG_CONFIG_HOME": xdg}
		for k, v := range tt.env {
			env[k] = v
		}
		var stdout, stderr bytes.Buffer
		code := runAccount(t, tt.args, env, streams{in: strings.NewReader(""), out: &stdout, err: &stderr})
		if want := strings.ReplaceAll(tt.stdout, "%s", credentials); code != 0 || stdout.String() != want || stderr.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tt.args, code, stdout.String(), stderr.String(), want)
		}
		if left, _ := creds.Providers(); !reflect.DeepEqual(left, tt.left) && len(left)+len(tt.left) > 0 {
			t.Errorf("%q: left %q, want %q", tt.args, left, tt.left)
		}
	}
	for _, p := range []string{"deepseek", "openai"} {
		if err := creds.Set(p, "sk-"+p); err != nil {
			t.Fatal(err)
		}
	}
	var stdout bytes.Buffer
	if code := runAccount(t, []string{"logout", "--all"}, map[string]string{"XDG_CONFIG_HOME": xdg}, streams{in: strings.NewReader(""), out: &stdout, err: &stdout}); code != 0 ||
		stdout.String() != "Removed the API keys for deepseek, openai from "+credentials+".\n" {
		t.Errorf("logout --all: exit %d, %q", code, stdout.String())
	}
}

// runAccount parses args as the program does and runs login or logout.
func runAccount(t *testing.T, args []string, env map[string]string, std streams) int {
	cfg, err := parseConfig(args, envOf(env), std.err)
	if err != nil {
		t.Errorf("parseConfig(%q): %v", args, err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	return account(ctx, cfg, std)
}

func checkFileMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode() & (os.ModePerm | os.ModeDir); got != want {
		t.Errorf("%s: mode %v, want %v", path, got, want)
	}
}

// ptyOutput collects what a pseudo-terminal's programs write.
type ptyOutput struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	more  chan struct{} // a token after each read
	ended chan struct{} // closed when reading ends (the terminal side closed)
}

// readPTY reads master until it fails.
func readPTY(master *os.File) *ptyOutput {
	o := &ptyOutput{more: make(chan struct{}, 1), ended: make(chan struct{})}
	go func() {
		defer close(o.ended)
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			o.mu.Lock()
			o.buf.Write(b[:n])
			o.mu.Unlock()
			select {
			case o.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	return o
}

func (o *ptyOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// await waits until the output holds want (a minute at most: a hang
// guard).
func (o *ptyOutput) await(t *testing.T, want string) {
	t.Helper()
	guard := time.After(time.Minute)
	for !strings.Contains(o.String(), want) {
		select {
		case <-o.more:
		case <-o.ended:
			if !strings.Contains(o.String(), want) {
				t.Fatalf("the terminal closed without %q:\n%q", want, o.String())
			}
		case <-guard:
			t.Fatalf("no %q on the terminal:\n%q", want, o.String())
		}
	}
}

// wait waits for reading to end.
func (o *ptyOutput) wait() { <-o.ended }
