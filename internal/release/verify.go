package release

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
)

// VerifyRelease checks the release directory out as the registry and a
// client would see it: the entry under RegistryDir against the
// registry's rules, its icon, and each archive it names against the file
// in out (present, with the sha256 the entry and SHA256SUMS give). It
// returns every problem found.
func VerifyRelease(out string) ([]Problem, error) {
	dir := RegistryDir(out)
	data, err := os.ReadFile(filepath.Join(dir, "agent.json"))
	if err != nil {
		return nil, err
	}
	icon, err := os.ReadFile(filepath.Join(dir, "icon.svg"))
	if err != nil {
		return nil, err
	}
	sums, err := ReadChecksums(out)
	if err != nil {
		return nil, err
	}
	problems := append(ValidateManifest(data, filepath.Base(dir)), ValidateIcon(icon)...)
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return problems, nil // ValidateManifest said why
	}
	for _, platform := range slices.Sorted(maps.Keys(m.Distribution.Binary)) {
		target := m.Distribution.Binary[platform]
		field := "distribution.binary." + platform
		name := path.Base(target.Archive)
		got, err := fileSHA256(filepath.Join(out, name))
		switch {
		case err != nil:
			problems = append(problems, Problem{field + ".archive", fmt.Sprintf("%s is not in the release: %v", name, err)})
		case target.SHA256 != got:
			problems = append(problems, Problem{field + ".sha256", fmt.Sprintf("is %q, the archive's is %s", target.SHA256, got)})
		case sums[name] != got:
			problems = append(problems, Problem{field, fmt.Sprintf("%s says %q for %s, the archive's is %s", ChecksumsFile, sums[name], name, got)})
		}
	}
	return problems, nil
}
