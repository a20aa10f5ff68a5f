// Command release writes dsh-acp's release directory (see package
// internal/release): `make release VERSION=x.y.z` runs
//
//	go run ./internal/cmd/mkrelease -version x.y.z -out dist
//
// The commit and the archived files' time default to those of HEAD (git),
// so two runs on one commit give the same bytes. -targets builds only some
// platforms (a partial release, which the registry would refuse: it says
// so and exits 0).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/release"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "release: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	version := fs.String("version", "", "the release `x.y.z` (required)")
	out := fs.String("out", "dist", "the release `directory` (must not exist, or be empty)")
	dir := fs.String("dir", ".", "the module root")
	targets := fs.String("targets", "all", "comma-separated `platforms` to build (darwin-aarch64, …, windows-x86_64), or all")
	baseURL := fs.String("base-url", "", "where the archives will be downloaded from (default: the version's GitHub release)")
	commit := fs.String("commit", "", "the source revision (default: git rev-parse HEAD)")
	mtime := fs.Int64("mtime", -1, "the archived files' time, in seconds since 1970 (default: $SOURCE_DATE_EPOCH, else HEAD's commit time)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	list, err := release.ParseTargets(*targets)
	if err != nil {
		return err
	}
	if *commit == "" {
		if *commit, err = git(ctx, *dir, "rev-parse", "HEAD"); err != nil {
			return err
		}
	}
	modTime, err := archiveTime(ctx, *dir, *mtime)
	if err != nil {
		return err
	}
	res, err := release.Release(ctx, release.Options{
		Version: *version, Commit: *commit, ModTime: modTime, Out: *out, Targets: list, BaseURL: *baseURL,
		Project: release.DshACP(*dir),
		Builder: release.GoBuilder{Dir: *dir, Version: *version, Commit: *commit},
	})
	if err != nil {
		return err
	}
	for _, t := range list {
		name := t.Archive(*version)
		info, err := os.Stat(filepath.Join(*out, name))
		if err != nil {
			return err
		}
		fmt.Printf("%s  %5.1f MB  sha256 %s\n", name, float64(info.Size())/1e6, res.Archives[name])
	}
	problems, err := release.VerifyRelease(*out)
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintf(os.Stderr, "release: registry entry: %s\n", p)
	}
	if len(problems) > 0 && len(list) == len(release.Targets()) {
		return errors.New("the registry entry breaks the registry's rules")
	}
	fmt.Printf("wrote %s (npm packages in %s, registry entry in %s)\n", *out, filepath.Join(*out, "npm"), release.RegistryDir(*out))
	return nil
}

// archiveTime is the -mtime flag's time, else $SOURCE_DATE_EPOCH's, else
// HEAD's commit time.
func archiveTime(ctx context.Context, dir string, flagValue int64) (time.Time, error) {
	if flagValue >= 0 {
		return time.Unix(flagValue, 0), nil
	}
	s := os.Getenv("SOURCE_DATE_EPOCH")
	if s == "" {
		var err error
		if s, err = git(ctx, dir, "log", "-1", "--format=%ct"); err != nil {
			return time.Time{}, err
		}
	}
	secs, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("archive time %q: %w", s, err)
	}
	return time.Unix(secs, 0), nil
}

func git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(exit.Stderr)))
		}
		return "", fmt.Errorf("git %s (give -commit and -mtime outside a git checkout): %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
