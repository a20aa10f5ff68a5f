//go:build unix

package release

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDistVSIX packages the VS Code extension for the host's platform
// from the release (npm run package -- --target …) and checks the .vsix
// holds the release's binary, executable, and nothing of the extension's
// development files; the universal .vsix holds no binary.
func TestDistVSIX(t *testing.T) {
	dir := dist(t)
	host := hostTarget(t)
	npm := lookPath(t, "npm")
	ext := filepath.Join(moduleRoot(t), "editors", "vscode")
	env := append(os.Environ(), "DSH_DIST="+dir, "DSH_ACP_BIN=")
	common := []string{
		"[Content_Types].xml", "extension.vsixmanifest",
		"extension/LICENSE.txt", "extension/changelog.md", "extension/package.json", "extension/readme.md",
		"extension/dist/extension.js", "extension/dist/webview.js",
		"extension/media/chat.css", "extension/media/dsh.svg", "extension/media/icon.png",
		"extension/media/walkthrough/ask.md", "extension/media/walkthrough/key.md", "extension/media/walkthrough/review.md",
	}
	tests := []struct {
		name   string
		args   []string
		binary string
	}{
		{name: "for " + host.NodePlatform(), args: []string{"--target", host.NodePlatform()}, binary: "extension/bin/" + host.Executable()},
		{name: "universal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vsix := filepath.Join(t.TempDir(), "dsh.vsix")
			runIn(t, ext, env, npm, append([]string{"run", "package", "--"}, append(tt.args, "--out", vsix)...)...)
			var names []string
			for _, f := range readZip(t, vsix) {
				names = append(names, f.name)
				if f.name != tt.binary {
					continue
				}
				if f.mode&0o111 == 0 {
					t.Errorf("%s has mode %v: not executable", f.name, f.mode)
				}
				if f.data != readString(t, NPMBinary(dir, host)) {
					t.Errorf("%s is not the release's binary", f.name)
				}
			}
			want := slices.Clone(common)
			if tt.binary != "" {
				want = append(want, tt.binary)
			}
			slices.Sort(want)
			slices.Sort(names)
			if !slices.Equal(names, want) {
				t.Errorf(".vsix holds\n%v\nwant\n%v", names, want)
			}
			if info, err := os.Stat(vsix); err == nil {
				t.Logf("%s: %.1f MB", tt.name, float64(info.Size())/1e6)
			}
			if _, err := os.Stat(filepath.Join(ext, "bin")); !os.IsNotExist(err) {
				t.Errorf("npm run package left %s behind (%v)", filepath.Join(ext, "bin"), err)
			}
		})
	}
}
