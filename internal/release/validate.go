package release

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Problem is one way a registry entry breaks the registry's rules.
type Problem struct {
	// Field is the JSON path of what is wrong, e.g.
	// "distribution.binary.linux-x86_64.sha256"; "" for the whole entry.
	Field string
	// Rule says what the registry wants there.
	Rule string
}

func (p Problem) String() string {
	if p.Field == "" {
		return p.Rule
	}
	return p.Field + ": " + p.Rule
}

// The registry's rules, as its agent.schema.json and build_registry.py
// state them (github.com/agentclientprotocol/registry, read in 2026-12):
// the required fields (license_url too since its pull request 584), the
// id, version and sha256 patterns, the six platform names, a build for
// each of darwin, linux and windows, closed objects under distribution,
// pinned versions that match the entry's, no /latest/ URLs.
var (
	registryIDPattern      = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	registryVersionPattern = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+`)
	sha256Pattern          = regexp.MustCompile(`^[a-fA-F0-9]{64}$`)
	urlVersionPattern      = regexp.MustCompile(`/(?:download|releases)/v?([0-9.]+)/`)
)

var (
	registryRequired  = []string{"id", "name", "version", "description", "distribution", "license_url"}
	registryKnown     = []string{"id", "name", "version", "description", "repository", "website", "authors", "license", "license_url", "icon", "distribution"}
	distributionKinds = []string{"binary", "npx", "uvx"}
	binaryTargetKeys  = []string{"archive", "sha256", "cmd", "args", "env"}
	packageKeys       = []string{"package", "args", "env"}
	archiveSuffixes   = []string{".zip", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2"}
	requiredOSes      = []string{"darwin", "linux", "windows"}
)

// ValidateManifest checks an agent.json (data) that lives in the
// registry directory dir against the registry's rules, and returns every
// problem found, in a stable order; none when it would be accepted.
func ValidateManifest(data []byte, dir string) []Problem {
	var v validator
	var entry map[string]any
	if err := json.Unmarshal(data, &entry); err != nil {
		return []Problem{{Rule: fmt.Sprintf("not a JSON object: %v", err)}}
	}
	for _, key := range registryRequired {
		if _, ok := entry[key]; !ok {
			v.add(key, "required")
		}
	}
	v.closed("", entry, registryKnown)
	id := v.str(entry, "id", "")
	if id != "" && !registryIDPattern.MatchString(id) {
		v.add("id", "must match "+registryIDPattern.String())
	}
	if id != "" && id != dir {
		v.add("id", fmt.Sprintf("must be the directory's name %q", dir))
	}
	v.str(entry, "name", "")
	v.str(entry, "description", "")
	version := v.str(entry, "version", "")
	if version != "" && !semverPrefix(version) {
		v.add("version", "must be a semantic version x.y.z")
	}
	for _, key := range []string{"repository", "website", "license_url"} {
		if s, ok := entry[key].(string); ok {
			v.uri(key, s)
		} else if _, present := entry[key]; present {
			v.add(key, "must be a string")
		}
	}
	if authors, present := entry["authors"]; present {
		list, ok := authors.([]any)
		for _, a := range list {
			if _, isString := a.(string); !isString {
				ok = false
			}
		}
		if !ok {
			v.add("authors", "must be an array of strings")
		}
	}
	if dist, present := entry["distribution"]; present {
		v.distribution(dist, version)
	}
	return v.problems
}

type validator struct{ problems []Problem }

func (v *validator) add(field, rule string) { v.problems = append(v.problems, Problem{field, rule}) }

// str returns obj[key] when it is a non-empty string, else notes why not
// (a missing key is the caller's to report) and returns "".
func (v *validator) str(obj map[string]any, key, prefix string) string {
	raw, present := obj[key]
	if !present {
		return ""
	}
	s, ok := raw.(string)
	if !ok || s == "" {
		v.add(prefix+key, "must be a non-empty string")
		return ""
	}
	return s
}

// closed notes every key of obj that is not one of known.
func (v *validator) closed(field string, obj map[string]any, known []string) {
	var unknown []string
	for key := range obj {
		if !slices.Contains(known, key) {
			unknown = append(unknown, key)
		}
	}
	sort.Strings(unknown)
	for _, key := range unknown {
		v.add(join(field, key), "unknown property (allowed: "+strings.Join(known, ", ")+")")
	}
}

func (v *validator) uri(field, s string) {
	if u, err := url.Parse(s); err != nil || u.Scheme == "" || u.Host == "" {
		v.add(field, "must be an absolute URL")
	}
}

func (v *validator) distribution(raw any, version string) {
	dist, ok := raw.(map[string]any)
	if !ok || len(dist) == 0 {
		v.add("distribution", "must be a non-empty object")
		return
	}
	v.closed("distribution", dist, distributionKinds)
	if raw, present := dist["binary"]; present {
		v.binary(raw, version)
	}
	for _, kind := range []string{"npx", "uvx"} {
		if raw, present := dist[kind]; present {
			v.pkg("distribution."+kind, raw, version)
		}
	}
}

func (v *validator) binary(raw any, version string) {
	const field = "distribution.binary"
	binary, ok := raw.(map[string]any)
	if !ok || len(binary) == 0 {
		v.add(field, "must be a non-empty object")
		return
	}
	oses := map[string]bool{}
	for _, platform := range sortedKeys(binary) {
		pf := field + "." + platform
		if !slices.Contains(platformList(), platform) {
			v.add(pf, "unknown platform (allowed: "+platformNames()+")")
			continue
		}
		oses[strings.SplitN(platform, "-", 2)[0]] = true
		target, ok := binary[platform].(map[string]any)
		if !ok {
			v.add(pf, "must be an object")
			continue
		}
		v.closed(pf, target, binaryTargetKeys)
		for _, key := range []string{"archive", "cmd"} {
			if _, present := target[key]; !present {
				v.add(pf+"."+key, "required")
			}
		}
		v.str(target, "cmd", pf+".")
		if archive := v.str(target, "archive", pf+"."); archive != "" {
			v.archiveURL(pf+".archive", archive, version)
		}
		if sum, present := target["sha256"]; present {
			if s, ok := sum.(string); !ok || !sha256Pattern.MatchString(s) {
				v.add(pf+".sha256", "must be 64 hex digits")
			}
		}
	}
	for _, os := range requiredOSes {
		if !oses[os] {
			v.add(field, "must include a build for "+os)
		}
	}
}

func (v *validator) archiveURL(field, archive, version string) {
	v.uri(field, archive)
	if strings.Contains(archive, "/latest/") {
		v.add(field, "must name the version, not /latest/")
	}
	if m := urlVersionPattern.FindStringSubmatch(archive); m != nil && version != "" && normalizeVersion(m[1]) != version {
		v.add(field, fmt.Sprintf("names version %s, not the entry's %s", m[1], version))
	}
	name := strings.ToLower(path.Base(archive))
	supported := false
	for _, suffix := range archiveSuffixes {
		supported = supported || strings.HasSuffix(name, suffix)
	}
	if !supported {
		v.add(field, "must be one of "+strings.Join(archiveSuffixes, ", "))
	}
}

// pkg checks an npx or uvx package. The registry accepts an unpinned one;
// a release pins it to its own version, so a missing version is a
// problem here.
func (v *validator) pkg(field string, raw any, version string) {
	p, ok := raw.(map[string]any)
	if !ok {
		v.add(field, "must be an object")
		return
	}
	v.closed(field, p, packageKeys)
	if _, present := p["package"]; !present {
		v.add(field+".package", "required")
		return
	}
	spec := v.str(p, "package", field+".")
	if spec == "" {
		return
	}
	pinned := npmSpecVersion(spec)
	switch {
	case strings.Contains(strings.ToLower(spec), "@latest"):
		v.add(field+".package", "must name the version, not @latest")
	case pinned == "":
		v.add(field+".package", "must be pinned to the entry's version (name@"+version+")")
	case pinned != version:
		v.add(field+".package", fmt.Sprintf("pins %s, not the entry's %s", pinned, version))
	}
}

// npmSpecVersion returns the version of "name@1.2.3" or
// "@scope/name@1.2.3"; "" when there is none.
func npmSpecVersion(spec string) string {
	at := strings.LastIndex(spec, "@")
	if at <= 0 {
		return ""
	}
	return spec[at+1:]
}

// semverPrefix reports whether the version's first three dot-separated
// parts are digits (the registry's own check).
func semverPrefix(version string) bool {
	parts := strings.Split(version, ".")
	if len(parts) < 3 || !registryVersionPattern.MatchString(version) {
		return false
	}
	for _, p := range parts[:3] {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// normalizeVersion pads "1.2" to "1.2.0" and cuts "1.2.3.4" to "1.2.3".
func normalizeVersion(v string) string {
	parts := strings.Split(v, ".")
	for len(parts) < 3 {
		parts = append(parts, "0")
	}
	return strings.Join(parts[:3], ".")
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}
