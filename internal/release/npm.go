package release

import (
	_ "embed"
	"encoding/json"
	"os"
	"path/filepath"
)

// npmScope holds the platform packages: one owner, so no one else can
// publish a package the launcher would run.
const npmScope = "@dsh-acp"

// NPMLauncher is the npm package users install and npx runs.
const NPMLauncher = "dsh-acp"

// launcherJS is the launcher package's bin: it derives the platform
// package's name from process.platform and process.arch, as NPMPackage
// does, and runs its binary.
//
//go:embed launcher.js
var launcherJS []byte

// npmManifest is the part of package.json the packages use, in the order
// npm writes it.
type npmManifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Repository           npmRepository     `json:"repository"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Files                []string          `json:"files"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

type npmRepository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// npmDir is where the package name's directory lies under dist/npm:
// dsh-acp, and dsh-acp-<NodePlatform> for the platform packages.
func npmDir(out string, t *Target) string {
	if t == nil {
		return filepath.Join(out, "npm", NPMLauncher)
	}
	return filepath.Join(out, "npm", NPMLauncher+"-"+t.NodePlatform())
}

// NPMBinary is the path of t's binary in the release directory out (in
// its npm platform package, which the archive and the VS Code package
// take it from).
func NPMBinary(out string, t Target) string {
	return filepath.Join(npmDir(out, &t), "bin", t.Executable())
}

// writePlatformPackage writes t's package.json beside its binary.
func writePlatformPackage(out string, t Target, p Project, version string) error {
	m := npmManifest{
		Name:            t.NPMPackage(),
		Version:         version,
		Description:     "The dsh-acp binary for " + t.NodePlatform() + "; install " + NPMLauncher + ", which runs it.",
		License:         p.License,
		Repository:      npmRepository{Type: "git", URL: "git+" + p.Repository + ".git"},
		Files:           []string{"bin/" + t.Executable()},
		OS:              []string{t.NodeOS()},
		CPU:             []string{t.NodeCPU()},
		PreferUnplugged: true,
	}
	return writeJSON(filepath.Join(npmDir(out, &t), "package.json"), m)
}

// writeLauncherPackage writes the launcher package: package.json naming
// every platform package of targets at exactly version, the launcher,
// README.md and LICENSE.
func writeLauncherPackage(out string, targets []Target, p Project, version string) error {
	dir := npmDir(out, nil)
	deps := map[string]string{}
	for _, t := range targets {
		deps[t.NPMPackage()] = version
	}
	m := npmManifest{
		Name:                 NPMLauncher,
		Version:              version,
		Description:          p.Description,
		License:              p.License,
		Repository:           npmRepository{Type: "git", URL: "git+" + p.Repository + ".git"},
		Bin:                  map[string]string{NPMLauncher: "bin/dsh-acp.js"},
		Files:                []string{"bin/dsh-acp.js"},
		Engines:              map[string]string{"node": ">=18"},
		OptionalDependencies: deps,
	}
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "dsh-acp.js"), launcherJS, 0o755); err != nil {
		return err
	}
	for name, src := range map[string]string{"README.md": p.Readme, "LICENSE": p.LicenseFile} {
		if err := copyFile(src, filepath.Join(dir, name), 0o644); err != nil {
			return err
		}
	}
	return writeJSON(filepath.Join(dir, "package.json"), m)
}

// writeJSON writes v as indented JSON with a final newline.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// copyFile copies src to dst with mode.
func copyFile(src, dst string, mode os.FileMode) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, mode)
}
