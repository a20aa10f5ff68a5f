package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/gofrs/flock"
)

// Credentials is the credentials file, where `dsh-acp login` keeps API
// keys by provider name: JSON, private to the user (the file 0600, a
// directory it creates 0700), replaced atomically. Every method reads the
// file afresh, so a key stored by another process counts at once; Set
// and Delete hold a lock (a .lock file beside it) from read to write, so
// two processes never undo each other's change. It is safe for
// concurrent use.
type Credentials struct {
	path string
}

// credentialsFile is the file's format.
type credentialsFile struct {
	Providers map[string]storedKey `json:"providers"`
}

type storedKey struct {
	APIKey string `json:"api_key"`
}

// OpenCredentials returns the credentials file at path (see
// CredentialsPath). The file need not exist: it is created by the first
// Set.
func OpenCredentials(path string) *Credentials {
	return &Credentials{path: path}
}

// Path is the file's path.
func (c *Credentials) Path() string { return c.path }

// Get returns the key stored for provider; ok is false when there is
// none (or no file). It fails when the file cannot be read or parsed.
func (c *Credentials) Get(provider string) (key string, ok bool, err error) {
	keys, err := c.read()
	if err != nil {
		return "", false, err
	}
	k, ok := keys.Providers[provider]
	return k.APIKey, ok && k.APIKey != "", nil
}

// Providers are the names of the providers with a stored key, sorted.
func (c *Credentials) Providers() ([]string, error) {
	keys, err := c.read()
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(keys.Providers)), nil
}

// Set stores key for provider, replacing any key it had. The key must not
// be empty or hold white space or control characters.
func (c *Credentials) Set(provider, key string) error {
	if provider == "" {
		return errors.New("storing an API key: no provider named")
	}
	if err := CheckAPIKey(key); err != nil {
		return err
	}
	return c.update(func(keys *credentialsFile) {
		keys.Providers[provider] = storedKey{APIKey: key}
	})
}

// Delete removes provider's key; removed is false when it had none.
func (c *Credentials) Delete(provider string) (removed bool, err error) {
	err = c.update(func(keys *credentialsFile) {
		_, removed = keys.Providers[provider]
		delete(keys.Providers, provider)
	})
	return removed, err
}

// DeleteAll removes every key and returns the providers that had one,
// sorted.
func (c *Credentials) DeleteAll() (removed []string, err error) {
	err = c.update(func(keys *credentialsFile) {
		removed = slices.Sorted(maps.Keys(keys.Providers))
		clear(keys.Providers)
	})
	return removed, err
}

// CheckAPIKey accepts a key that is not empty and holds no white space or
// control characters (a paste that caught more than the key).
func CheckAPIKey(key string) error {
	if key == "" {
		return errors.New("the API key is empty")
	}
	if strings.ContainsFunc(key, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return errors.New("the API key holds white space or control characters: give the key alone")
	}
	return nil
}

// read parses the file; a missing file holds no keys.
func (c *Credentials) read() (*credentialsFile, error) {
	keys := &credentialsFile{Providers: map[string]storedKey{}}
	data, err := os.ReadFile(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		return keys, nil
	}
	if err != nil {
		return nil, fmt.Errorf("credentials file: %w", err)
	}
	if err := json.Unmarshal(data, keys); err != nil {
		return nil, fmt.Errorf("credentials file %s: %w", c.path, err)
	}
	if keys.Providers == nil {
		keys.Providers = map[string]storedKey{}
	}
	return keys, nil
}

// update changes the file under the lock: read, change, write (or
// remove, when no key is left).
func (c *Credentials) update(change func(*credentialsFile)) error {
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return fmt.Errorf("credentials file: %w", err)
	}
	lock := flock.New(c.path+".lock", flock.SetPermissions(0o600))
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("credentials file: locking: %w", err)
	}
	defer lock.Close()
	keys, err := c.read()
	if err != nil {
		return err
	}
	change(keys)
	if len(keys.Providers) == 0 {
		if err := os.Remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("credentials file: %w", err)
		}
		return nil
	}
	data, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		return err
	}
	if err := writePrivate(c.path, append(data, '\n')); err != nil {
		return fmt.Errorf("credentials file: %w", err)
	}
	return nil
}
