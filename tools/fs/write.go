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
	// file_path the model wrote. They are empty for a create, for an
	// unchanged file, and when the previous file was not text (binary, not
	// UTF-8, or over Options.MaxFileBytes). Text that uses CRLF throughout
	// is compared with LF, so the hunks show changes of content only.
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
		PresentResult:    presentWriteResult,
	})
}

// write is the body of write.
func (t *toolset) write(ctx context.Context, _ *registry.Call, args WriteArgs) (WriteResult, error) {
	if args.FilePath == "" {
		return WriteResult{}, argsError("file_path must not be empty")
	}
	abs, name, err := t.target(args.FilePath)
	if err != nil {
		return WriteResult{}, err
	}
	files := t.ws.Files()
	res := WriteResult{Path: name, Operation: OperationCreate, Lines: countLines(args.Content), Diffs: []Hunk{}}
	info, err := files.Stat(ctx, abs)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		// Not on disk: a create (the FileSystem makes the missing
		// directories), unless an editor holds it as an unsaved buffer.
		prev, ok, err := unsavedBuffer(ctx, files, abs)
		if err != nil {
			return WriteResult{}, fsError(err, "read", name, "")
		}
		if ok {
			res.Operation = OperationUpdate
			t.compare(&res, args, prev)
		}
	case err != nil:
		return WriteResult{}, fsError(err, "write", name, "")
	case info.IsDir():
		return WriteResult{}, toolError(CodeIsDirectory, "%s is a directory: write needs the path of a file", name)
	case !info.Mode().IsRegular():
		return WriteResult{}, notRegular(name, info.Mode())
	case isReadOnly(info):
		return WriteResult{}, readOnlyError(name, info, "write")
	default:
		res.Operation = OperationUpdate
		if info.Size() <= t.opts.MaxFileBytes {
			prev, err := files.ReadFile(ctx, abs)
			if err != nil {
				return WriteResult{}, fsError(err, "read", name, "")
			}
			t.compare(&res, args, prev)
		}
	}
	if !res.Unchanged {
		if err := files.WriteFile(ctx, abs, []byte(args.Content)); err != nil {
			return WriteResult{}, fsError(err, "write", name, "")
		}
		res.Checks = t.afterWrite(ctx, abs, args.Content)
	}
	return res, nil
}

// compare records in res how the new content differs from prev, the
// file's content before the write: unchanged, or the hunks of a text file.
// A previous content over Options.MaxFileBytes is not compared.
func (t *toolset) compare(res *WriteResult, args WriteArgs, prev []byte) {
	if int64(len(prev)) > t.opts.MaxFileBytes {
		return
	}
	res.Unchanged = string(prev) == args.Content
	if isText(prev) && !res.Unchanged {
		res.Diffs = hunksOf(diffcard.Hunks(args.FilePath, cardText(string(prev)), cardText(args.Content)))
	}
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

// presentWriteResult is write's completed card: nil on an error; otherwise
// the hunks from meta, or the whole content as new text when meta holds
// none (a create, an identical overwrite, a previous file that was not
// text, malformed meta).
func presentWriteResult(args WriteArgs, result presentation.ToolResult) presentation.ResultView {
	if result.IsError {
		return nil
	}
	diffs, ok := diffcard.FromMeta(result.Meta)
	if !ok {
		diffs = []presentation.FileDiff{presentation.NewFileDiff(args.FilePath, args.Content)}
	}
	return presentation.DiffResultView{Title: "Write " + args.FilePath, Diffs: diffs, Notes: checksFromMeta(result.Meta)}
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
