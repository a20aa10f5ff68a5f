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
// editor files. It records the paths read.
type editorBuffers struct {
	localFS
	mu      sync.Mutex
	buffers map[string]string
	reads   []string
	writes  []string
}

func (b *editorBuffers) ReadFile(ctx context.Context, path string) ([]byte, error) {
	b.mu.Lock()
	b.reads = append(b.reads, path)
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

// reset gives the editor the buffers (by absolute path) and forgets what
// was read and written.
func (b *editorBuffers) reset(buffers map[string]string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buffers, b.reads, b.writes = buffers, nil, nil
}

func (b *editorBuffers) buffer(path string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buffers[path]
}

func (b *editorBuffers) readPaths() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.reads...)
}

// TestFilesOnDiskAreReadThroughTheEditor: a file the disk has is read
// through the FileSystem, so an editor's unsaved edits of it are what
// write replaces (its card shows them as the old text) and what edit
// changes.
func TestFilesOnDiskAreReadThroughTheEditor(t *testing.T) {
	ed := &editorBuffers{}
	e := newEnvFS(t, fs.Options{}, ed)
	draft := e.put("draft.txt", "saved line\nsecond\n")
	unsaved := map[string]string{draft: "unsaved line\nsecond\n"}

	ed.reset(unsaved)
	args := map[string]any{"file_path": "draft.txt", "content": "replaced\nsecond\n"}
	res := e.ok("write", args)
	if got := text(res); got != "Wrote 2 lines to draft.txt." {
		t.Errorf("write said %q, want an update", got)
	}
	view, ok := e.presentResult("write", args, res).(presentation.DiffResultView)
	if !ok || len(view.Diffs) != 1 || view.Diffs[0].Old() != "unsaved line\nsecond\n" || view.Diffs[0].NewText != "replaced\nsecond\n" {
		t.Errorf("the write's card %#v, want a hunk from the buffer's old text", view)
	}

	ed.reset(map[string]string{draft: "unsaved line\nsecond\n"})
	res = e.ok("write", map[string]any{"file_path": "draft.txt", "content": "unsaved line\nsecond\n"})
	if got := text(res); !strings.Contains(got, "already had this content") || len(ed.writes) != 0 {
		t.Errorf("an identical write said %q and wrote %v", got, ed.writes)
	}

	ed.reset(map[string]string{draft: "unsaved line\nsecond\n"})
	e.ok("edit", map[string]any{"file_path": "draft.txt", "old_string": "unsaved", "new_string": "edited"})
	if got := ed.buffer(draft); got != "edited line\nsecond\n" {
		t.Errorf("edit left %q", got)
	}

	ed.reset(map[string]string{draft: "unsaved line\nsecond\n"})
	if res := e.ok("read", map[string]any{"file_path": "draft.txt"}); !strings.Contains(text(res), "unsaved line") {
		t.Errorf("read showed %q", text(res))
	}
}

// TestFilesNotOnDiskAreNew: whether a file exists is what the FileSystem's
// Stat (the disk) says, so a path the disk does not have is never read:
// write and edit with an empty old_string create it, read and any other
// edit say it does not exist. An editor is never asked about a file it
// would answer "not found" for (issue 17: acpx printed that error before
// every new file); see docs/decisions.md for the unsaved buffers this
// leaves unseen.
func TestFilesNotOnDiskAreNew(t *testing.T) {
	ed := &editorBuffers{}
	e := newEnvFS(t, fs.Options{}, ed)
	tests := []struct {
		name string
		tool string
		args map[string]any
		code string // "" for success
		want string
	}{
		{"write creates", "write", map[string]any{"file_path": "new.txt", "content": "hi\n"}, "", "Created new.txt (1 line)."},
		{"edit with an empty old_string creates", "edit", map[string]any{"file_path": "new.txt", "old_string": "", "new_string": "hi\n"}, "", "Created new.txt (1 line)."},
		{"edit of text finds no file", "edit", map[string]any{"file_path": "new.txt", "old_string": "a", "new_string": "b"}, fs.CodeNotFound, "new.txt does not exist"},
		{"read finds no file", "read", map[string]any{"file_path": "new.txt"}, fs.CodeNotFound, "new.txt does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Even an editor holding a buffer under that name is not asked.
			ed.reset(map[string]string{e.path("new.txt"): "a buffer never saved\n"})
			var got string
			if tt.code == "" {
				got = text(e.ok(tt.tool, tt.args))
			} else {
				got = text(e.fail(tt.tool, tt.args, tt.code))
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("%s said %q, want %q", tt.tool, got, tt.want)
			}
			if reads := ed.readPaths(); len(reads) != 0 {
				t.Errorf("%s read %v, a file the disk does not have", tt.tool, reads)
			}
		})
	}
}

// TestEditorReadFails: when the FileSystem cannot read a file the disk
// has, write and edit report it instead of replacing whatever it holds.
func TestEditorReadFails(t *testing.T) {
	e := newEnvFS(t, fs.Options{}, brokenEditor{})
	e.put("draft.txt", "saved\n")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"write", map[string]any{"file_path": "draft.txt", "content": "x\n"}},
		{"edit", map[string]any{"file_path": "draft.txt", "old_string": "saved", "new_string": "x"}},
	} {
		res := e.fail(c.tool, c.args, fs.CodeIO)
		if !strings.Contains(text(res), "buffer exploded") {
			t.Errorf("%s: %q", c.tool, text(res))
		}
	}
	if got := e.get("draft.txt"); got != "saved\n" {
		t.Errorf("the file holds %q", got)
	}
}

// brokenEditor fails every read with an editor error.
type brokenEditor struct{ localFS }

func (brokenEditor) ReadFile(context.Context, string) ([]byte, error) {
	return nil, errors.New("buffer exploded")
}
