package release

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReleaseManifest: the entry a release writes passes the registry's
// rules, offers all six platforms with the archives' real checksums, and
// pins the npm launcher.
func TestReleaseManifest(t *testing.T) {
	out := t.TempDir()
	res := fakeRelease(t, out)
	problems, err := VerifyRelease(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("registry entry: %s", p)
	}
	m := res.Manifest
	if m.ID != RegistryID || m.Version != "1.2.3" || m.License != "MIT" ||
		m.LicenseURL != "https://github.com/dsh-acp/dsh-acp/blob/v1.2.3/LICENSE" || m.Distribution.NPX.Package != "dsh-acp@1.2.3" {
		t.Errorf("manifest = %+v", m)
	}
	for _, tgt := range Targets() {
		b, ok := m.Distribution.Binary[tgt.Platform]
		name := tgt.Archive("1.2.3")
		want := BinaryTarget{Archive: "https://github.com/dsh-acp/dsh-acp/releases/download/v1.2.3/" + name, SHA256: res.Archives[name], Cmd: "./" + tgt.Executable()}
		if !ok || b.Archive != want.Archive || b.SHA256 != want.SHA256 || b.Cmd != want.Cmd {
			t.Errorf("%s: %+v, want %+v", tgt.Platform, b, want)
		}
	}
}

// TestVerifyReleaseCatchesAChangedArchive: an archive replaced after the
// entry was written is named, with both checksums.
func TestVerifyReleaseCatchesAChangedArchive(t *testing.T) {
	out := t.TempDir()
	fakeRelease(t, out)
	name := filepath.Join(out, "dsh-acp-1.2.3-windows-x86_64.zip")
	if err := os.WriteFile(name, []byte("not the archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, "dsh-acp-1.2.3-linux-aarch64.tar.gz")); err != nil {
		t.Fatal(err)
	}
	problems, err := VerifyRelease(out)
	if err != nil {
		t.Fatal(err)
	}
	got := problemText(problems)
	for _, want := range []string{
		"distribution.binary.windows-x86_64.sha256: is ",
		"distribution.binary.linux-aarch64.archive: dsh-acp-1.2.3-linux-aarch64.tar.gz is not in the release",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems\n%s\nlack %q", got, want)
		}
	}
}

// TestValidateManifestRules: each rule of the registry, broken once.
func TestValidateManifestRules(t *testing.T) {
	written, err := json.Marshal(fakeRelease(t, t.TempDir()).Manifest)
	if err != nil {
		t.Fatal(err)
	}
	base := func(t *testing.T) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(written, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	binary := func(m map[string]any) map[string]any {
		return m["distribution"].(map[string]any)["binary"].(map[string]any)
	}
	target := func(m map[string]any, p string) map[string]any { return binary(m)[p].(map[string]any) }
	tests := []struct {
		name   string
		change func(map[string]any)
		dir    string
		want   string
	}{
		{name: "as written", change: func(map[string]any) {}},
		{name: "no license_url", change: func(m map[string]any) { delete(m, "license_url") }, want: "license_url: required"},
		{name: "no description", change: func(m map[string]any) { delete(m, "description") }, want: "description: required"},
		{name: "an empty name", change: func(m map[string]any) { m["name"] = "" }, want: "name: must be a non-empty string"},
		{name: "an id with capitals", change: func(m map[string]any) { m["id"] = "Dsh-Go" }, dir: "Dsh-Go", want: "id: must match"},
		{name: "an id that is not the directory's", change: func(m map[string]any) {}, dir: "dsh-acp", want: `id: must be the directory's name "dsh-acp"`},
		{name: "a version that is not semver", change: func(m map[string]any) { m["version"] = "1.2" }, want: "version: must be a semantic version"},
		{name: "a relative repository", change: func(m map[string]any) { m["repository"] = "dsh-acp/dsh-acp" }, want: "repository: must be an absolute URL"},
		{name: "authors not strings", change: func(m map[string]any) { m["authors"] = []any{1} }, want: "authors: must be an array of strings"},
		{name: "an unknown field", change: func(m map[string]any) { m["homepage"] = "x" }, want: "homepage: unknown property"},
		{name: "an unknown distribution", change: func(m map[string]any) { m["distribution"].(map[string]any)["docker"] = map[string]any{} }, want: "distribution.docker: unknown property"},
		{name: "an unknown platform", change: func(m map[string]any) { binary(m)["linux-riscv64"] = target(m, "linux-x86_64") }, want: "distribution.binary.linux-riscv64: unknown platform"},
		{name: "no windows build", change: func(m map[string]any) {
			delete(binary(m), "windows-x86_64")
			delete(binary(m), "windows-aarch64")
		}, want: "distribution.binary: must include a build for windows"},
		{name: "a short sha256", change: func(m map[string]any) { target(m, "linux-x86_64")["sha256"] = "abc" }, want: "linux-x86_64.sha256: must be 64 hex digits"},
		{name: "no cmd", change: func(m map[string]any) { delete(target(m, "darwin-aarch64"), "cmd") }, want: "darwin-aarch64.cmd: required"},
		{name: "an extra key in a target", change: func(m map[string]any) { target(m, "darwin-aarch64")["md5"] = "x" }, want: "darwin-aarch64.md5: unknown property"},
		{name: "a /latest/ archive", change: func(m map[string]any) {
			target(m, "linux-x86_64")["archive"] = "https://github.com/dsh-acp/dsh-acp/releases/latest/download/x.tar.gz"
		}, want: "linux-x86_64.archive: must name the version, not /latest/"},
		{name: "an archive of another version", change: func(m map[string]any) {
			target(m, "linux-x86_64")["archive"] = "https://github.com/dsh-acp/dsh-acp/releases/download/v1.2.2/dsh-acp-1.2.2-linux-x86_64.tar.gz"
		}, want: "names version 1.2.2, not the entry's 1.2.3"},
		{name: "an installer", change: func(m map[string]any) {
			target(m, "darwin-x86_64")["archive"] = "https://github.com/dsh-acp/dsh-acp/releases/download/v1.2.3/dsh-acp.dmg"
		}, want: "darwin-x86_64.archive: must be one of .zip"},
		{name: "npx unpinned", change: func(m map[string]any) {
			m["distribution"].(map[string]any)["npx"] = map[string]any{"package": "dsh-acp"}
		}, want: "distribution.npx.package: must be pinned"},
		{name: "npx @latest", change: func(m map[string]any) {
			m["distribution"].(map[string]any)["npx"] = map[string]any{"package": "dsh-acp@latest"}
		}, want: "not @latest"},
		{name: "npx of another version", change: func(m map[string]any) {
			m["distribution"].(map[string]any)["npx"] = map[string]any{"package": "dsh-acp@1.0.0"}
		}, want: "pins 1.0.0, not the entry's 1.2.3"},
		{name: "a scoped npx pinned right", change: func(m map[string]any) {
			m["distribution"].(map[string]any)["npx"] = map[string]any{"package": "@dsh-acp/cli@1.2.3"}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := base(t)
			tt.change(m)
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			dir := tt.dir
			if dir == "" {
				dir = RegistryID
			}
			got := problemText(ValidateManifest(data, dir))
			if tt.want == "" {
				if got != "" {
					t.Fatalf("problems:\n%s", got)
				}
				return
			}
			if !strings.Contains(got, tt.want) {
				t.Fatalf("problems:\n%s\nwant one saying %q", got, tt.want)
			}
		})
	}
}

func TestValidateIcon(t *testing.T) {
	tests := []struct {
		name, svg, want string
	}{
		{name: "the release's icon", svg: string(registryIcon)},
		{name: "viewBox only", svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><path fill="currentColor" d="M0 0h16v16z"/></svg>`},
		{name: "24x24", svg: `<svg width="24" height="24"><path fill="currentColor"/></svg>`, want: "must be 16x16, is 24x24"},
		{name: "not square", svg: `<svg width="16" height="12"><path fill="currentColor"/></svg>`, want: "must be square"},
		{name: "no size", svg: `<svg><path fill="currentColor"/></svg>`, want: "needs width and height"},
		{name: "a colour fill", svg: `<svg width="16" height="16"><path fill="#ff0000" stroke="currentColor"/></svg>`, want: `fill "#ff0000": use currentColor`},
		{name: "a colour in a style", svg: `<svg width="16" height="16"><path style="stroke: red; fill: currentColor"/></svg>`, want: `stroke "red"`},
		{name: "no currentColor", svg: `<svg width="16" height="16"><path fill="none"/></svg>`, want: "must draw in currentColor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := problemText(ValidateIcon([]byte(tt.svg)))
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Fatalf("problems %q, want %q", got, tt.want)
			}
		})
	}
}

func problemText(ps []Problem) string {
	var lines []string
	for _, p := range ps {
		lines = append(lines, p.String())
	}
	return strings.Join(lines, "\n")
}
