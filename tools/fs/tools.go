package fs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// The defaults Options falls back to for its zero fields.
const (
	DefaultMaxFileBytes   = 10 << 20    // the largest file read and edit accept
	DefaultMaxLineBytes   = 2000        // the longest line read shows uncut
	DefaultLimit          = 2000        // the lines read shows when the call sets no limit
	DefaultMaxOutputBytes = 256 << 10   // the line text one read returns at most
	DefaultTimeout        = time.Minute // each call's time budget
)

// Options tune the file tools. Zero fields take the Default… values.
type Options struct {
	// MaxFileBytes is the largest file read and edit accept.
	MaxFileBytes int64
	// MaxLineBytes is the longest line read shows; longer lines are cut
	// (at a character boundary) and marked.
	MaxLineBytes int
	// DefaultLimit is the number of lines read shows when the call sets
	// no limit.
	DefaultLimit int
	// MaxOutputBytes bounds the line text one read returns; a window that
	// would exceed it ends early, with a note giving the next offset.
	MaxOutputBytes int
	// Timeout is each call's time budget (the pipeline enforces it).
	Timeout time.Duration
	// AfterWrite, when set, is called after write or edit changed a file,
	// with the file's absolute path and its new content. What it returns
	// (a language server's new errors, say) is appended to the result the
	// model reads, after a blank line; "" adds nothing. It must honour ctx
	// and bound its own waiting.
	AfterWrite func(ctx context.Context, path, text string) string
	// AfterRead, when set, is called after read read a text file, with the
	// file's absolute path and its whole content (to keep a language
	// server in sync). It must return quickly.
	AfterRead func(ctx context.Context, path, text string)
}

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.DefaultLimit <= 0 {
		o.DefaultLimit = DefaultLimit
	}
	if o.MaxOutputBytes <= 0 {
		o.MaxOutputBytes = DefaultMaxOutputBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// toolset is what the three tools share: the session's workspace and the
// options in force.
type toolset struct {
	ws   *workspace.Workspace
	opts Options
}

// Tools returns the read, write and edit tools bound to ws, in that order,
// ready to register for one session. They hold no background work and need
// no closing.
func Tools(ws *workspace.Workspace, opts Options) ([]*registry.Tool, error) {
	if ws == nil {
		return nil, errors.New("fs tools: a workspace is required")
	}
	t := &toolset{ws: ws, opts: opts.withDefaults()}
	var tools []*registry.Tool
	for _, define := range []func() (*registry.Tool, error){t.readTool, t.writeTool, t.editTool} {
		tool, err := define()
		if err != nil {
			return nil, fmt.Errorf("fs tools: %w", err)
		}
		tools = append(tools, tool)
	}
	return tools, nil
}

// target resolves the model's path to the absolute path the FileSystem
// takes and the name messages show (relative to the working directory
// when below it). A path no file can have (a NUL byte in it) is refused
// with an argument error before anything touches the disk.
func (t *toolset) target(path string) (abs, name string, err error) {
	abs, err = t.ws.Abs(path)
	if err != nil {
		return "", "", argsError("file_path: " + err.Error())
	}
	return abs, t.ws.Display(path), nil
}

// previewable reports whether an approval may read path to show what a
// call will change: only inside the workspace, links followed. A file
// outside is a read the user has not approved (the approval is asking
// about it), so its card is the call's arguments alone.
func (t *toolset) previewable(path string) bool {
	return t.ws.Contains(path)
}
