package release

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// Project is what the packages and the registry entry say about dsh-acp,
// and the files every archive carries.
type Project struct {
	// Name is the registry's display name; Description is the registry's
	// and the npm launcher's; Repository is the source URL (https, no
	// .git); License is an SPDX id.
	Name, Description, Repository, License string
	// Authors are listed in the registry entry.
	Authors []string
	// Readme and LicenseFile are the paths of README.md and LICENSE.
	Readme, LicenseFile string
}

// DshACP is dsh-acp's Project, with README.md and LICENSE of the module
// root dir.
func DshACP(dir string) Project {
	return Project{
		Name:        "dsh-acp",
		Description: "A coding agent for DeepSeek and any OpenAI-compatible model: edits as reviewable diffs, commands in a kernel sandbox, approvals in the editor",
		Repository:  "https://github.com/dsh-acp/dsh-acp",
		License:     "MIT",
		Authors:     []string{"The dsh-acp authors"},
		Readme:      filepath.Join(dir, "README.md"),
		LicenseFile: filepath.Join(dir, "LICENSE"),
	}
}

// Options says what to release and where.
type Options struct {
	// Version is the release, x.y.z (the registry accepts no other form).
	Version string
	// Commit is the source revision (hex), printed by --version.
	Commit string
	// ModTime is every archived file's modification time (the commit's
	// time, for a reproducible release).
	ModTime time.Time
	// Out is the release directory; it must not exist or be empty.
	Out string
	// Targets are the platforms to build (Targets() for a release).
	Targets []Target
	// BaseURL is where the archives will be downloaded from; the default
	// is the GitHub release of the version.
	BaseURL string
	Project Project
	Builder Builder
}

// Result says what a release wrote.
type Result struct {
	// Archives maps each archive's file name to its hex SHA-256.
	Archives map[string]string
	// Manifest is the registry entry written.
	Manifest Manifest
}

var (
	versionPattern = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)
	commitPattern  = regexp.MustCompile(`^[0-9a-f]{7,40}$`)
)

// DefaultBaseURL is where a version's archives are published.
func DefaultBaseURL(p Project, version string) string {
	return p.Repository + "/releases/download/v" + version
}

// Release builds every target and writes into opts.Out:
//
//	dsh-acp-<version>-<platform>.tar.gz (.zip for Windows)  binary, LICENSE, README.md
//	SHA256SUMS
//	npm/dsh-acp/                  the launcher package (npm pack it)
//	npm/dsh-acp-<os>-<cpu>/       one package per platform, holding its binary
//	registry/<RegistryID>/        agent.json and icon.svg for the ACP registry
//
// The same Options, with a reproducible Builder (as GoBuilder is), give
// the same bytes. It stops at the first target that does not build.
func Release(ctx context.Context, opts Options) (Result, error) {
	if err := opts.check(); err != nil {
		return Result{}, err
	}
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL(opts.Project, opts.Version)
	}
	sums := map[string]string{}
	for _, t := range opts.Targets {
		sum, err := releaseTarget(ctx, opts, t)
		if err != nil {
			return Result{}, err
		}
		sums[t.Archive(opts.Version)] = sum
	}
	if err := writeChecksums(opts.Out, sums); err != nil {
		return Result{}, err
	}
	if err := writeLauncherPackage(opts.Out, opts.Targets, opts.Project, opts.Version); err != nil {
		return Result{}, err
	}
	m := manifest(opts.Project, opts.Version, opts.BaseURL, opts.Targets, sums)
	if err := writeRegistryEntry(opts.Out, m); err != nil {
		return Result{}, err
	}
	return Result{Archives: sums, Manifest: m}, nil
}

// releaseTarget builds t into its npm package, writes that package's
// package.json and t's archive, and returns the archive's SHA-256.
func releaseTarget(ctx context.Context, opts Options, t Target) (string, error) {
	bin := NPMBinary(opts.Out, t)
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	if err := opts.Builder.Build(ctx, t, bin); err != nil {
		return "", err
	}
	// The binary as built, whatever the umask: npm packs the mode.
	if err := os.Chmod(bin, 0o755); err != nil {
		return "", err
	}
	if err := writePlatformPackage(opts.Out, t, opts.Project, opts.Version); err != nil {
		return "", err
	}
	archive := filepath.Join(opts.Out, t.Archive(opts.Version))
	members := []member{
		{Name: t.Executable(), Source: bin, Mode: 0o755},
		{Name: "LICENSE", Source: opts.Project.LicenseFile, Mode: 0o644},
		{Name: "README.md", Source: opts.Project.Readme, Mode: 0o644},
	}
	if err := writeArchive(archive, members, opts.ModTime, t.Windows()); err != nil {
		return "", fmt.Errorf("%s: %w", archive, err)
	}
	return fileSHA256(archive)
}

func (opts Options) check() error {
	var errs []error
	if !versionPattern.MatchString(opts.Version) {
		errs = append(errs, fmt.Errorf("version %q: want x.y.z (digits only, as the ACP registry requires)", opts.Version))
	}
	if !commitPattern.MatchString(opts.Commit) {
		errs = append(errs, fmt.Errorf("commit %q: want 7 to 40 lowercase hex digits", opts.Commit))
	}
	if len(opts.Targets) == 0 {
		errs = append(errs, errors.New("no targets"))
	}
	if opts.Builder == nil {
		errs = append(errs, errors.New("no builder"))
	}
	if opts.ModTime.IsZero() {
		errs = append(errs, errors.New("no modification time for the archived files"))
	}
	if entries, err := os.ReadDir(opts.Out); err == nil && len(entries) > 0 {
		errs = append(errs, fmt.Errorf("%s is not empty: remove it first", opts.Out))
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
