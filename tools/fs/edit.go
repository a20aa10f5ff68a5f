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

// EditArgs are the arguments of edit.
type EditArgs struct {
	FilePath   string `json:"file_path" jsonschema:"the file to edit, absolute or relative to the working directory"`
	OldString  string `json:"old_string" jsonschema:"the exact text to replace, as the file holds it (without the line-number prefixes read shows); empty only to create a new file or fill an empty one"`
	NewString  string `json:"new_string" jsonschema:"the text to put in its place; must differ from old_string"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string; without it old_string must occur exactly once"`
}

// EditResult is edit's value. It records the change as its applied hunks
// rather than the whole file, so a small edit in a large file stays small.
type EditResult struct {
	// Path is the file as messages name it.
	Path string `json:"path"`
	// Replacements is the number of places old_string was replaced.
	Replacements int `json:"replacements"`
	// Created says the file did not exist and the edit created it.
	Created bool `json:"created,omitempty"`
	// FinalNewlineKept says the edit as asked would have added or removed
	// the file's final line break, and it was kept as it was instead.
	FinalNewlineKept bool `json:"finalNewlineKept,omitempty"`
	// Lines is the number of lines of a file the edit created (0
	// otherwise).
	Lines int `json:"lines,omitempty"`
	// Diffs are the applied hunks, built from the replacement sites
	// (never by diffing the whole file), each carrying the file_path the
	// model wrote: whole lines, line breaks (CRLF or LF) exactly as the
	// file has them.
	Diffs []Hunk `json:"diffs"`
	// Checks is what Options.AfterWrite reported about the new content
	// (the errors it introduced, say), or "".
	Checks string `json:"checks,omitempty"`
}

func (t *toolset) editTool() (*registry.Tool, error) {
	return registry.Define(registry.Spec[EditArgs, EditResult]{
		Name: "edit",
		Description: "Replace exact text in a file. old_string must match the file exactly, whitespace and " +
			"indentation included, without the line-number prefixes read shows, and must occur exactly once " +
			"unless replace_all is true; include enough surrounding lines to make it unique. Read the file " +
			"before editing it. The file keeps its line endings (CRLF or LF) and its final newline or lack of " +
			"one. To create a file, use write (or edit with an empty old_string).",
		Handler:          t.edit,
		Render:           renderEdit,
		PresentationMeta: editMeta,
		Timeout:          t.opts.Timeout,
		Effect:           registry.EffectWrite,
		Paths:            func(a EditArgs) []string { return []string{a.FilePath} },
		PresentCall:      presentEditCall,
		PresentApproval:  t.presentEditApproval,
		PresentResult:    presentEditResult,
	})
}

// edit is the body of edit.
func (t *toolset) edit(ctx context.Context, _ *registry.Call, args EditArgs) (EditResult, error) {
	c, err := t.planFor(ctx, args)
	if err != nil {
		return EditResult{}, err
	}
	r, err := c.plan.result(args.FilePath, c.name)
	if err != nil {
		return EditResult{}, err
	}
	onDisk := c.plan.onDisk()
	if err := t.ws.Files().WriteFile(ctx, c.abs, onDisk); err != nil {
		return EditResult{}, fsError(err, "write", c.name, "")
	}
	if c.creates {
		r.Created, r.Lines = true, countLines(args.NewString)
	}
	r.Checks = t.afterWrite(ctx, c.abs, string(onDisk))
	return r, nil
}

// editChange is an edit worked out against the file as it is now, before
// anything is written.
type editChange struct {
	abs, name string
	plan      editPlan
	// creates says the file does not exist: the edit (with an empty
	// old_string) creates it.
	creates bool
}

// planFor reads the file an edit changes, through the workspace's
// FileSystem, and works the edit out on it. Errors are the coded errors
// the model reads.
func (t *toolset) planFor(ctx context.Context, args EditArgs) (editChange, error) {
	if args.FilePath == "" {
		return editChange{}, argsError("file_path must not be empty")
	}
	if args.OldString == args.NewString {
		return editChange{}, toolError(CodeNoChange, "old_string and new_string are the same, so there is nothing to change: put the replacement text in new_string")
	}
	abs, name, err := t.target(args.FilePath)
	if err != nil {
		return editChange{}, err
	}
	data, found, err := t.editSource(ctx, abs, name)
	if err != nil {
		return editChange{}, err
	}
	c := editChange{abs: abs, name: name}
	switch {
	case !found && args.OldString == "":
		c.plan, c.creates = fillPlan(args.NewString), true
		return c, nil
	case !found:
		return editChange{}, fsError(iofs.ErrNotExist, "edit", name, editMissing)
	case !isText(data):
		return editChange{}, toolError(CodeBinary, "%s is not UTF-8 text (it is binary or in another encoding): edit refuses it, since replacing text could corrupt it; if it must change, use a command (bash)", name)
	}
	c.plan, err = planEdit(string(data), args.OldString, args.NewString, args.ReplaceAll, name)
	if err != nil {
		return editChange{}, err
	}
	return c, nil
}

// editMissing is the advice for an edit of a file that does not exist.
const editMissing = "to create it, use write (or edit with an empty old_string)"

// editSource returns the content edit changes, as the FileSystem reads it
// (an editor's buffer, unsaved edits included, when the session reads
// through the editor). found is false when the FileSystem's Stat does not
// find the file, which an edit with an empty old_string creates (and any
// other edit refuses). Files edit cannot change are refused here.
func (t *toolset) editSource(ctx context.Context, abs, name string) (data []byte, found bool, err error) {
	files := t.ws.Files()
	info, err := files.Stat(ctx, abs)
	switch {
	case errors.Is(err, iofs.ErrNotExist) && !underFile(err):
		return nil, false, nil
	case err != nil:
		return nil, false, fsError(err, "edit", name, editMissing)
	case info.IsDir():
		return nil, false, toolError(CodeIsDirectory, "%s is a directory, not a file: edit a file inside it", name)
	case !info.Mode().IsRegular():
		return nil, false, notRegular(name, info.Mode())
	case isReadOnly(info):
		return nil, false, readOnlyError(name, info, "edit")
	case info.Size() > t.opts.MaxFileBytes:
		return nil, false, tooLarge(name, info.Size(), t.opts.MaxFileBytes, "edit")
	}
	data, err = files.ReadFile(ctx, abs)
	if err != nil {
		return nil, false, fsError(err, "read", name, editMissing)
	}
	return data, true, nil
}

// renderEdit is what the model reads.
func renderEdit(_ EditArgs, r EditResult) ([]presentation.ContentBlock, error) {
	var s string
	if r.Created {
		s = fmt.Sprintf("Created %s (%s).", r.Path, plural(r.Lines, "line"))
	} else {
		s = fmt.Sprintf("Edited %s: replaced %s.", r.Path, plural(r.Replacements, "occurrence"))
	}
	if r.FinalNewlineKept {
		s += " The file's final line break was kept as it was: edit never adds or removes it (use write for that)."
	}
	return []presentation.ContentBlock{presentation.Text(withChecks(s, r.Checks))}, nil
}

// editMeta is {diffs}: the applied hunks of the value.
func editMeta(_ EditArgs, r EditResult) (any, error) {
	return diffMeta(r.Diffs, r.Checks), nil
}

// presentEditCall is edit's pending card: the replacement as asked, old
// text nil when old_string is empty.
func presentEditCall(args EditArgs) presentation.CallView {
	return presentation.DiffCallView{
		Title:     "Edit " + args.FilePath,
		Diffs:     []presentation.FileDiff{presentation.ReplaceDiff(args.FilePath, args.OldString, args.NewString)},
		Locations: []presentation.FileLocation{{Path: args.FilePath}},
	}
}

// presentEditApproval is the card an edit's approval shows: the hunks the
// edit would apply to the file as it is now (read as the edit reads it),
// with their context and located at the first changed line. An edit that
// would fail gives nil: the approval shows the pending card, and the call,
// if allowed, reports the failure. A file outside the workspace is never
// read for it (previewable).
func (t *toolset) presentEditApproval(ctx context.Context, args EditArgs) presentation.CallView {
	if !t.previewable(args.FilePath) {
		return nil
	}
	c, err := t.planFor(ctx, args)
	if err != nil {
		return nil
	}
	diffs, err := c.plan.hunks(args.FilePath)
	if err != nil {
		return nil
	}
	return changeCard("Edit "+args.FilePath, args.FilePath, diffs)
}

// presentEditResult is edit's completed card: the hunks from meta,
// located at the first changed line, or nil (the pending card stays) on
// an error, or when meta is missing or malformed.
func presentEditResult(args EditArgs, result presentation.ToolResult) presentation.ResultView {
	if result.IsError {
		return nil
	}
	diffs, ok := diffcard.FromMeta(result.Meta)
	if !ok {
		return nil
	}
	return presentation.DiffResultView{
		Title: "Edit " + args.FilePath, Diffs: diffs, Notes: checksFromMeta(result.Meta),
		Locations: firstChange(args.FilePath, diffs),
	}
}
