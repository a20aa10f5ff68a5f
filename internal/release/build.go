package release

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Builder builds the dsh-acp binary for a target into the file out.
type Builder interface {
	Build(ctx context.Context, t Target, out string) error
}

// GoBuilder builds ./cmd/dsh-acp of the module in Dir with the go command,
// reproducibly: CGO_ENABLED=0, -trimpath, no VCS stamp, no build id,
// stripped (-s -w), with Version and Commit injected into main's
// releaseVersion and releaseCommit. The same source, toolchain, Version
// and Commit give the same bytes on any machine.
type GoBuilder struct {
	// Dir is the module root (where go.mod is).
	Dir string
	// Version and Commit are what `dsh-acp --version` prints.
	Version, Commit string
	// Go is the go command; "go" when empty.
	Go string
}

// Build runs go build for t, writing out.
func (b GoBuilder) Build(ctx context.Context, t Target, out string) error {
	goCmd := b.Go
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.CommandContext(ctx, goCmd, b.args(out)...)
	cmd.Dir = b.Dir
	// GOFLAGS from the caller's environment could add flags that change
	// the bytes (-race, -cover, -buildvcs): a release build takes none.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH, "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build for %s: %w\n%s", t.Platform, err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// args is the go build command line (without "go").
func (b GoBuilder) args(out string) []string {
	ldflags := fmt.Sprintf("-s -w -buildid= -X main.releaseVersion=%s -X main.releaseCommit=%s", b.Version, b.Commit)
	return []string{"build", "-trimpath", "-buildvcs=false", "-ldflags=" + ldflags, "-o", out, "./cmd/dsh-acp"}
}
