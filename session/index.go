package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gofrs/flock"

	"github.com/dsh-acp/dsh-acp/internal/atomicfile"
)

// indexVersion is the version of index.json this build writes:
//
//	{"version":1,"sessions":[{"id":…,"cwd":…,"title":…,"created":…,"updated":…},…]}
const indexVersion = 1

type metaWire struct {
	ID                    string    `json:"id"`
	Cwd                   string    `json:"cwd,omitempty"`
	AdditionalDirectories []string  `json:"additional_directories,omitempty"`
	Title                 string    `json:"title,omitempty"`
	Created               time.Time `json:"created"`
	Updated               time.Time `json:"updated"`
	Model                 string    `json:"model,omitempty"`
	Preset                string    `json:"preset,omitempty"`
	Effort                string    `json:"effort,omitempty"`
	SystemPrompt          string    `json:"system_prompt,omitempty"`
	SystemPromptMode      string    `json:"system_prompt_mode,omitempty"`
	Empty                 bool      `json:"empty,omitempty"`
}

func (w metaWire) meta() Meta {
	return Meta{
		ID: w.ID, Cwd: w.Cwd, AdditionalDirectories: w.AdditionalDirectories, Title: w.Title,
		Created: w.Created, Updated: w.Updated, Model: w.Model, Preset: w.Preset, Effort: w.Effort, Empty: w.Empty,
		SystemPrompt: w.SystemPrompt, SystemPromptMode: w.SystemPromptMode,
	}
}

func wireMeta(m Meta) metaWire {
	return metaWire{
		ID: m.ID, Cwd: m.Cwd, AdditionalDirectories: m.AdditionalDirectories, Title: m.Title,
		Created: m.Created, Updated: m.Updated, Model: m.Model, Preset: m.Preset, Effort: m.Effort, Empty: m.Empty,
		SystemPrompt: m.SystemPrompt, SystemPromptMode: m.SystemPromptMode,
	}
}

// indexEntry is one session of the index: its Meta and, when known, its
// JSON as index.json holds it.
type indexEntry struct {
	meta Meta
	raw  []byte // nil when the entry must be encoded
}

// indexCache is the index as this store last read or wrote it. Entries
// are never changed in place: an update replaces the entry.
type indexCache struct {
	data    []byte // index.json's content
	entries []indexEntry
}

// readIndex returns every session's Meta, in the order index.json holds
// them; a missing index is an empty one. It takes no lock: index.json is
// only ever replaced by a rename, so a reader sees one whole version. A
// corrupt index is repaired first (see repairIndex).
func (s *Store) readIndex() ([]Meta, error) {
	entries, err := s.readEntries()
	var corrupt *corruptIndexError
	if errors.As(err, &corrupt) {
		entries, err = s.repairIndex()
	}
	if err != nil {
		return nil, err
	}
	metas := make([]Meta, len(entries))
	for i, e := range entries {
		metas[i] = e.meta
		metas[i].AdditionalDirectories = slices.Clone(e.meta.AdditionalDirectories)
	}
	return metas, nil
}

// corruptIndexError is readEntries' error for an index.json that is not
// an index.
type corruptIndexError struct {
	path string
	data []byte // what the file holds
	err  error
}

func (e *corruptIndexError) Error() string {
	return fmt.Sprintf("session index %s is corrupt: %v", e.path, e.err)
}

func (e *corruptIndexError) Unwrap() error { return e.err }

// readEntries reads index.json. Decoding is the costly part of a read,
// so when the file holds what this store last read or wrote, the entries
// decoded then are reused. A corrupt index is a *corruptIndexError.
func (s *Store) readEntries() ([]indexEntry, error) {
	data, err := atomicfile.ReadFile(s.indexPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read session index: %w", err)
	}
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	if s.index.data != nil && bytes.Equal(data, s.index.data) {
		return slices.Clone(s.index.entries), nil
	}
	var w struct {
		Sessions []metaWire `json:"sessions"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, &corruptIndexError{path: s.indexPath(), data: data, err: err}
	}
	// The entries' JSON is left to be encoded by the next update: keeping
	// it here would mean decoding the index twice.
	entries := make([]indexEntry, len(w.Sessions))
	for i, m := range w.Sessions {
		entries[i] = indexEntry{meta: m.meta()}
	}
	s.index = indexCache{data: data, entries: entries}
	return slices.Clone(entries), nil
}

// indexDoc is the index while an update changes it.
type indexDoc struct {
	entries []indexEntry
	redact  redactor
	changed bool // the index must be written
}

// find returns the position of the session id, or -1.
func (d *indexDoc) find(id string) int {
	return slices.IndexFunc(d.entries, func(e indexEntry) bool { return e.meta.ID == id })
}

// meta returns a copy of the Meta at position i.
func (d *indexDoc) meta(i int) Meta {
	m := d.entries[i].meta
	m.AdditionalDirectories = slices.Clone(m.AdditionalDirectories)
	return m
}

// set replaces the Meta at position i by m, redacted, and returns what is
// stored.
func (d *indexDoc) set(i int, m Meta) Meta {
	m = d.redact.Meta(m)
	d.entries[i] = indexEntry{meta: m}
	d.changed = true
	return d.meta(i)
}

// add appends m, redacted, and returns what is stored.
func (d *indexDoc) add(m Meta) Meta {
	d.entries = append(d.entries, indexEntry{meta: d.redact.Meta(m)})
	d.changed = true
	return d.meta(len(d.entries) - 1)
}

// upsert replaces the Meta of the session m.ID by m, or adds it, and
// returns what is stored.
func (d *indexDoc) upsert(m Meta) Meta {
	if i := d.find(m.ID); i >= 0 {
		return d.set(i, m)
	}
	return d.add(m)
}

// remove drops the session id, if present.
func (d *indexDoc) remove(id string) {
	n := len(d.entries)
	d.entries = slices.DeleteFunc(d.entries, func(e indexEntry) bool { return e.meta.ID == id })
	d.changed = d.changed || len(d.entries) != n
}

// encode returns the index's JSON, encoding only the entries that changed.
func (d *indexDoc) encode() ([]byte, error) {
	size := 64
	for i, e := range d.entries {
		if e.raw == nil {
			raw, err := json.Marshal(wireMeta(e.meta))
			if err != nil {
				return nil, fmt.Errorf("encode session index: %w", err)
			}
			d.entries[i].raw = raw
		}
		size += len(d.entries[i].raw) + 1
	}
	buf := make([]byte, 0, size)
	buf = fmt.Appendf(buf, `{"version":%d,"sessions":[`, indexVersion)
	for i, e := range d.entries {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, e.raw...)
	}
	return append(buf, "]}\n"...), nil
}

// updateIndex replaces index.json by what change makes of it, holding
// the exclusive lock on index.lock so that concurrent updates, from this
// process or another, apply one after the other and none is lost. The
// new index is written to a temporary file, synced and renamed over the
// old one; an index change leaves unchanged is not written. A corrupt
// index is moved aside and rebuilt from the logs before change sees it.
func (s *Store) updateIndex(change func(*indexDoc) error) error {
	lock := flock.New(filepath.Join(s.dir, "index.lock"), flock.SetPermissions(filePerm))
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("lock session index: %w", err)
	}
	defer lock.Close()
	doc, err := s.lockedDoc()
	if err != nil {
		return err
	}
	if err := change(doc); err != nil {
		return err
	}
	if !doc.changed {
		return nil
	}
	data, err := doc.encode()
	if err != nil {
		return err
	}
	if err := writeFileAtomic(s.indexPath(), data); err != nil {
		return err
	}
	s.indexMu.Lock()
	s.index = indexCache{data: data, entries: doc.entries}
	s.indexMu.Unlock()
	return nil
}

// lockedDoc reads the index for a change; index.lock is held. A corrupt
// index is moved aside and the document rebuilt from the logs, marked to
// be written.
func (s *Store) lockedDoc() (*indexDoc, error) {
	entries, err := s.readEntries()
	var corrupt *corruptIndexError
	if errors.As(err, &corrupt) {
		aside, kerr := s.keepAside(corrupt.data)
		if kerr != nil {
			return nil, fmt.Errorf("%w; it could not be kept aside: %w", err, kerr)
		}
		s.logger.Warn("session index was corrupt: kept aside and rebuilt from the session logs", "index", s.indexPath(), "kept_as", aside, "error", corrupt.err)
		return s.rebuiltDoc()
	}
	if err != nil {
		return nil, err
	}
	return &indexDoc{entries: entries, redact: s.redact}, nil
}

// writeFileAtomic replaces path by data: a temporary file in the same
// directory (created 0600), synced, then renamed over path, so a reader
// sees either the old content or the new, whole.
func writeFileAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	if err := atomicfile.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}

// findMeta returns the position of the session id in metas, or -1.
func findMeta(metas []Meta, id string) int {
	return slices.IndexFunc(metas, func(m Meta) bool { return m.ID == id })
}
