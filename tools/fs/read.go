package fs

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// ReadArgs are the arguments of read.
type ReadArgs struct {
	FilePath string `json:"file_path" jsonschema:"the file to read, absolute or relative to the working directory"`
	Offset   int    `json:"offset,omitempty" jsonschema:"the 1-based line to start at; default 1"`
	Limit    int    `json:"limit,omitempty" jsonschema:"how many lines to show"`
}

// ReadResult is read's value: a window of the file's lines.
type ReadResult struct {
	// Path is the file as messages name it (relative to the working
	// directory when below it).
	Path string `json:"path"`
	// Offset is the 1-based number of the first line in Lines.
	Offset int `json:"offset"`
	// Lines are the lines shown, without their line breaks (a CRLF line
	// loses its "\r" too). A line over Options.MaxLineBytes is cut and
	// ends in a marker saying how long it is.
	Lines []ReadLine `json:"lines"`
	// TotalLines is the number of lines in the file.
	TotalLines int `json:"totalLines"`
	// NextOffset is the line to continue from, or 0 when Lines reach the
	// end of the file.
	NextOffset int `json:"nextOffset,omitempty"`
	// Lang is a short language hint from the file name ("go", "py"), or "".
	Lang string `json:"lang,omitempty"`
}

// ReadLine is one line read shows.
type ReadLine struct {
	Number int    `json:"number"`
	Text   string `json:"text"`
}

func (t *toolset) readTool() (*registry.Tool, error) {
	return registry.Define(registry.Spec[ReadArgs, ReadResult]{
		Name: "read",
		Description: fmt.Sprintf("Read a text file. Shows up to %d lines from offset (1-based), "+
			"each prefixed with its line number and a tab, like cat -n; the prefix is not part of the file. "+
			"Page through long files with offset and limit. Lines over %d bytes are cut. "+
			"Binary files and directories cannot be read.", t.opts.DefaultLimit, t.opts.MaxLineBytes),
		Handler:          t.read,
		Render:           renderRead,
		PresentationMeta: readMeta,
		Timeout:          t.opts.Timeout,
		Effect:           registry.EffectRead,
		Paths:            func(a ReadArgs) []string { return []string{a.FilePath} },
		ConcurrencySafe:  func(ReadArgs) bool { return true },
		PresentCall:      presentReadCall,
		PresentResult:    presentReadResult,
		RefineSchema: func(s *jsonschema.Schema) {
			if limit := s.Properties["limit"]; limit != nil {
				limit.Description = fmt.Sprintf("how many lines to show; default %d", t.opts.DefaultLimit)
			}
		},
	})
}

// read is the body of read.
func (t *toolset) read(ctx context.Context, _ *registry.Call, args ReadArgs) (ReadResult, error) {
	switch {
	case args.FilePath == "":
		return ReadResult{}, argsError("file_path must not be empty")
	case args.Offset < 0:
		return ReadResult{}, argsError("offset must be 1 or more")
	case args.Limit < 0:
		return ReadResult{}, argsError("limit must be 1 or more")
	}
	abs, name, err := t.target(args.FilePath)
	if err != nil {
		return ReadResult{}, err
	}
	data, err := t.readSource(ctx, abs, name)
	if err != nil {
		return ReadResult{}, err
	}
	if int64(len(data)) > t.opts.MaxFileBytes {
		return ReadResult{}, tooLarge(name, int64(len(data)), t.opts.MaxFileBytes, "read")
	}
	if !isText(data) {
		return ReadResult{}, toolError(CodeBinary, "%s is a binary file; read cannot show it", name)
	}
	text := string(data)
	if t.opts.AfterRead != nil {
		t.opts.AfterRead(ctx, abs, text)
	}
	total := countLines(text)
	offset := max(args.Offset, 1)
	if total > 0 && offset > total {
		return ReadResult{}, toolError(CodeOffsetPastEnd, "offset %d is past the end of %s, which has %d lines: use an offset from 1 to %d", offset, name, total, total)
	}
	limit := args.Limit
	if limit == 0 {
		limit = t.opts.DefaultLimit
	}
	lines, next := window(text, offset, limit, t.opts.MaxLineBytes, t.opts.MaxOutputBytes)
	return ReadResult{Path: name, Offset: offset, Lines: lines, TotalLines: total, NextOffset: next, Lang: langOf(abs)}, nil
}

// readSource returns the content read shows: the file's, as the
// FileSystem reads it (an editor's buffer, unsaved edits included, when
// the session reads through the editor). A file the FileSystem's Stat does
// not find does not exist. Files read cannot show are refused here, before
// they are opened.
func (t *toolset) readSource(ctx context.Context, abs, name string) ([]byte, error) {
	const notFound = "check the path, or find the file with glob"
	files := t.ws.Files()
	info, err := files.Stat(ctx, abs)
	switch {
	case err != nil:
		return nil, fsError(err, "read", name, notFound)
	case info.IsDir():
		return nil, toolError(CodeIsDirectory, "%s is a directory, not a file: list it with glob, or read a file inside it", name)
	case !info.Mode().IsRegular():
		return nil, notRegular(name, info.Mode())
	case info.Size() > t.opts.MaxFileBytes:
		return nil, tooLarge(name, info.Size(), t.opts.MaxFileBytes, "read")
	}
	data, err := files.ReadFile(ctx, abs)
	if err != nil {
		return nil, fsError(err, "read", name, notFound)
	}
	return data, nil
}

// tooLarge is the error for a file over the size cap.
func tooLarge(name string, size, limit int64, tool string) error {
	advice := "search it with grep, or show parts of it with a command (bash: sed -n, head, tail)"
	if tool != "read" {
		advice = "change it with a command (bash) instead, or ask the user"
	}
	return toolError(CodeTooLarge, "%s is %s, over the %s %s accepts: %s", name, byteSize(size), byteSize(limit), tool, advice)
}

// byteSize formats n bytes for people.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

// presentReadCall is read's pending card: titled by readTitle, of kind
// read, located at the file and the window's first line (line 1 when no
// offset is given).
func presentReadCall(args ReadArgs) presentation.CallView {
	return presentation.GenericCallView{
		Title:     readTitle(args),
		Kind:      presentation.KindRead,
		Locations: []presentation.FileLocation{{Path: args.FilePath, Line: max(args.Offset, 1)}},
	}
}

// readTitle is "Read <file_path><window>": " (<o> - <o+limit-1>)" with a
// limit, " (from line <offset>)" with only an offset, nothing otherwise.
func readTitle(args ReadArgs) string {
	switch {
	case args.Limit > 0:
		o := max(args.Offset, 1)
		return fmt.Sprintf("Read %s (%d - %d)", args.FilePath, o, o+args.Limit-1)
	case args.Offset > 0:
		return fmt.Sprintf("Read %s (from line %d)", args.FilePath, args.Offset)
	default:
		return "Read " + args.FilePath
	}
}
