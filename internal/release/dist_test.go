//go:build unix

package release

// The tests of a real release: make release-test builds one into
// $DSH_RELEASE_DIST and runs these; without it they skip.

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// dist returns the release directory make release-test built.
func dist(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("DSH_RELEASE_DIST")
	if dir == "" {
		t.Skip("DSH_RELEASE_DIST is not set: make release-test builds a release and runs these tests on it")
	}
	return dir
}

// distManifest reads the registry entry of the release in dir.
func distManifest(t *testing.T, dir string) Manifest {
	t.Helper()
	var m Manifest
	readJSON(t, filepath.Join(RegistryDir(dir), "agent.json"), &m)
	return m
}

func hostTarget(t *testing.T) Target {
	t.Helper()
	host, ok := HostTarget(runtime.GOOS, runtime.GOARCH)
	if !ok {
		t.Skipf("no release target for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return host
}

// builtTargets returns the targets whose archives are in the release in dir.
func builtTargets(t *testing.T, dir, version string) []Target {
	t.Helper()
	var built []Target
	for _, tgt := range Targets() {
		if _, err := os.Stat(filepath.Join(dir, tgt.Archive(version))); err == nil {
			built = append(built, tgt)
		}
	}
	return built
}

// skipWithoutWindows skips, saying why, while the release has no Windows
// archive.
func skipWithoutWindows(t *testing.T, built []Target) {
	t.Helper()
	if !slices.ContainsFunc(built, Target.Windows) {
		t.Skip("no Windows archive in the release: Windows does not build yet (GOOS=windows go build ./cmd/dsh-acp fails until the Windows port of issue 19 lands); add windows-x86_64 to RELEASE_TEST_TARGETS in the Makefile then")
	}
}

// TestDistRegistryEntry: the release's registry entry passes the
// registry's rules and its checksums are the archives'; the one rule a
// partial release breaks is the platforms it lacks.
func TestDistRegistryEntry(t *testing.T) {
	dir := dist(t)
	m := distManifest(t, dir)
	built := builtTargets(t, dir, m.Version)
	problems, err := VerifyRelease(dir)
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, p := range problems {
		if os, ok := strings.CutPrefix(p.Rule, "must include a build for "); ok && p.Field == "distribution.binary" {
			missing = append(missing, os)
			continue
		}
		t.Errorf("registry entry: %s", p)
	}
	if len(m.Distribution.Binary) != len(built) {
		t.Errorf("entry lists %d platforms, the release has %d archives", len(m.Distribution.Binary), len(built))
	}
	if len(missing) > 0 {
		skipWithoutWindows(t, built)
		t.Errorf("the release lacks builds for %v", missing)
	}
}

// TestDistArchives: each archive holds the binary, LICENSE and README.md;
// a Windows archive is a zip holding dsh-acp.exe.
func TestDistArchives(t *testing.T) {
	dir := dist(t)
	m := distManifest(t, dir)
	built := builtTargets(t, dir, m.Version)
	for _, tgt := range built {
		path := filepath.Join(dir, tgt.Archive(m.Version))
		var got []archived
		if tgt.Windows() {
			got = readZip(t, path)
		} else {
			got = readTarGz(t, path)
		}
		var names []string
		for _, a := range got {
			names = append(names, a.name)
		}
		if want := []string{tgt.Executable(), "LICENSE", "README.md"}; !slices.Equal(names, want) {
			t.Errorf("%s holds %v, want %v", filepath.Base(path), names, want)
		}
		if len(got) > 0 && got[0].data != readString(t, NPMBinary(dir, tgt)) {
			t.Errorf("%s: the binary differs from the npm package's", filepath.Base(path))
		}
	}
	skipWithoutWindows(t, built)
}

// TestDistBinary: the host's binary says its version, commit and Go, and
// is stripped.
func TestDistBinary(t *testing.T) {
	dir := dist(t)
	host := hostTarget(t)
	bin := NPMBinary(dir, host)
	out, err := exec.CommandContext(t.Context(), bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^dsh-acp ` + regexp.QuoteMeta(distManifest(t, dir).Version) + ` \(commit [0-9a-f]{12}, go[0-9.]+ ` + runtime.GOOS + `/` + runtime.GOARCH + `\)\n$`)
	if !want.Match(out) {
		t.Errorf("--version = %q, want it to match %s", out, want)
	}
	info, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %.1f MB", bin, float64(info.Size())/1e6)
	if host.GOOS == "linux" {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.Section(".symtab") != nil || f.Section(".debug_info") != nil {
			t.Error("the binary has a symbol table or DWARF: not stripped")
		}
	}
}

// TestDistReproducible: the host's release, built twice from this
// checkout, is the same bytes (the second build reuses Go's build cache,
// which is keyed by every input; linking, stripping and archiving run
// again).
func TestDistReproducible(t *testing.T) {
	dist(t)
	host := hostTarget(t)
	root := moduleRoot(t)
	build := func(out string) {
		_, err := Release(t.Context(), Options{
			Version: "0.0.2", Commit: "0123456789ab", ModTime: time.Unix(1764630000, 0), Out: out,
			Targets: []Target{host}, Project: DshACP(root),
			Builder: GoBuilder{Dir: root, Version: "0.0.2", Commit: "0123456789ab"},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	build(a)
	build(b)
	compareTrees(t, a, b)
}

// TestDistAuthMethods: initialize offers a terminal sign-in method that
// runs `dsh-acp login`, both to the registry's own check (its
// clientCapabilities, its reading of the answer) and to an ACP 1.25 client
// that says it runs terminal methods.
func TestDistAuthMethods(t *testing.T) {
	dir := dist(t)
	bin := NPMBinary(dir, hostTarget(t))
	tests := []struct {
		name string
		caps string
	}{
		{"the registry's auth check", `{"terminal":true,"fs":{"readTextFile":true,"writeTextFile":true},"_meta":{"terminal_output":true,"terminal-auth":true}}`},
		{"a client with auth.terminal", `{"auth":{"terminal":true}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answer := initialize(t, bin, tt.caps)
			var terminal []map[string]any
			for _, m := range answer.AuthMethods {
				if registryAuthType(m) == "terminal" {
					terminal = append(terminal, m)
				}
			}
			if len(terminal) != 1 {
				t.Fatalf("authMethods %v: want one terminal method", answer.AuthMethods)
			}
			args, _ := json.Marshal(terminalArgs(terminal[0]))
			if string(args) != `["login"]` {
				t.Errorf("terminal method %v runs %s, want [\"login\"]", terminal[0], args)
			}
		})
	}
}

type initializeResult struct {
	AuthMethods []map[string]any `json:"authMethods"`
}

// initialize starts bin with a fresh home and no keys, sends initialize
// with caps, and returns the answer.
func initialize(t *testing.T, bin, caps string) initializeResult {
	t.Helper()
	home := t.TempDir()
	cmd := exec.CommandContext(t.Context(), bin)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=dumb", "DSH_STATE_DIR=" + filepath.Join(home, "state")}
	cmd.Dir = home
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientInfo":{"name":"ACP Registry Validator","version":"1.0.0"},"clientCapabilities":` + caps + "}}\n")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	lines.Buffer(nil, 1<<20)
	if !lines.Scan() {
		t.Fatalf("no answer: %v", lines.Err())
	}
	var frame struct {
		Result *initializeResult `json:"result"`
		Error  any               `json:"error"`
	}
	if err := json.Unmarshal(lines.Bytes(), &frame); err != nil || frame.Result == nil {
		t.Fatalf("answer %s: %v", lines.Bytes(), err)
	}
	for lines.Scan() { // stdin has ended: it shuts down
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("dsh-acp after stdin ended: %v", err)
	}
	return *frame.Result
}

// registryAuthType is the registry's reading of an auth method's type
// (.github/workflows/client.py): "type", else "terminal" for
// _meta["terminal-auth"], else "agent".
func registryAuthType(m map[string]any) string {
	if typ, ok := m["type"].(string); ok && typ != "" {
		return typ
	}
	if meta, ok := m["_meta"].(map[string]any); ok {
		if _, ok := meta["terminal-auth"]; ok {
			return "terminal"
		}
	}
	return "agent"
}

// terminalArgs is what a terminal method runs: its args, or those of its
// _meta["terminal-auth"].
func terminalArgs(m map[string]any) any {
	if args, ok := m["args"]; ok {
		return args
	}
	meta, _ := m["_meta"].(map[string]any)
	ta, _ := meta["terminal-auth"].(map[string]any)
	return ta["args"]
}
