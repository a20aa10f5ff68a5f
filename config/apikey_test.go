package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAPIKey(t *testing.T) {
	f, err := Parse("c.toml", []byte(`
[providers.local]
base_url = "http://localhost:11434/v1"
keyless = true
[providers.vault]
base_url = "https://vault.example/v1"
`))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	creds := OpenCredentials(filepath.Join(dir, "credentials.json"))
	for provider, key := range map[string]string{"deepseek": "sk-stored", "vault": "sk-vault", "local": "sk-local"} {
		if err := creds.Set(provider, key); err != nil {
			t.Fatal(err)
		}
	}
	empty := OpenCredentials(filepath.Join(dir, "none.json"))
	tests := []struct {
		name       string
		provider   string
		env        map[string]string
		creds      *Credentials
		key, from  string
		wantErr    string
		wantNoAuth bool
	}{
		{name: "DSH_API_KEY wins", provider: "deepseek", env: map[string]string{"DSH_API_KEY": " sk-env ", "DEEPSEEK_API_KEY": "sk-ds"}, creds: creds,
			key: "sk-env", from: "environment variable DSH_API_KEY"},
		{name: "then DEEPSEEK_API_KEY", provider: "deepseek", env: map[string]string{"DSH_API_KEY": " ", "DEEPSEEK_API_KEY": "sk-ds"}, creds: creds,
			key: "sk-ds", from: "environment variable DEEPSEEK_API_KEY"},
		{name: "then the credentials file", provider: "deepseek", creds: creds, key: "sk-stored", from: "credentials file " + creds.Path()},
		{name: "a provider without variables", provider: "vault", creds: creds, key: "sk-vault", from: "credentials file " + creds.Path()},
		{name: "a keyless provider uses a key it has", provider: "local", creds: creds, key: "sk-local", from: "credentials file " + creds.Path()},
		{name: "a keyless provider needs none", provider: "local", creds: empty},
		{name: "nil credentials", provider: "local"},
		{name: "OPENAI_API_KEY", provider: "openai", env: map[string]string{"OPENAI_API_KEY": "sk-oa", "DSH_API_KEY": "sk-env"}, creds: creds,
			key: "sk-oa", from: "environment variable OPENAI_API_KEY"},
		{name: "no key", provider: "openai", env: map[string]string{"DSH_API_KEY": "sk-env"}, creds: creds, wantNoAuth: true,
			wantErr: "no API key for openai: set OPENAI_API_KEY, or run `dsh-acp login --provider openai`"},
		{name: "no key, no variables", provider: "vault", creds: empty, wantNoAuth: true,
			wantErr: "no API key for vault: run `dsh-acp login --provider vault`"},
		{name: "unknown provider", provider: "nope", wantErr: `unknown provider "nope" (known: deepseek, local, openai, vault)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, from, err := f.APIKey(tt.provider, func(name string) string { return tt.env[name] }, tt.creds)
			if tt.wantErr != "" {
				var missing *MissingKeyError
				if err == nil || err.Error() != tt.wantErr || errors.As(err, &missing) != tt.wantNoAuth {
					t.Fatalf("error = %v, want %q (a *MissingKeyError: %v)", err, tt.wantErr, tt.wantNoAuth)
				}
				return
			}
			if err != nil || key != tt.key || from != tt.from {
				t.Errorf("APIKey = %q, %q, %v; want %q, %q", key, from, err, tt.key, tt.from)
			}
		})
	}
	if err := os.WriteFile(empty.Path(), []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.APIKey("vault", func(string) string { return "" }, empty); err == nil || !strings.Contains(err.Error(), "credentials file") {
		t.Errorf("a corrupt credentials file: %v", err)
	}
}

// What a session/new pays to find a key stored by `dsh-acp login` (the
// file is read afresh each time).
func BenchmarkAPIKeyFromCredentials(b *testing.B) {
	f := Default()
	creds := OpenCredentials(filepath.Join(b.TempDir(), "credentials.json"))
	if err := creds.Set("deepseek", "sk-bench"); err != nil {
		b.Fatal(err)
	}
	getenv := func(string) string { return "" }
	for b.Loop() {
		if key, _, err := f.APIKey("deepseek", getenv, creds); key != "sk-bench" || err != nil {
			b.Fatal(key, err)
		}
	}
}
