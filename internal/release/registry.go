package release

import (
	_ "embed"
	"os"
	"path/filepath"
	"strings"
)

// RegistryID is dsh-acp's id in the ACP registry
// (github.com/agentclientprotocol/registry): "dsh-acp" there is another
// project's adapter for DeepSeek Harness.
const RegistryID = "dsh-go"

// registryIcon is the entry's icon.svg: 16×16, drawn only in currentColor
// as the registry requires.
//
//go:embed icon.svg
var registryIcon []byte

// Manifest is a registry entry (agent.json) in the registry's format
// (its agent.schema.json and build script's checks).
type Manifest struct {
	ID           string       `json:"id"`
	Name         string       `json:"name"`
	Version      string       `json:"version"`
	Description  string       `json:"description"`
	Repository   string       `json:"repository,omitempty"`
	Website      string       `json:"website,omitempty"`
	Authors      []string     `json:"authors,omitempty"`
	License      string       `json:"license,omitempty"`
	LicenseURL   string       `json:"license_url,omitempty"`
	Distribution Distribution `json:"distribution"`
}

// Distribution is how a client gets the agent: a binary per platform
// and an npm package.
type Distribution struct {
	Binary map[string]BinaryTarget `json:"binary,omitempty"`
	NPX    *PackageDistribution    `json:"npx,omitempty"`
}

// BinaryTarget is one platform's archive, its checksum and the command
// to run after extracting it.
type BinaryTarget struct {
	Archive string   `json:"archive"`
	SHA256  string   `json:"sha256,omitempty"`
	Cmd     string   `json:"cmd"`
	Args    []string `json:"args,omitempty"`
}

// PackageDistribution is a package npx runs, with its pinned version.
type PackageDistribution struct {
	Package string   `json:"package"`
	Args    []string `json:"args,omitempty"`
}

// RegistryDir is the entry's directory in the release directory out:
// registry/<RegistryID>, as the registry's repository lays entries out.
func RegistryDir(out string) string { return filepath.Join(out, "registry", RegistryID) }

// manifest is the entry for version, its archives at baseURL with sums
// (archive name → hex SHA-256).
func manifest(p Project, version, baseURL string, targets []Target, sums map[string]string) Manifest {
	m := Manifest{
		ID:          RegistryID,
		Name:        p.Name,
		Version:     version,
		Description: p.Description,
		Repository:  p.Repository,
		Authors:     p.Authors,
		License:     p.License,
		LicenseURL:  p.Repository + "/blob/v" + version + "/LICENSE",
		Distribution: Distribution{
			Binary: map[string]BinaryTarget{},
			NPX:    &PackageDistribution{Package: NPMLauncher + "@" + version},
		},
	}
	base := strings.TrimSuffix(baseURL, "/")
	for _, t := range targets {
		name := t.Archive(version)
		m.Distribution.Binary[t.Platform] = BinaryTarget{Archive: base + "/" + name, SHA256: sums[name], Cmd: "./" + t.Executable()}
	}
	return m
}

// writeRegistryEntry writes agent.json and icon.svg under RegistryDir.
func writeRegistryEntry(out string, m Manifest) error {
	dir := RegistryDir(out)
	if err := writeJSON(filepath.Join(dir, "agent.json"), m); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "icon.svg"), registryIcon, 0o644)
}
