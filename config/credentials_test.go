package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestCredentials(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dsh-acp")
	c := OpenCredentials(filepath.Join(dir, "credentials.json"))
	if key, ok, err := c.Get("deepseek"); key != "" || ok || err != nil {
		t.Errorf("Get before any file = %q, %v, %v", key, ok, err)
	}
	if err := c.Set("deepseek", "sk-one"); err != nil {
		t.Fatal(err)
	}
	checkMode(t, dir, 0o700|fs.ModeDir)
	checkMode(t, c.Path(), 0o600)
	if err := c.Set("openai", "sk-two"); err != nil {
		t.Fatal(err)
	}
	if err := c.Set("deepseek", "sk-three"); err != nil {
		t.Fatal(err)
	}
	checkMode(t, c.Path(), 0o600)
	for provider, want := range map[string]string{"deepseek": "sk-three", "openai": "sk-two"} {
		// A second handle sees what the first stored: every call reads the file.
		if key, ok, err := OpenCredentials(c.Path()).Get(provider); key != want || !ok || err != nil {
			t.Errorf("Get(%s) = %q, %v, %v; want %q", provider, key, ok, err, want)
		}
	}
	if names, err := c.Providers(); !slices.Equal(names, []string{"deepseek", "openai"}) || err != nil {
		t.Errorf("Providers() = %q, %v", names, err)
	}
	if removed, err := c.Delete("openai"); !removed || err != nil {
		t.Errorf("Delete(openai) = %v, %v", removed, err)
	}
	if removed, err := c.Delete("openai"); removed || err != nil {
		t.Errorf("Delete(openai) again = %v, %v", removed, err)
	}
	if _, ok, _ := c.Get("openai"); ok {
		t.Error("openai's key outlived Delete")
	}
	if key, _, _ := c.Get("deepseek"); key != "sk-three" {
		t.Errorf("deepseek's key = %q after deleting openai's", key)
	}
	if removed, err := c.DeleteAll(); !slices.Equal(removed, []string{"deepseek"}) || err != nil {
		t.Errorf("DeleteAll() = %q, %v", removed, err)
	}
	if _, err := os.Stat(c.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the file outlived its last key: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "credentials.json.lock" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestCredentialsRejects(t *testing.T) {
	c := OpenCredentials(filepath.Join(t.TempDir(), "credentials.json"))
	for _, tt := range []struct{ provider, key, want string }{
		{"deepseek", "", "the API key is empty"},
		{"deepseek", "sk-a b", "white space"},
		{"deepseek", "sk-a\x1b[A", "control characters"},
		{"", "sk-a", "no provider named"},
	} {
		if err := c.Set(tt.provider, tt.key); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Set(%q, %q) = %v, want %q", tt.provider, tt.key, err, tt.want)
		}
	}
	if _, err := os.Stat(c.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a rejected key created the file")
	}
	if err := os.WriteFile(c.Path(), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Get("deepseek"); err == nil || !strings.Contains(err.Error(), "credentials file "+c.Path()) {
		t.Errorf("Get from a corrupt file = %v", err)
	}
	if err := c.Set("deepseek", "sk-a"); err == nil {
		t.Error("Set over a corrupt file replaced it")
	}
}

// Processes storing keys at once lose none: the lock spans read to write.
// (Each handle opens its own lock file descriptor, as two processes do.)
func TestCredentialsConcurrentSets(t *testing.T) {
	path := filepath.Join(t.TempDir(), "credentials.json")
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			errs <- OpenCredentials(path).Set(fmt.Sprintf("p%02d", i), fmt.Sprintf("sk-%d", i))
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	names, err := OpenCredentials(path).Providers()
	if err != nil || len(names) != n {
		t.Errorf("stored %d keys (%q, %v), want %d", len(names), names, err, n)
	}
}

func checkMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode() & (fs.ModePerm | fs.ModeDir); got != want {
		t.Errorf("%s: mode %v, want %v", path, got, want)
	}
}
