package config

import "testing"

// TestUserDirs runs every platform's rule here, whatever the platform
// the tests run on.
func TestUserDirs(t *testing.T) {
	for _, tt := range []struct {
		name          string
		p             platform
		env           map[string]string
		config, state string // "": none
	}{
		{"linux: XDG", unixLike, map[string]string{"XDG_CONFIG_HOME": "/x", "XDG_STATE_HOME": "/s", "HOME": "/h"}, "/x/dsh-acp", "/s/dsh-acp"},
		{"linux: HOME", unixLike, map[string]string{"HOME": "/h"}, "/h/.config/dsh-acp", "/h/.local/state/dsh-acp"},
		{"linux: a relative XDG is ignored", unixLike, map[string]string{"XDG_CONFIG_HOME": "x", "XDG_STATE_HOME": "s", "HOME": "/h/"}, "/h/.config/dsh-acp", "/h/.local/state/dsh-acp"},
		{"linux: neither", unixLike, nil, "", ""},
		{"mac: HOME", macOS, map[string]string{"HOME": "/Users/u"}, "/Users/u/Library/Application Support/dsh-acp", "/Users/u/Library/Application Support/dsh-acp/state"},
		{"mac: XDG wins", macOS, map[string]string{"HOME": "/Users/u", "XDG_CONFIG_HOME": "/Users/u/.config"}, "/Users/u/.config/dsh-acp", "/Users/u/Library/Application Support/dsh-acp/state"},
		{"windows: app data", windows, map[string]string{"APPDATA": `C:\Users\u\AppData\Roaming`, "LOCALAPPDATA": `C:\Users\u\AppData\Local`, "HOME": `C:\Users\u`}, `C:\Users\u\AppData\Roaming\dsh-acp`, `C:\Users\u\AppData\Local\dsh-acp`},
		{"windows: XDG wins", windows, map[string]string{"APPDATA": `C:\a`, "LOCALAPPDATA": `C:\l`, "XDG_STATE_HOME": `D:/state`}, `C:\a\dsh-acp`, `D:/state\dsh-acp`},
		{"windows: a Unix path is not absolute", windows, map[string]string{"XDG_CONFIG_HOME": "/x", "APPDATA": `C:\a`}, `C:\a\dsh-acp`, ""},
		{"windows: no app data", windows, map[string]string{"HOME": `C:\Users\u`}, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := userDirs(tt.p, func(name string) string { return tt.env[name] })
			if d.config != tt.config || d.state != tt.state {
				t.Errorf("userDirs = %+v, want config %q, state %q", d, tt.config, tt.state)
			}
		})
	}
}

// TestPaths: the config file and the credentials live in the
// configuration directory; without one, each is an error.
func TestPaths(t *testing.T) {
	home := map[string]string{"HOME": "/h", "APPDATA": `C:\a`, "LOCALAPPDATA": `C:\l`}
	getenv := func(name string) string { return home[name] }
	dir, err := Dir(getenv)
	if err != nil || dir != userDirs(hostPlatform(), getenv).config {
		t.Fatalf("Dir = %q, %v", dir, err)
	}
	if state, err := StateDir(getenv); err != nil || state != userDirs(hostPlatform(), getenv).state {
		t.Errorf("StateDir = %q, %v", state, err)
	}
	file, err1 := DefaultPath(getenv)
	creds, err2 := CredentialsPath(getenv)
	if err1 != nil || err2 != nil || file != dir+sep()+"config.toml" || creds != dir+sep()+"credentials.json" {
		t.Errorf("DefaultPath = %q, %v; CredentialsPath = %q, %v", file, err1, creds, err2)
	}
	none := func(string) string { return "" }
	if _, err := Dir(none); err == nil {
		t.Error("Dir without an environment: no error")
	}
	if _, err := DefaultPath(none); err == nil {
		t.Error("DefaultPath without an environment: no error")
	}
	if _, err := CredentialsPath(none); err == nil {
		t.Error("CredentialsPath without an environment: no error")
	}
	if _, err := StateDir(none); err == nil {
		t.Error("StateDir without an environment: no error")
	}
}

func sep() string {
	if hostPlatform() == windows {
		return `\`
	}
	return "/"
}
