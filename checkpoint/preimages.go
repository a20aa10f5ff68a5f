package checkpoint

import (
	"bytes"
	"context"
	"crypto/sha256"
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

	"github.com/dsh-acp/dsh-acp/workspace"
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
	// ended is set by Finish, which records in left what the turn left at
	// each path of images.
	ended bool
	left  map[string]postImage
}

// postImage is a file as a turn left it: enough to tell whether it is
// still the same, not its content.
type postImage struct {
	exists bool
	size   int64
	sum    [sha256.Size]byte
	exec   bool
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
// current turn already has it: call it before each write. Outside a turn
// (before the first Push, or after Finish) it does nothing. A file that cannot be read, or is over the
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
	if turn.ended {
		return nil // between turns
	}
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

// Finish records what the turn left at each path it wrote (a digest, not
// the content), for Undo to compare with; the writes that follow belong
// to no turn until the next Push. A turn that already ended keeps what it
// recorded. An empty history fails with ErrNothingToUndo.
func (p *PreImages) Finish(ctx context.Context) (Checkpoint, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.turns) == 0 {
		return Checkpoint{}, fmt.Errorf("checkpoint: no turn to finish: %w", ErrNothingToUndo)
	}
	turn := p.turns[len(p.turns)-1]
	if turn.ended {
		return turn.cp, nil
	}
	turn.left = make(map[string]postImage, len(turn.order))
	for _, path := range turn.order {
		if err := ctx.Err(); err != nil {
			return Checkpoint{}, err
		}
		if left, ok := p.look(ctx, path); ok {
			turn.left[path] = left
		}
	}
	turn.ended = true
	return turn.cp, nil
}

// look returns what path holds now; ok is false when it cannot be read.
func (p *PreImages) look(ctx context.Context, path string) (postImage, bool) {
	info, err := p.files.Stat(ctx, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return postImage{}, true
	case err != nil:
		return postImage{}, false
	}
	data, err := p.files.ReadFile(ctx, path)
	if err != nil {
		return postImage{}, false
	}
	return postImage{exists: true, size: int64(len(data)), sum: sha256.Sum256(data), exec: info.Mode().Perm()&0o100 != 0}, true
}

// Undo reverts each file the last turn wrote that is still what the turn
// left (see Finish): it gets its content from before the turn first
// wrote it back, or is removed when the turn created it (with the
// directories that leaves empty). A file changed since is left as it is
// and listed in Restored.Conflicts; so is every file of a turn that was
// never finished. The turn is then forgotten. An empty history fails
// with ErrNothingToUndo. Restored.Note is FallbackNote. When a file
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
	if !turn.ended {
		result.Note = FallbackNote + "; " + NoEndNote
	}
	var errs []error
	for _, path := range turn.order {
		if err := ctx.Err(); err != nil {
			errs = append(errs, err)
			break
		}
		left, known := turn.left[path]
		if !known {
			result.Conflicts = append(result.Conflicts, Skipped{Path: path, Reason: ReasonNoEnd})
			continue
		}
		change, reason, err := p.restore(ctx, path, turn.images[path], left)
		switch {
		case err != nil:
			errs = append(errs, err)
		case reason != "":
			result.Conflicts = append(result.Conflicts, Skipped{Path: path, Reason: reason})
		case change != nil:
			result.Changes = append(result.Changes, *change)
		}
	}
	sortChanges(result.Changes)
	for _, list := range [][]Skipped{result.Conflicts, result.Untouched} {
		slices.SortFunc(list, func(x, y Skipped) int { return strings.Compare(x.Path, y.Path) })
	}
	if len(errs) > 0 {
		return result, errors.Join(errs...)
	}
	p.bytes -= turn.bytes
	p.turns = p.turns[:len(p.turns)-1]
	return result, nil
}

// restore puts path back as image has it when it is still what the turn
// left; the change is nil when it already was as image has it, and a
// reason says why it was left as it is.
func (p *PreImages) restore(ctx context.Context, path string, image preImage, left postImage) (*Change, Reason, error) {
	now, ok := p.look(ctx, path)
	if !ok {
		return nil, ReasonChangedSince, nil
	}
	if now != left {
		switch {
		case !now.exists && !image.exists:
			return nil, "", nil // as before the turn
		case now.exists && image.exists && now.size == int64(len(image.data)) && now.sum == sha256.Sum256(image.data):
			return nil, "", nil
		case !left.exists:
			return nil, ReasonRecreated, nil
		case !now.exists:
			return nil, ReasonRemovedSince, nil
		default:
			return nil, ReasonChangedSince, nil
		}
	}
	current := side{}
	if now.exists {
		data, err := p.files.ReadFile(ctx, path)
		if err != nil {
			return nil, "", fmt.Errorf("checkpoint: undo %s: %w", path, err)
		}
		current = side{exists: true, data: data}
	}
	want := side{exists: image.exists, data: image.data}
	if !image.exists {
		if !now.exists {
			return nil, "", nil
		}
		if err := os.Remove(path); err != nil {
			return nil, "", fmt.Errorf("checkpoint: undo %s: %w", path, err)
		}
		for dir := filepath.Dir(path); dir != image.keepDir && workspace.Under(image.keepDir, dir); dir = filepath.Dir(dir) {
			if os.Remove(dir) != nil {
				break
			}
		}
		change := newChange(path, current, want)
		return &change, "", nil
	}
	if now.exists && bytes.Equal(current.data, image.data) {
		return nil, "", nil
	}
	if err := p.files.WriteFile(ctx, path, image.data); err != nil {
		return nil, "", fmt.Errorf("checkpoint: undo %s: %w", path, err)
	}
	if !now.exists {
		os.Chmod(path, image.mode) // recreated: give it its mode back
	}
	change := newChange(path, current, want)
	return &change, "", nil
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
