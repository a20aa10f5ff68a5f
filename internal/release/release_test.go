package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeBuilder writes a small "binary" naming its target, so releases are
// made in milliseconds.
type fakeBuilder struct{}

func (fakeBuilder) Build(_ context.Context, t Target, out string) error {
	return os.WriteFile(out, []byte("binary for "+t.Platform+"\n"), 0o700)
}

// moduleRoot is the directory holding go.mod (README.md, LICENSE).
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

var testTime = time.Date(2026, 12, 1, 23, 0, 0, 0, time.UTC)

func fakeRelease(t *testing.T, out string) Result {
	t.Helper()
	res, err := Release(t.Context(), Options{
		Version: "1.2.3", Commit: "876f68a1b2c3", ModTime: testTime, Out: out,
		Targets: Targets(), Project: DshACP(moduleRoot(t)), Builder: fakeBuilder{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestReleaseLayout: every file the release promises, and nothing else.
func TestReleaseLayout(t *testing.T) {
	out := t.TempDir()
	fakeRelease(t, out)
	want := []string{
		"SHA256SUMS",
		"dsh-acp-1.2.3-darwin-aarch64.tar.gz", "dsh-acp-1.2.3-darwin-x86_64.tar.gz",
		"dsh-acp-1.2.3-linux-aarch64.tar.gz", "dsh-acp-1.2.3-linux-x86_64.tar.gz",
		"dsh-acp-1.2.3-windows-aarch64.zip", "dsh-acp-1.2.3-windows-x86_64.zip",
		"npm/dsh-acp-darwin-arm64/bin/dsh-acp", "npm/dsh-acp-darwin-arm64/package.json",
		"npm/dsh-acp-darwin-x64/bin/dsh-acp", "npm/dsh-acp-darwin-x64/package.json",
		"npm/dsh-acp-linux-arm64/bin/dsh-acp", "npm/dsh-acp-linux-arm64/package.json",
		"npm/dsh-acp-linux-x64/bin/dsh-acp", "npm/dsh-acp-linux-x64/package.json",
		"npm/dsh-acp-win32-arm64/bin/dsh-acp.exe", "npm/dsh-acp-win32-arm64/package.json",
		"npm/dsh-acp-win32-x64/bin/dsh-acp.exe", "npm/dsh-acp-win32-x64/package.json",
		"npm/dsh-acp/LICENSE", "npm/dsh-acp/README.md", "npm/dsh-acp/bin/dsh-acp.js", "npm/dsh-acp/package.json",
		"registry/dsh-go/agent.json", "registry/dsh-go/icon.svg",
	}
	if got := listFiles(t, out); !slices.Equal(got, want) {
		t.Errorf("release holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestArchiveContents: each archive holds the binary (executable), LICENSE
// and README.md, with fixed times and no owner; Windows' is a zip.
func TestArchiveContents(t *testing.T) {
	out := t.TempDir()
	fakeRelease(t, out)
	root := moduleRoot(t)
	for _, tgt := range Targets() {
		t.Run(tgt.Platform, func(t *testing.T) {
			path := filepath.Join(out, tgt.Archive("1.2.3"))
			var got []archived
			if tgt.Windows() {
				got = readZip(t, path)
			} else {
				got = readTarGz(t, path)
			}
			want := []archived{
				{name: tgt.Executable(), mode: 0o755, data: "binary for " + tgt.Platform + "\n"},
				{name: "LICENSE", mode: 0o644, data: readString(t, filepath.Join(root, "LICENSE"))},
				{name: "README.md", mode: 0o644, data: readString(t, filepath.Join(root, "README.md"))},
			}
			if len(got) != len(want) {
				t.Fatalf("archive holds %d files, want %d", len(got), len(want))
			}
			for i := range want {
				g, w := got[i], want[i]
				if g.name != w.name || g.mode != w.mode || g.data != w.data || !g.mtime.Equal(testTime) || g.owner != "" {
					t.Errorf("member %d = {%s %v %d bytes %v owner %q}, want {%s %v %d bytes %v}",
						i, g.name, g.mode, len(g.data), g.mtime, g.owner, w.name, w.mode, len(w.data), testTime)
				}
			}
		})
	}
}

// TestReleaseIsDeterministic: two releases of the same inputs are the
// same bytes, file by file (the archives' gzip and zip headers carry no
// time of their own).
func TestReleaseIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	fakeRelease(t, a)
	fakeRelease(t, b)
	compareTrees(t, a, b)
	data, err := os.ReadFile(filepath.Join(a, Targets()[0].Archive("1.2.3")))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("gzip header has time %v, name %q; want neither", zr.ModTime, zr.Name)
	}
}

func TestReleaseRefuses(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "old"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	good := Options{Version: "1.2.3", Commit: "876f68a1b2c3", ModTime: testTime, Out: filepath.Join(t.TempDir(), "dist"),
		Targets: Targets(), Project: DshACP(moduleRoot(t)), Builder: fakeBuilder{}}
	tests := []struct {
		name   string
		change func(*Options)
		want   string
	}{
		{"a pre-release version", func(o *Options) { o.Version = "1.2.3-rc.1" }, `version "1.2.3-rc.1": want x.y.z`},
		{"a v prefix", func(o *Options) { o.Version = "v1.2.3" }, `version "v1.2.3"`},
		{"a commit that is not hex", func(o *Options) { o.Commit = "HEAD" }, `commit "HEAD"`},
		{"an ldflags injection in the commit", func(o *Options) { o.Commit = "abcdef0 -X main.x=y" }, "commit"},
		{"a directory holding files", func(o *Options) { o.Out = full }, "is not empty: remove it first"},
		{"no targets", func(o *Options) { o.Targets = nil }, "no targets"},
		{"no time", func(o *Options) { o.ModTime = time.Time{} }, "no modification time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := good
			tt.change(&opts)
			_, err := Release(t.Context(), opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestNPMPackages: the launcher names every platform package at exactly
// the release's version, has no install script and no dependency of its
// own; each platform package is limited to its os and cpu and holds only
// its binary.
func TestNPMPackages(t *testing.T) {
	out := t.TempDir()
	fakeRelease(t, out)
	var launcher map[string]any
	readJSON(t, filepath.Join(out, "npm", "dsh-acp", "package.json"), &launcher)
	wantDeps := map[string]any{}
	for _, tgt := range Targets() {
		wantDeps[tgt.NPMPackage()] = "1.2.3"
	}
	if got := launcher["optionalDependencies"]; !jsonEqual(got, wantDeps) {
		t.Errorf("optionalDependencies = %v, want %v", got, wantDeps)
	}
	for _, key := range []string{"scripts", "dependencies", "os", "cpu"} {
		if _, ok := launcher[key]; ok {
			t.Errorf("launcher package.json has %q", key)
		}
	}
	if bin := launcher["bin"]; !jsonEqual(bin, map[string]any{"dsh-acp": "bin/dsh-acp.js"}) {
		t.Errorf("bin = %v", bin)
	}
	for _, tgt := range Targets() {
		var p map[string]any
		readJSON(t, filepath.Join(out, "npm", "dsh-acp-"+tgt.NodePlatform(), "package.json"), &p)
		want := map[string]any{
			"name": tgt.NPMPackage(), "version": "1.2.3", "os": []any{tgt.NodeOS()}, "cpu": []any{tgt.NodeCPU()},
			"files": []any{"bin/" + tgt.Executable()},
		}
		for key, w := range want {
			if !jsonEqual(p[key], w) {
				t.Errorf("%s: %s = %v, want %v", tgt.Platform, key, p[key], w)
			}
		}
		if _, ok := p["scripts"]; ok {
			t.Errorf("%s has scripts", tgt.Platform)
		}
	}
}

// TestTargets: the six registry platforms, each mapped to the names npm,
// Node and VS Code use, and the launcher derives the same package names.
func TestTargets(t *testing.T) {
	want := map[string]string{
		"darwin-aarch64": "darwin-arm64", "darwin-x86_64": "darwin-x64",
		"linux-aarch64": "linux-arm64", "linux-x86_64": "linux-x64",
		"windows-aarch64": "win32-arm64", "windows-x86_64": "win32-x64",
	}
	got := map[string]string{}
	for _, tgt := range Targets() {
		got[tgt.Platform] = tgt.NodePlatform()
		if tgt.NPMPackage() != "@dsh-acp/"+tgt.NodePlatform() {
			t.Errorf("%s: npm package %s", tgt.Platform, tgt.NPMPackage())
		}
	}
	if !jsonEqual(got, want) {
		t.Errorf("targets = %v, want %v", got, want)
	}
	if !bytes.Contains(launcherJS, []byte("`@dsh-acp/${process.platform}-${process.arch}`")) {
		t.Error("launcher.js no longer derives @dsh-acp/<platform>-<arch>")
	}
	if host, ok := HostTarget(runtime.GOOS, runtime.GOARCH); ok && host.GOOS != runtime.GOOS {
		t.Errorf("host target %v", host)
	}
	for _, tt := range []struct {
		list    string
		want    []string
		wantErr string
	}{
		{list: "all", want: platformList()},
		{list: "linux-x86_64, darwin-aarch64", want: []string{"darwin-aarch64", "linux-x86_64"}},
		{list: "linux-amd64", wantErr: `unknown platform "linux-amd64"`},
	} {
		ts, err := ParseTargets(tt.list)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseTargets(%q) err = %v, want %q", tt.list, err, tt.wantErr)
			}
			continue
		}
		var names []string
		for _, tgt := range ts {
			names = append(names, tgt.Platform)
		}
		if err != nil || !slices.Equal(names, tt.want) {
			t.Errorf("ParseTargets(%q) = %v, %v; want %v", tt.list, names, err, tt.want)
		}
	}
}

// archived is one member of an archive as read back.
type archived struct {
	name, data, owner string
	mode              fs.FileMode
	mtime             time.Time
}

func readTarGz(t *testing.T, path string) []archived {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var got []archived
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		owner := hdr.Uname + hdr.Gname
		if hdr.Uid != 0 || hdr.Gid != 0 {
			owner += "uid/gid set"
		}
		got = append(got, archived{name: hdr.Name, data: string(data), owner: owner, mode: fs.FileMode(hdr.Mode), mtime: hdr.ModTime})
	}
}

func readZip(t *testing.T, path string) []archived {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var got []archived
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, archived{name: f.Name, data: string(data), mode: f.Mode().Perm(), mtime: f.Modified})
	}
	return got
}

// listFiles returns every regular file under dir, slash-separated and sorted.
func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

// compareTrees fails unless a and b hold the same files with the same bytes.
func compareTrees(t *testing.T, a, b string) {
	t.Helper()
	fa, fb := listFiles(t, a), listFiles(t, b)
	if !slices.Equal(fa, fb) {
		t.Fatalf("the two releases hold different files:\n%v\n%v", fa, fb)
	}
	for _, name := range fa {
		da, db := readString(t, filepath.Join(a, name)), readString(t, filepath.Join(b, name))
		if da != db {
			t.Errorf("%s differs between the two releases (%d and %d bytes)", name, len(da), len(db))
		}
	}
}

func readString(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(readString(t, path)), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// jsonEqual compares two values by their JSON encodings.
func jsonEqual(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
