package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"

	"github.com/dsh-acp/dsh-acp/diffcard"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// WriteArgs are the arguments of write.
type WriteArgs struct {
	FilePath string `json:"file_path" jsonschema:"the file to write, absolute or relative to the working directory"`
	Content  string `json:"content" jsonschema:"the whole new content of the file, exactly as it should be on disk"`
}

// The operations a WriteResult reports.
const (
	OperationCreate = "create" // the file did not exist
	OperationUpdate = "update" // the file existed and was replaced
)

// WriteResult is write's value. It records the change as its applied
// hunks rather than the whole file.
type WriteResult struct {
	// Path is the file as messages name it.
	Path string `json:"path"`
	// Operation is OperationCreate or OperationUpdate.
	Operation string `json:"operation"`
	// Lines is the number of lines written.
	Lines int `json:"lines"`
	// Unchanged says the file already held exactly this content; it was
	// left untouched.
	Unchanged bool `json:"unchanged,omitempty"`
	// Diffs are the applied hunks of an update, each carrying the
	// file_path the model wrote: whole lines, line breaks exactly as the
	// old and new content have them (so a write that changes a file's
	// line endings changes every line). They are empty for a create, for
	// an unchanged file, and when the previous file was not text (binary,
	// not UTF-8, or over Options.MaxFileBytes).
	Diffs []Hunk `json:"diffs"`
	// Checks is what Options.AfterWrite reported about the new content
	// (the errors it introduced, say), or "".
	Checks string `json:"checks,omitempty"`
}

func (t *toolset) writeTool() (*registry.Tool, error) {
	return registry.Define(registry.Spec[WriteArgs, WriteResult]{
		Name: "write",
		Description: "Write a file: create it, or replace all of its content. Missing parent directories are created " +
			"and an existing file keeps its permissions. The content is written exactly as given, line endings " +
			"and final newline included. To change part of an existing file, prefer edit.",
		Handler:          t.write,
		Render:           renderWrite,
		PresentationMeta: writeMeta,
		Timeout:          t.opts.Timeout,
		Effect:           registry.EffectWrite,
		Paths:            func(a WriteArgs) []string { return []string{a.FilePath} },
		PresentCall:      presentWriteCall,
		PresentApproval:  t.presentWriteApproval,
		PresentResult:    presentWriteResult,
	})
}

// write is the body of write.
func (t *toolset) write(ctx context.Context, _ *registry.Call, args WriteArgs) (WriteResult, error) {
	abs, name, prev, err := t.writeTarget(ctx, args)
	if err != nil {
		return WriteResult{}, err
	}
	res := WriteResult{Path: name, Operation: OperationCreate, Lines: countLines(args.Content), Diffs: []Hunk{}}
	if prev.exists {
		res.Operation = OperationUpdate
		res.Unchanged = prev.content != nil && *prev.content == args.Content
		if text, ok := prev.text(); ok {
			res.Diffs = hunksOf(diffcard.Hunks(args.FilePath, text, args.Content))
		}
	}
	if !res.Unchanged {
		if err := t.ws.Files().WriteFile(ctx, abs, []byte(args.Content)); err != nil {
			return WriteResult{}, fsError(err, "write", name, "")
		}
		res.Checks = t.afterWrite(ctx, abs, args.Content)
	}
	return res, nil
}

// previous is what a write replaces.
type previous struct {
	// exists says there is a file to replace.
	exists bool
	// content is what it holds when that is at most Options.MaxFileBytes,
	// and nil otherwise (or when it does not exist).
	content *string
}

// text returns the content when it is text the cards can show.
func (p previous) text() (string, bool) {
	if p.content == nil || !isText([]byte(*p.content)) {
		return "", false
	}
	return *p.content, true
}

// writeTarget resolves the file a write replaces and reads what it holds
// now, through the workspace's FileSystem (an editor's buffer, unsaved
// edits included, when the session reads through the editor). A file the
// FileSystem's Stat does not find does not exist: the write creates it.
// Paths write cannot replace are refused here.
func (t *toolset) writeTarget(ctx context.Context, args WriteArgs) (abs, name string, prev previous, err error) {
	if args.FilePath == "" {
		return "", "", previous{}, argsError("file_path must not be empty")
	}
	abs, name, err = t.target(args.FilePath)
	if err != nil {
		return "", "", previous{}, err
	}
	files := t.ws.Files()
	info, err := files.Stat(ctx, abs)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return abs, name, previous{}, nil // the FileSystem makes the missing directories
	case err != nil:
		return "", "", previous{}, fsError(err, "write", name, "")
	case info.IsDir():
		return "", "", previous{}, toolError(CodeIsDirectory, "%s is a directory: write needs the path of a file", name)
	case !info.Mode().IsRegular():
		return "", "", previous{}, notRegular(name, info.Mode())
	case isReadOnly(info):
		return "", "", previous{}, readOnlyError(name, info, "write")
	case info.Size() > t.opts.MaxFileBytes:
		return abs, name, previous{exists: true}, nil
	}
	data, err := files.ReadFile(ctx, abs)
	switch {
	case err != nil:
		return "", "", previous{}, fsError(err, "read", name, "")
	case int64(len(data)) > t.opts.MaxFileBytes:
		return abs, name, previous{exists: true}, nil
	}
	content := string(data)
	return abs, name, previous{exists: true, content: &content}, nil
}

// isReadOnly reports a file no one may write to. An atomic write renames
// a new file over the old one, which the old file's mode does not stop, so
// the tools check it themselves.
func isReadOnly(info iofs.FileInfo) bool { return info.Mode().Perm()&0o222 == 0 }

// readOnlyError is the error for a write or edit of a read-only file.
func readOnlyError(name string, info iofs.FileInfo, tool string) error {
	return toolError(CodeReadOnly, "%s is read-only (mode %04o): %s will not replace it; ask the user to make it writable, or use another path", name, info.Mode().Perm(), tool)
}

// renderWrite is what the model reads.
func renderWrite(_ WriteArgs, r WriteResult) ([]presentation.ContentBlock, error) {
	var s string
	switch {
	case r.Operation == OperationCreate:
		s = fmt.Sprintf("Created %s (%s).", r.Path, plural(r.Lines, "line"))
	case r.Unchanged:
		s = fmt.Sprintf("%s already had this content (%s); nothing changed.", r.Path, plural(r.Lines, "line"))
	default:
		s = fmt.Sprintf("Wrote %s to %s.", plural(r.Lines, "line"), r.Path)
	}
	return []presentation.ContentBlock{presentation.Text(withChecks(s, r.Checks))}, nil
}

// writeMeta is {diffs}: the applied hunks of an update, none for a create,
// an unchanged file or a previous file that was not text.
func writeMeta(_ WriteArgs, r WriteResult) (any, error) {
	return diffMeta(r.Diffs, r.Checks), nil
}

// presentWriteCall is write's pending card: the whole content as new text.
func presentWriteCall(args WriteArgs) presentation.CallView {
	return presentation.DiffCallView{
		Title:     "Write " + args.FilePath,
		Diffs:     []presentation.FileDiff{presentation.NewFileDiff(args.FilePath, args.Content)},
		Locations: []presentation.FileLocation{{Path: args.FilePath}},
	}
}

// presentWriteApproval is the card a write's approval shows when it
// replaces a text file: the hunks it would apply to the file as it is now
// (read as the write reads it), with their context and located at the
// first changed line; an identical write shows no hunks. Otherwise (a
// create, a file that is not text, a write that would fail) it is nil: the
// approval shows the pending card, the whole content as new text. A
// file outside the workspace is never read for it (previewable).
func (t *toolset) presentWriteApproval(ctx context.Context, args WriteArgs) presentation.CallView {
	if !t.previewable(args.FilePath) {
		return nil
	}
	_, _, prev, err := t.writeTarget(ctx, args)
	if err != nil {
		return nil
	}
	text, ok := prev.text()
	if !ok {
		return nil
	}
	return changeCard("Write "+args.FilePath, args.FilePath, diffcard.Hunks(args.FilePath, text, args.Content))
}

// presentWriteResult is write's completed card: nil on an error; otherwise
// the hunks from meta, located at the first changed line, or the whole
// content as new text when meta holds none (a create, an identical
// overwrite, a previous file that was not text, malformed meta).
func presentWriteResult(args WriteArgs, result presentation.ToolResult) presentation.ResultView {
	if result.IsError {
		return nil
	}
	diffs, ok := diffcard.FromMeta(result.Meta)
	if !ok {
		diffs = []presentation.FileDiff{presentation.NewFileDiff(args.FilePath, args.Content)}
	}
	return presentation.DiffResultView{
		Title: "Write " + args.FilePath, Diffs: diffs, Notes: checksFromMeta(result.Meta),
		Locations: firstChange(args.FilePath, diffs),
	}
}

// plural returns "1 line", "2 lines".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// afterWrite runs Options.AfterWrite, when set, on a file just written.
func (t *toolset) afterWrite(ctx context.Context, abs, text string) string {
	if t.opts.AfterWrite == nil {
		return ""
	}
	return t.opts.AfterWrite(ctx, abs, text)
}

// withChecks appends what AfterWrite reported to s, after a blank line.
func withChecks(s, checks string) string {
	if checks == "" {
		return s
	}
	return s + "\n\n" + checks
}
