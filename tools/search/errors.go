package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// The error codes the search tools attach to failed results.
const (
	CodeNotFound       = "FS_NOT_FOUND"
	CodeNotDirectory   = "FS_NOT_A_DIRECTORY"
	CodeBinaryFile     = "SEARCH_BINARY_FILE"
	CodeInvalidPattern = "SEARCH_INVALID_PATTERN"
	CodeInvalidInclude = "SEARCH_INVALID_INCLUDE"
	CodeSearchFailed   = "SEARCH_FAILED"
)

// baseName is the last element of a model-written path.
func baseName(path string) string { return filepath.Base(filepath.Clean(path)) }

// statTarget resolves the path argument (the working directory when
// empty) and describes it, or returns the error the model should read.
func statTarget(ws *workspace.Workspace, path string) (string, fs.FileInfo, error) {
	path = dotIfEmpty(path)
	abs, err := ws.Abs(path)
	if err != nil {
		return "", nil, registry.ArgsError([]string{"path: " + err.Error()})
	}
	info, err := os.Stat(abs)
	switch {
	case err == nil:
		return abs, info, nil
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, &registry.Error{Code: CodeNotFound, Cause: err, Message: fmt.Sprintf(
			"path not found: %s: check the spelling, or find it with glob (e.g. pattern \"**/%s\")",
			path, baseName(path))}
	default:
		return "", nil, &registry.Error{Code: CodeSearchFailed, Cause: err, Message: fmt.Sprintf("cannot search %s: %v", path, err)}
	}
}

// invalidPattern is the error for a regular expression Go cannot compile.
func invalidPattern(pattern string, err error) error {
	return &registry.Error{Code: CodeInvalidPattern, Cause: err, Message: fmt.Sprintf(
		"invalid regular expression %q: %v. grep uses RE2 syntax: escape a literal ( ) [ ] { } . * + ? | ^ $ or \\ with a backslash; lookarounds and backreferences are not supported",
		pattern, err)}
}

// abortedError is what a call the caller cancelled returns: the same
// ABORTED failure the pipeline gives a cancelled call, rather than the
// bare context error.
func abortedError(ctx context.Context) error {
	return &registry.Error{Code: registry.CodeAborted, Message: "tool call aborted", Cause: context.Cause(ctx)}
}

// notRegularError is grep's refusal of a path that is neither a regular
// file nor a directory (a named pipe, a socket, a device); kind says what
// it is, when known.
func notRegularError(name, kind string) error {
	if kind != "" {
		kind = " (" + kind + ")"
	}
	return registry.NewError(CodeSearchFailed, fmt.Sprintf(
		"%s is not a regular file%s: grep searches regular files and directories only", name, kind))
}
