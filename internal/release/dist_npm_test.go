//go:build unix

package release

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// packed is what `npm pack --json` says of one tarball.
type packed struct {
	Name     string `json:"name"`
	Filename string `json:"filename"`
	Files    []struct {
		Path string `json:"path"`
		Mode int    `json:"mode"`
	} `json:"files"`
}

// TestDistNPMInstallAndTurn packs the release's npm packages, installs
// the launcher and the host's platform package from those tarballs into
// an empty directory with an empty cache, offline and without scripts,
// and has acpx drive `npx dsh-acp` through a scripted turn that writes a
// file.
func TestDistNPMInstallAndTurn(t *testing.T) {
	dir := dist(t)
	host := hostTarget(t)
	npm := lookPath(t, "npm")
	acpx := os.Getenv("ACPX")
	if acpx == "" {
		acpx = lookPath(t, "acpx")
	}
	version := distManifest(t, dir).Version
	work := t.TempDir()
	env := append(os.Environ(), "npm_config_cache="+filepath.Join(work, "npm-cache"), "npm_config_update_notifier=false")

	tarballs := map[string]string{}
	packages, err := filepath.Glob(filepath.Join(dir, "npm", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range packages {
		out := runIn(t, work, env, npm, "pack", "--json", "--pack-destination", work, pkg)
		var list []packed
		if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
			t.Fatalf("npm pack %s: %v\n%s", pkg, err, out)
		}
		p := list[0]
		tarballs[p.Name] = filepath.Join(work, p.Filename)
		var files []string
		for _, f := range p.Files {
			files = append(files, f.Path)
		}
		slices.Sort(files)
		want := []string{"LICENSE", "README.md", "bin/dsh-acp.js", "package.json"}
		for _, tgt := range Targets() {
			if p.Name == tgt.NPMPackage() {
				want = []string{"bin/" + tgt.Executable(), "package.json"}
			}
		}
		if !slices.Equal(files, want) {
			t.Errorf("%s packs %v, want %v", p.Name, files, want)
		}
	}

	project := filepath.Join(work, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	runIn(t, project, env, npm, "install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund",
		tarballs[NPMLauncher], tarballs[host.NPMPackage()])
	installed := filepath.Join(project, "node_modules", filepath.FromSlash(host.NPMPackage()), "bin", host.Executable())
	if info, err := os.Stat(installed); err != nil || info.Mode().Perm()&0o111 == 0 {
		t.Fatalf("installed binary %s: %v (mode %v)", installed, err, info)
	}
	if got := runIn(t, project, env, npm, "exec", "--offline", "--", "dsh-acp", "--version"); !strings.HasPrefix(got, "dsh-acp "+version+" (commit ") {
		t.Errorf("npx dsh-acp --version = %q", got)
	}

	ws := filepath.Join(project, "ws")
	script := filepath.Join(work, "script.jsonl")
	writeFile(t, script, []byte(`{"tool_calls":[{"id":"w1","name":"write","arguments":{"file_path":"hello.txt","content":"written through npx\n"}}]}`+"\n"+
		`{"text":"wrote hello.txt through npx"}`+"\n"), 0o644)
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	turnEnv := append(slices.Clip(env), "DSH_MODEL_SCRIPT="+script, "DSH_STATE_DIR="+filepath.Join(work, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"), "DSH_API_KEY=", "DEEPSEEK_API_KEY=")
	out := runIn(t, ws, turnEnv, acpx, "--cwd", ws, "--approve-all", "--format", "json",
		"--agent", "npx --offline dsh-acp", "exec", "write hello.txt")
	if !strings.Contains(out, "wrote hello.txt through npx") {
		t.Errorf("acpx output lacks the answer:\n%s", out)
	}
	if got := readString(t, filepath.Join(ws, "hello.txt")); got != "written through npx\n" {
		t.Errorf("hello.txt = %q", got)
	}
}

func lookPath(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s is not on the PATH (make release-test installs what it needs)", name)
	}
	return path
}

// runIn runs name args in dir with env and returns its stdout; a failure
// fails the test with both outputs.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}
