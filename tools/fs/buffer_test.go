package fs_test

import (
	"context"
	"errors"
	iofs "io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/tools/fs"
)

// editorBuffers is an editor's file access as the file tools see it: reads
// see an open buffer before the disk, writes go into buffers, and stat
// only knows the disk (an editor offers no stat), as with the bridge's
// editor files.
type editorBuffers struct {
	localFS
	mu      sync.Mutex
	buffers map[string]string
	writes  []string
}

func (b *editorBuffers) ReadFile(ctx context.Context, path string) ([]byte, error) {
	b.mu.Lock()
	text, ok := b.buffers[path]
	b.mu.Unlock()
	if ok {
		return []byte(text), nil
	}
	return b.localFS.ReadFile(ctx, path)
}

func (b *editorBuffers) WriteFile(_ context.Context, path string, data []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buffers[path] = string(data)
	b.writes = append(b.writes, path)
	return nil
}

func (b *editorBuffers) Stat(ctx context.Context, path string) (iofs.FileInfo, error) {
	return b.localFS.Stat(ctx, path)
}

// TestUnsavedBufferIsAFile: a file only an editor buffer holds (not on
// disk yet) is an existing file to write and edit: write shows its real old
// text, and edit with an empty old_string refuses to clobber it (issue 7
// item 5: both took it for a new file).
func TestUnsavedBufferIsAFile(t *testing.T) {
	ed := &editorBuffers{buffers: map[string]string{}}
	e := newEnvFS(t, fs.Options{}, ed)
	draft := e.path("draft.txt")
	empty := e.path("empty.txt")
	reset := func() {
		ed.mu.Lock()
		ed.buffers = map[string]string{draft: "unsaved line\nsecond\n", empty: ""}
		ed.writes = nil
		ed.mu.Unlock()
	}
	buffer := func(path string) string {
		ed.mu.Lock()
		defer ed.mu.Unlock()
		return ed.buffers[path]
	}

	reset()
	res := e.ok("write", map[string]any{"file_path": "draft.txt", "content": "replaced\nsecond\n"})
	if got := text(res); got != "Wrote 2 lines to draft.txt." {
		t.Errorf("write said %q, want an update", got)
	}
	view := e.presentResult("write", map[string]any{"file_path": "draft.txt", "content": "replaced\nsecond\n"}, res)
	diff, ok := view.(presentation.DiffResultView)
	if !ok || len(diff.Diffs) != 1 || diff.Diffs[0].OldText == nil || *diff.Diffs[0].OldText != "unsaved line\nsecond" || diff.Diffs[0].NewText != "replaced\nsecond" {
		t.Errorf("the write's card %#v, want a hunk from the buffer's old text", view)
	}

	reset()
	res = e.ok("write", map[string]any{"file_path": "draft.txt", "content": "unsaved line\nsecond\n"})
	if got := text(res); !strings.Contains(got, "already had this content") || len(ed.writes) != 0 {
		t.Errorf("an identical write said %q and wrote %v", got, ed.writes)
	}

	reset()
	res = e.fail("edit", map[string]any{"file_path": "draft.txt", "old_string": "", "new_string": "clobbered"}, fs.CodeEmptyOldString)
	if !strings.Contains(text(res), "has content") || buffer(draft) != "unsaved line\nsecond\n" {
		t.Errorf("edit with an empty old_string: %q, buffer %q", text(res), buffer(draft))
	}

	reset()
	e.ok("edit", map[string]any{"file_path": "draft.txt", "old_string": "unsaved", "new_string": "edited"})
	if got := buffer(draft); got != "edited line\nsecond\n" {
		t.Errorf("edit left %q", got)
	}

	reset()
	res = e.ok("edit", map[string]any{"file_path": "empty.txt", "old_string": "", "new_string": "filled\n"})
	if strings.HasPrefix(text(res), "Created") || buffer(empty) != "filled\n" {
		t.Errorf("filling an empty buffer: %q, buffer %q", text(res), buffer(empty))
	}

	// A file neither the editor nor the disk has is still created.
	reset()
	res = e.ok("write", map[string]any{"file_path": "brand-new.txt", "content": "hi\n"})
	if got := text(res); got != "Created brand-new.txt (1 line)." {
		t.Errorf("a new file: %q", got)
	}
	res = e.ok("edit", map[string]any{"file_path": "other-new.txt", "old_string": "", "new_string": "hi\n"})
	if got := text(res); got != "Created other-new.txt (1 line)." {
		t.Errorf("a new file by edit: %q", got)
	}
}

// TestUnsavedBufferReadFails: when asking the editor fails for a reason
// other than a missing file, write and edit report it instead of creating
// over whatever the editor holds.
func TestUnsavedBufferReadFails(t *testing.T) {
	e := newEnvFS(t, fs.Options{}, brokenEditor{})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"write", map[string]any{"file_path": "draft.txt", "content": "x\n"}},
		{"edit", map[string]any{"file_path": "draft.txt", "old_string": "", "new_string": "x\n"}},
	} {
		res := e.fail(c.tool, c.args, fs.CodeIO)
		if !strings.Contains(text(res), "buffer exploded") {
			t.Errorf("%s: %q", c.tool, text(res))
		}
	}
}

// brokenEditor fails every read with an editor error.
type brokenEditor struct{ localFS }

func (brokenEditor) ReadFile(context.Context, string) ([]byte, error) {
	return nil, errors.New("buffer exploded")
}

// TestReadUnsavedBuffer: read shows a file only an editor buffer holds,
// rather than saying it does not exist.
func TestReadUnsavedBuffer(t *testing.T) {
	ed := &editorBuffers{buffers: map[string]string{}}
	e := newEnvFS(t, fs.Options{}, ed)
	ed.buffers[e.path("draft.txt")] = "unsaved line\n"
	res := e.ok("read", map[string]any{"file_path": "draft.txt"})
	if !strings.Contains(text(res), "unsaved line") {
		t.Errorf("read showed %q", text(res))
	}
	e.fail("read", map[string]any{"file_path": "missing.txt"}, fs.CodeNotFound)
}
