package session

import (
	"cmp"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/secrets"
)

// Permissions of everything the store creates: the user's own.
const (
	dirPerm  fs.FileMode = 0o700
	filePerm fs.FileMode = 0o600
)

// ErrNotFound is wrapped by the error for a session the store does not
// have.
var ErrNotFound = errors.New("session not found")

// ErrInvalidID is wrapped by the error for a session id that is not one:
// ids are made of letters, digits, '-' and '_' only (a UUID is one), so an
// id can never name a path outside the store.
var ErrInvalidID = errors.New("invalid session id")

// Store keeps sessions on disk under a state directory, so they outlive
// the process: one append-only JSON Lines event log per session and an
// index of every session's Meta.
//
//	<dir>/index.json            every session's Meta, replaced atomically
//	<dir>/index.lock            held while the index is being replaced
//	<dir>/sessions/<id>.jsonl   the session's events, one JSON object a line,
//	                            and its Meta after every change (see metaline.go)
//	<dir>/sessions/<id>.lock    held by the process that has the session open
//
// The logs are the truth; the index says in one file what they hold. A
// corrupt index is kept aside as index.json.corrupt-<time> and rebuilt
// from the logs, and whenever a store opens the directory the index is
// brought in line with the logs: a session whose log could be written
// while the index could not is listed again, and an entry whose log is
// gone is dropped. A store that cannot write keeps working from what it
// can read, and each failed write is returned to its caller.
//
// A new session costs nothing on disk until it has something to keep:
// its lock, its log and its index entry are made together, by its first
// UpdateMeta or by the first Journal.Flush that has events to write,
// whichever comes first. Until then only this process knows it; a
// session closed before either leaves no trace.
//
// Several processes may share one directory (two editor windows): index
// updates are serialized by a file lock, and a session is open in at most
// one Journal at a time. Directories are created 0700 and files 0600. A
// Store is safe for concurrent use.
type Store struct {
	dir    string
	now    func() time.Time
	logger *slog.Logger
	redact redactor

	indexMu sync.Mutex
	index   indexCache

	journalsMu sync.Mutex
	journals   map[string]*Journal // the sessions open in a Journal here, stored or not
}

// StoreOptions configures a Store. The zero value is ready to use.
type StoreOptions struct {
	// Redactor hides the secrets never written: every occurrence in an
	// event's text and in the index is replaced by secrets.Marker
	// ("[REDACTED]"). Nil writes everything as is. A secret split across
	// two streamed pieces that were flushed separately is not recognized.
	Redactor *secrets.Redactor
	// Now stamps Created and Updated (time.Now when nil).
	Now func() time.Time
	// Logger receives warnings: skipped log lines, failed writes. Nothing
	// is logged when nil.
	Logger *slog.Logger
}

// Meta describes a session, as the index keeps it.
type Meta struct {
	// ID names the session: letters, digits, '-' and '_'.
	ID string
	// Cwd is the session's working directory (cleaned).
	Cwd                   string
	AdditionalDirectories []string
	// Title names the session in the editor's thread list.
	Title string
	// Created is when the session was created; Updated when its Meta was
	// last changed.
	Created, Updated time.Time
	// Model, Preset and Effort are the session's settings: the model,
	// the permission preset and the reasoning effort.
	Model, Preset, Effort string
	// SystemPrompt is the client's system prompt for the session, and
	// SystemPromptMode how it combines with the agent's own ("append" or
	// "override"); both "" when the client gave none.
	SystemPrompt, SystemPromptMode string
	// Empty marks a session kept without a conversation: one a client
	// opened and closed without a prompt, which it may name and use from
	// a later process (acpx's `sessions new --name`). Open, Get and
	// Delete find it; List leaves it out, so the sessions editors open
	// ahead of time are never listed; and one not updated for
	// EmptyKept is removed when a store opens the directory.
	Empty bool
}

// EmptyKept is how long an empty session (Meta.Empty) is kept after its
// last update.
const EmptyKept = 30 * 24 * time.Hour

// Loaded is what Store.Open read from a session's log.
type Loaded struct {
	// Meta is the session's index entry, or what its log records when
	// the index has none.
	Meta Meta
	// Events are the session's events, each run of streamed pieces merged
	// into one event as Log.Events returns them.
	Events []Event
	// Skipped counts the lines that could not be read (corrupt, or of a
	// kind this build does not know) and were left out; each was logged.
	// A torn last line is not counted.
	Skipped int
}

// OpenStore returns the store kept in dir, creating dir and its sessions
// directory (0700) when missing, and brings the index in line with the
// logs (see Store); failing that is logged, not returned.
func OpenStore(dir string, opts StoreOptions) (*Store, error) {
	if dir == "" {
		return nil, errors.New("open session store: no state directory")
	}
	s := &Store{dir: dir, now: opts.Now, logger: opts.Logger, redact: redactor{red: opts.Redactor}, journals: map[string]*Journal{}}
	if s.now == nil {
		s.now = time.Now
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(s.sessionsDir(), dirPerm); err != nil {
		return nil, fmt.Errorf("open session store: %w", err)
	}
	s.syncIndex()
	s.pruneEmpty()
	return s, nil
}

// Dir returns the state directory the store keeps its sessions in.
func (s *Store) Dir() string { return s.dir }

// Create starts a new session and returns its Journal. Nothing is
// written yet: the session is stored — its lock taken, its log created,
// its Meta added to the index — by its first UpdateMeta or by the first
// Flush with events to write, and the Journal holds the lock from then
// until it is closed. Until it is stored, the session is open in this
// process only: Get and List do not see it, Open and Delete refuse it
// with a *LockedError, and in another process it does not exist.
//
// A meta without an ID gets a new random UUID; zero Created and Updated
// times become now. Creating an id the store already has, or one open in
// a Journal here, is an error.
func (s *Store) Create(meta Meta) (*Journal, error) {
	if meta.ID == "" {
		meta.ID = newID()
	}
	if err := checkID(meta.ID); err != nil {
		return nil, err
	}
	if meta.Created.IsZero() {
		meta.Created = s.now()
	}
	if meta.Updated.IsZero() {
		meta.Updated = meta.Created
	}
	meta.Cwd = cleanPath(meta.Cwd)
	meta.AdditionalDirectories = slices.Clone(meta.AdditionalDirectories)

	// Every stored session has a log, so its absence says the id is new;
	// storing the session checks again, holding its lock. A directory
	// that cannot be read now fails when the session is stored, not
	// here: a session that cannot be stored still runs.
	if _, err := os.Lstat(s.logPath(meta.ID)); err == nil {
		return nil, fmt.Errorf("create session %s: %w", meta.ID, fs.ErrExist)
	}
	s.journalsMu.Lock()
	defer s.journalsMu.Unlock()
	if s.journals[meta.ID] != nil {
		return nil, fmt.Errorf("create session %s: %w", meta.ID, &LockedError{ID: meta.ID, PID: os.Getpid()})
	}
	j := newPendingJournal(s, meta)
	s.journals[meta.ID] = j
	return j, nil
}

// Open locks the session and reads its log. The Journal appends to the
// log from where it ends and holds the lock until it is closed. A session
// open elsewhere — in another process, or in a Journal here, stored or
// not — is refused with a *LockedError (ErrLocked); one the store does
// not have fails with ErrNotFound.
func (s *Store) Open(id string) (*Journal, Loaded, error) {
	if err := checkID(id); err != nil {
		return nil, Loaded{}, err
	}
	if err := s.refuseOpen(id); err != nil {
		return nil, Loaded{}, err
	}
	if _, err := os.Stat(s.logPath(id)); errors.Is(err, fs.ErrNotExist) {
		return nil, Loaded{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	lock, err := s.lockSession(id)
	if err != nil {
		return nil, Loaded{}, err
	}
	j, loaded, err := s.load(id, lock)
	if err != nil {
		lock.Close()
		return nil, Loaded{}, err
	}
	s.journalsMu.Lock()
	s.journals[id] = j
	s.journalsMu.Unlock()
	return j, loaded, nil
}

// List returns the Meta of every session whose working directory is cwd
// (compared after filepath.Clean), or of every session when cwd is "",
// most recently updated first; empty sessions (Meta.Empty) are left out.
func (s *Store) List(cwd string) ([]Meta, error) {
	metas, err := s.readIndex()
	if err != nil {
		return nil, err
	}
	cwd = cleanPath(cwd)
	metas = slices.DeleteFunc(metas, func(m Meta) bool { return m.Empty || cwd != "" && m.Cwd != cwd })
	slices.SortStableFunc(metas, func(a, b Meta) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return metas, nil
}

// Get returns the session's Meta, or an error wrapping ErrNotFound (as
// for a session that is not stored yet; see Create).
func (s *Store) Get(id string) (Meta, error) {
	if err := checkID(id); err != nil {
		return Meta{}, err
	}
	metas, err := s.readIndex()
	if err != nil {
		return Meta{}, err
	}
	i := findMeta(metas, id)
	if i < 0 {
		return Meta{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return metas[i], nil
}

// UpdateMeta changes the session's Meta with fn and returns what was
// stored. Updated is set to now before fn runs (fn may set it otherwise);
// fn cannot change the ID. Concurrent updates, from any process, apply
// one after the other. A session open in a Journal here that is not
// stored yet is stored by it (see Create); one closed before it was
// stored is not found.
//
// The change is recorded in the index and in the session's log: by its
// Journal when it is open here (at the next Flush), directly otherwise,
// unless another process has it open. A session with a log but no index
// entry gets its entry back. When the index cannot be written, the log
// still records the change of a session open here, and the index's error
// is returned.
func (s *Store) UpdateMeta(id string, fn func(*Meta)) (Meta, error) {
	if err := checkID(id); err != nil {
		return Meta{}, err
	}
	j := s.openJournal(id)
	if j != nil {
		if m, stored, err := j.storeWith(fn); !stored {
			return m, err
		}
	}
	// A session in the index has a log, so without one there is no entry
	// to update and the index need not be read.
	if _, err := os.Lstat(s.logPath(id)); errors.Is(err, fs.ErrNotExist) {
		return Meta{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	change := func(m Meta) Meta {
		m.Updated = s.now()
		fn(&m)
		m.ID = id
		m.Cwd = cleanPath(m.Cwd)
		return m
	}
	var out Meta
	err := s.updateIndex(func(doc *indexDoc) error {
		if i := doc.find(id); i >= 0 {
			out = doc.set(i, change(doc.meta(i)))
			return nil
		}
		base, err := s.knownMeta(id, j)
		if err != nil {
			return err
		}
		out = doc.add(change(base))
		return nil
	})
	if err != nil {
		if j != nil && !errors.Is(err, ErrNotFound) {
			j.recordMeta(s.redact.Meta(change(j.currentMeta())))
		}
		return Meta{}, err
	}
	s.recordMeta(j, out)
	return out, nil
}

// knownMeta returns the Meta of a stored session the index does not
// have: as its Journal here knows it, or as its log records it.
func (s *Store) knownMeta(id string, j *Journal) (Meta, error) {
	if j != nil {
		return j.currentMeta(), nil
	}
	return s.recoverMeta(id)
}

// recordMeta writes m, what the index now holds, to the session's log:
// through j when the session is open there, directly when no Journal has
// it open. It is best effort: the index holds m already.
func (s *Store) recordMeta(j *Journal, m Meta) {
	if j != nil && j.recordMeta(m) {
		return
	}
	err := s.appendMetaLine(m)
	switch {
	case err == nil:
	case errors.Is(err, ErrLocked):
		s.logger.Debug("session meta not recorded in its log: the session is open elsewhere", "session", m.ID)
	default:
		s.logger.Warn("session meta not recorded in its log", "session", m.ID, "error", err)
	}
}

// Delete removes the session: its log, its index entry and its lock
// file. A session open in a Journal, here (stored or not) or in another
// process, is refused with a *LockedError (ErrLocked).
func (s *Store) Delete(id string) error {
	return s.deleteIf(id, nil)
}

// deleteIf is Delete, except that when still is set, the session is
// removed only if still reports true of its Meta as the index holds it
// once the session's lock is taken (a session not removed is no error).
func (s *Store) deleteIf(id string, still func(Meta) bool) error {
	if err := checkID(id); err != nil {
		return err
	}
	if err := s.refuseOpen(id); err != nil {
		return err
	}
	metas, err := s.readIndex()
	if err != nil {
		return err
	}
	if _, err := os.Stat(s.logPath(id)); errors.Is(err, fs.ErrNotExist) && findMeta(metas, id) < 0 {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	lock, err := s.lockSession(id)
	if err != nil {
		return err
	}
	defer lock.Close()
	if still != nil {
		m, err := s.Get(id)
		if err != nil || !still(m) {
			return err
		}
	}
	// The log goes first, as it is the truth: a crash before the entry is
	// removed leaves an entry the next store to open drops.
	if err := os.Remove(s.logPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	err = s.updateIndex(func(doc *indexDoc) error {
		doc.remove(id)
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	if err := removeLockFile(lock, s.lockPath(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	return nil
}

func (s *Store) sessionsDir() string       { return filepath.Join(s.dir, "sessions") }
func (s *Store) indexPath() string         { return filepath.Join(s.dir, "index.json") }
func (s *Store) logPath(id string) string  { return filepath.Join(s.sessionsDir(), id+".jsonl") }
func (s *Store) lockPath(id string) string { return filepath.Join(s.sessionsDir(), id+".lock") }

// checkID accepts 1 to 128 letters, digits, '-' and '_'.
func checkID(id string) error {
	if id == "" || len(id) > 128 {
		return fmt.Errorf("%w %q: it must be 1 to 128 characters", ErrInvalidID, id)
	}
	for _, c := range []byte(id) {
		ok := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_'
		if !ok {
			return fmt.Errorf("%w %q: only letters, digits, '-' and '_' are allowed", ErrInvalidID, id)
		}
	}
	return nil
}

// newID returns a random (version 4) UUID.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// cleanPath is filepath.Clean, except that "" stays "".
func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Clean(p)
}
