package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/tools/workspace"
)

// FallbackNote is the sentence to show with an undo done by PreImages.
const FallbackNote = "git is not available, so /undo reverts only what the file tools (write, edit) changed; " +
	"changes made by shell commands are not covered"

// DefaultPreImageBytes bounds the file contents PreImages keeps.
const DefaultPreImageBytes int64 = 256 << 20

// PreImagesOptions configures NewPreImages. The zero value is ready to
// use.
type PreImagesOptions struct {
	// MaxFileSize is the size above which a file's content is not kept
	// (DefaultMaxFileSize when zero or less).
	MaxFileSize int64
	// Keep is how many turns are kept (DefaultKeep when zero or less).
	Keep int
	// MaxBytes bounds the contents kept over all turns
	// (DefaultPreImageBytes when zero or less): the oldest turns are
	// dropped to make room, and a file that does not fit even then is
	// not recorded.
	MaxBytes int64
}

// PreImages is the fallback of Checkpoints where git is missing: it
// remembers each file's content, or its absence, before the file tools
// first write it in a turn, and Undo puts those back. Changes made by
// shell commands are not covered (FallbackNote). Turns live in memory
// only. It is safe for concurrent use.
type PreImages struct {
	files workspace.FileSystem
	opts  PreImagesOptions

	mu    sync.Mutex
	turns []*preTurn
	bytes int64 // the contents held, over all turns
	next  int   // the number of the next turn
}

// preTurn is what one turn overwrote.
type preTurn struct {
	cp        Checkpoint
	images    map[string]preImage
	order     []string // the paths of images, in the order they came
	untouched []Skipped
	bytes     int64
}

// preImage is a file as it was before the turn first wrote it.
type preImage struct {
	exists bool
	data   []byte
	mode   fs.FileMode
	// keepDir is, for a file that did not exist, the nearest directory
	// above it that did: Undo removes the directories below it that the
	// write created, once they are empty.
	keepDir string
}

// NewPreImages returns PreImages that reads and writes through files.
func NewPreImages(files workspace.FileSystem, opts PreImagesOptions) *PreImages {
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultPreImageBytes
	}
	return &PreImages{files: files, opts: opts, next: 1}
}

// Push starts a turn: the writes that follow are undone together. Its
// Checkpoint has an ID of the form "pre-<n>". The oldest turns beyond
// PreImagesOptions.Keep are dropped.
func (p *PreImages) Push(ctx context.Context, label string) (Checkpoint, error) {
	if err := ctx.Err(); err != nil {
		return Checkpoint{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	turn := &preTurn{
		cp:     Checkpoint{ID: "pre-" + strconv.Itoa(p.next), Label: oneLine(label), Time: time.Now().Truncate(time.Second)},
		images: map[string]preImage{},
	}
	p.next++
	p.turns = append(p.turns, turn)
	if drop := len(p.turns) - p.opts.Keep; drop > 0 {
		p.dropOldest(drop)
	}
	return turn.cp, nil
}

// Remember records the file at path (absolute) as it is now, unless the
// current turn already has it: call it before each write. Before the
// first Push it does nothing. A file that cannot be read, or is over the
// size limit, is noted as one Undo cannot restore.
func (p *PreImages) Remember(ctx context.Context, path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("checkpoint: remember %q: not an absolute path", path)
	}
	path = filepath.Clean(path)
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.turns) == 0 {
		return nil
	}
	turn := p.turns[len(p.turns)-1]
	if _, ok := turn.images[path]; ok || slices.ContainsFunc(turn.untouched, func(s Skipped) bool { return s.Path == path }) {
		return nil
	}
	image, skip := p.read(ctx, path)
	if skip.Reason != "" {
		turn.untouched = append(turn.untouched, skip)
		return nil
	}
	turn.images[path] = image
	turn.order = append(turn.order, path)
	turn.bytes += int64(len(image.data))
	p.bytes += int64(len(image.data))
	return nil
}

// read returns the image of path now, or why it has none; the caller
// holds the lock and makes room for the content.
func (p *PreImages) read(ctx context.Context, path string) (preImage, Skipped) {
	info, err := p.files.Stat(ctx, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return preImage{keepDir: nearestDir(filepath.Dir(path))}, Skipped{}
	case err != nil:
		return preImage{}, Skipped{Path: path, Reason: ReasonNotRecorded}
	case info.Size() > p.opts.MaxFileSize:
		return preImage{}, Skipped{Path: path, Reason: ReasonTooLarge, Size: info.Size()}
	}
	data, err := p.files.ReadFile(ctx, path)
	if err != nil {
		return preImage{}, Skipped{Path: path, Reason: ReasonNotRecorded}
	}
	for p.bytes+int64(len(data)) > p.opts.MaxBytes && len(p.turns) > 1 {
		p.dropOldest(1)
	}
	if p.bytes+int64(len(data)) > p.opts.MaxBytes {
		return preImage{}, Skipped{Path: path, Reason: ReasonNotRecorded}
	}
	return preImage{exists: true, data: data, mode: info.Mode().Perm()}, Skipped{}
}

// dropOldest forgets the n oldest turns; the caller holds the lock.
func (p *PreImages) dropOldest(n int) {
	for _, t := range p.turns[:n] {
		p.bytes -= t.bytes
	}
	p.turns = slices.Delete(p.turns, 0, n)
}

// Undo puts back every file the last turn wrote, as it was before the
// turn first wrote it (a file the turn created is removed, with the
// directories that leaves empty), and forgets the turn. An empty history
// fails with ErrNothingToUndo. Restored.Note is FallbackNote. When a file
// cannot be put back, the turn is kept and the error returned with what
// was restored.
func (p *PreImages) Undo(ctx context.Context) (Restored, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.turns) == 0 {
		return Restored{}, fmt.Errorf("checkpoint: %w", ErrNothingToUndo)
	}
	turn := p.turns[len(p.turns)-1]
	result := Restored{Checkpoint: turn.cp, Untouched: slices.Clone(turn.untouched), Note: FallbackNote}
	var errs []error
	for _, path := range turn.order {
		if err := ctx.Err(); err != nil {
			errs = append(errs, err)
			break
		}
		change, changed, err := p.restore(ctx, path, turn.images[path])
		if err != nil {
			errs = append(errs, err)
		} else if changed {
			result.Changes = append(result.Changes, change)
		}
	}
	sortChanges(result.Changes)
	slices.SortFunc(result.Untouched, func(x, y Skipped) int { return strings.Compare(x.Path, y.Path) })
	if len(errs) > 0 {
		return result, errors.Join(errs...)
	}
	p.bytes -= turn.bytes
	p.turns = p.turns[:len(p.turns)-1]
	return result, nil
}

// restore puts path back as image has it; changed is false when it
// already was.
func (p *PreImages) restore(ctx context.Context, path string, image preImage) (Change, bool, error) {
	now := side{}
	data, err := p.files.ReadFile(ctx, path)
	switch {
	case err == nil:
		now = side{exists: true, data: data}
	case !errors.Is(err, fs.ErrNotExist):
		return Change{}, false, fmt.Errorf("checkpoint: undo %s: %w", path, err)
	}
	want := side{exists: image.exists, data: image.data}
	if !image.exists {
		if !now.exists {
			return Change{}, false, nil
		}
		if err := os.Remove(path); err != nil {
			return Change{}, false, fmt.Errorf("checkpoint: undo %s: %w", path, err)
		}
		for dir := filepath.Dir(path); within(image.keepDir, dir); dir = filepath.Dir(dir) {
			if os.Remove(dir) != nil {
				break
			}
		}
		return newChange(path, now, want), true, nil
	}
	if now.exists && bytes.Equal(now.data, image.data) {
		return Change{}, false, nil
	}
	if err := p.files.WriteFile(ctx, path, image.data); err != nil {
		return Change{}, false, fmt.Errorf("checkpoint: undo %s: %w", path, err)
	}
	if !now.exists {
		os.Chmod(path, image.mode) // recreated: give it its mode back
	}
	return newChange(path, now, want), true, nil
}

// List returns the turns kept, newest first.
func (p *PreImages) List(ctx context.Context) ([]Checkpoint, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	list := make([]Checkpoint, 0, len(p.turns))
	for _, t := range slices.Backward(p.turns) {
		list = append(list, t.cp)
	}
	return list, nil
}

// nearestDir returns dir, or its nearest ancestor, that exists.
func nearestDir(dir string) string {
	for {
		if _, err := os.Lstat(dir); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// Files returns a FileSystem that is the one PreImages was made with,
// except that each write first Remembers its file: give it to the file
// tools.
func (p *PreImages) Files() workspace.FileSystem { return rememberingFS{p: p} }

// rememberingFS is PreImages' FileSystem.
type rememberingFS struct{ p *PreImages }

// ReadFile reads through the underlying FileSystem.
func (f rememberingFS) ReadFile(ctx context.Context, path string) ([]byte, error) {
	return f.p.files.ReadFile(ctx, path)
}

// Stat reads through the underlying FileSystem.
func (f rememberingFS) Stat(ctx context.Context, path string) (fs.FileInfo, error) {
	return f.p.files.Stat(ctx, path)
}

// WriteFile remembers path, then writes through the underlying
// FileSystem.
func (f rememberingFS) WriteFile(ctx context.Context, path string, data []byte) error {
	if err := f.p.Remember(ctx, path); err != nil {
		return err
	}
	return f.p.files.WriteFile(ctx, path, data)
}
