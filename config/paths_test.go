package config

import "testing"

func TestPaths(t *testing.T) {
	tests := []struct {
		name             string
		env              map[string]string
		dir, file, creds string
		wantErr          bool
	}{
		{"XDG_CONFIG_HOME", map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/dsh-acp", "/x/dsh-acp/config.toml", "/x/dsh-acp/credentials.json", false},
		{"HOME", map[string]string{"HOME": "/h"}, "/h/.config/dsh-acp", "/h/.config/dsh-acp/config.toml", "/h/.config/dsh-acp/credentials.json", false},
		{"a relative XDG_CONFIG_HOME is ignored", map[string]string{"XDG_CONFIG_HOME": "x", "HOME": "/h"}, "/h/.config/dsh-acp", "/h/.config/dsh-acp/config.toml", "/h/.config/dsh-acp/credentials.json", false},
		{"neither", nil, "", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(name string) string { return tt.env[name] }
			dir, err1 := Dir(getenv)
			file, err2 := DefaultPath(getenv)
			creds, err3 := CredentialsPath(getenv)
			if tt.wantErr {
				if err1 == nil || err2 == nil || err3 == nil {
					t.Errorf("no error: %q %q %q", dir, file, creds)
				}
				return
			}
			if err1 != nil || err2 != nil || err3 != nil || dir != tt.dir || file != tt.file || creds != tt.creds {
				t.Errorf("got %q %q %q (%v %v %v)", dir, file, creds, err1, err2, err3)
			}
		})
	}
}
