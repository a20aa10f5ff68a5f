package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/dsh-acp/dsh-acp/internal/atomicfile"
)

// RuleBook is one project's remembered rules, kept in a file under the
// state directory so they survive restarts and are shared by every
// session (and every dsh-acp process) working in that project. It is
// safe for concurrent use; a change by another process is seen at the
// next decision.
type RuleBook struct {
	root string
	path string
	now  func() time.Time

	mu     sync.Mutex
	rules  []Rule
	loaded fileStamp
}

// fileStamp tells whether the rule file changed since it was read.
type fileStamp struct {
	modTime time.Time
	size    int64
	exists  bool
}

// ruleFile is the rule file's content.
type ruleFile struct {
	// Root is the project the rules are for.
	Root  string `json:"root"`
	Rules []Rule `json:"rules"`
}

// OpenRuleBook returns the rule book of the project at root (its first
// workspace root), kept in stateDir/rules/. Nothing is read or written
// until it is used.
func OpenRuleBook(stateDir, root string) *RuleBook {
	sum := sha256.Sum256([]byte(filepath.Clean(root)))
	return &RuleBook{
		root: filepath.Clean(root),
		path: filepath.Join(stateDir, "rules", hex.EncodeToString(sum[:8])+".json"),
		now:  time.Now,
	}
}

// Path returns the file the rules are kept in.
func (b *RuleBook) Path() string { return b.path }

// Rules returns the project's rules, oldest first.
func (b *RuleBook) Rules() ([]Rule, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.refresh(); err != nil {
		return nil, err
	}
	return slices.Clone(b.rules), nil
}

// refresh rereads the file when it changed. b.mu is held.
func (b *RuleBook) refresh() error {
	stamp, err := stampOf(b.path)
	if err != nil {
		return err
	}
	if stamp == b.loaded && (b.rules != nil || !stamp.exists) {
		return nil
	}
	rules, err := b.read()
	if err != nil {
		return err
	}
	b.rules, b.loaded = rules, stamp
	return nil
}

func stampOf(path string) (fileStamp, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileStamp{}, nil
	case err != nil:
		return fileStamp{}, fmt.Errorf("rules: %w", err)
	}
	return fileStamp{modTime: info.ModTime(), size: info.Size(), exists: true}, nil
}

// read reads the rule file; a missing file holds no rules.
func (b *RuleBook) read() ([]Rule, error) {
	data, err := atomicfile.ReadFile(b.path)
	if errors.Is(err, fs.ErrNotExist) {
		return []Rule{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	var f ruleFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("rules: %s is not a rule file: %w", b.path, err)
	}
	if f.Rules == nil {
		f.Rules = []Rule{}
	}
	return f.Rules, nil
}

// Add remembers r, replacing a rule about the same calls: a later
// "always reject" of the same command replaces an "always allow".
func (b *RuleBook) Add(r Rule) error {
	if r.Created.IsZero() {
		r.Created = b.now().UTC()
	}
	return b.update(func(rules []Rule) ([]Rule, error) {
		rules = slices.DeleteFunc(rules, r.sameSubject)
		return append(rules, r), nil
	})
}

// Remove forgets the rule at index i of Rules and returns it.
func (b *RuleBook) Remove(i int) (Rule, error) {
	var removed Rule
	err := b.update(func(rules []Rule) ([]Rule, error) {
		if i < 0 || i >= len(rules) {
			return nil, fmt.Errorf("no rule %d: the project has %d", i+1, len(rules))
		}
		removed = rules[i]
		return slices.Delete(rules, i, i+1), nil
	})
	return removed, err
}

// update changes the rule file under an exclusive lock, so two processes
// never lose each other's rules, and replaces it atomically (0600 in a
// 0700 directory).
func (b *RuleBook) update(change func([]Rule) ([]Rule, error)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	dir := filepath.Dir(b.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	lock := flock.New(b.path + ".lock")
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("rules: lock %s: %w", b.path, err)
	}
	defer lock.Unlock()
	rules, err := b.read()
	if err != nil {
		return err
	}
	rules, err = change(rules)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(ruleFile{Root: b.root, Rules: rules}, "", "  ")
	if err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	if err := writeFileAtomic(b.path, append(data, '\n')); err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	b.rules = rules
	b.loaded, err = stampOf(b.path)
	return err
}

// writeFileAtomic replaces path with data: a temporary file beside it,
// synced, renamed over it.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".rules-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := bytes.NewReader(data).WriteTo(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return atomicfile.Rename(tmp.Name(), path)
}
