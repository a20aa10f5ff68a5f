package config

import (
	"errors"
	"path/filepath"
	"strings"
)

// Dir is dsh-acp's configuration directory (config.toml,
// credentials.json, the user's slash commands in commands/) for the user
// whose environment getenv (typically os.Getenv) reads, and StateDir its
// state directory (sessions, remembered approvals, checkpoints). An
// absolute $XDG_CONFIG_HOME or $XDG_STATE_HOME wins on every platform
// ($XDG_CONFIG_HOME/dsh-acp, $XDG_STATE_HOME/dsh-acp); else:
//
//   - Linux and other Unix systems: ~/.config/dsh-acp and
//     ~/.local/state/dsh-acp (the XDG base directory defaults);
//   - macOS: ~/Library/Application Support/dsh-acp (os.UserConfigDir's
//     directory), the state in its state subdirectory;
//   - Windows: %APPDATA%\dsh-acp (os.UserConfigDir's) for the
//     configuration and credentials, %LOCALAPPDATA%\dsh-acp (the local
//     application data, which does not roam) for the state.
//
// Each fails when the environment names no directory for it.
func Dir(getenv func(string) string) (string, error) {
	p := hostPlatform()
	if dir := userDirs(p, getenv).config; dir != "" {
		return dir, nil
	}
	return "", errors.New("no configuration directory: " + p.missing("XDG_CONFIG_HOME", "APPDATA"))
}

// StateDir is dsh-acp's state directory (see Dir).
func StateDir(getenv func(string) string) (string, error) {
	p := hostPlatform()
	if dir := userDirs(p, getenv).state; dir != "" {
		return dir, nil
	}
	return "", errors.New("no state directory: " + p.missing("XDG_STATE_HOME", "LOCALAPPDATA"))
}

// dirs are the configuration and state directories; "" for one the
// environment names none for.
type dirs struct{ config, state string }

// platform is a family of systems that keep per-user files alike; the
// running one is hostPlatform (paths_windows.go, paths_darwin.go,
// paths_other.go).
type platform int

const (
	unixLike platform = iota
	macOS
	windows
)

// userDirs are the directories of Dir and StateDir on platform p.
func userDirs(p platform, getenv func(string) string) dirs {
	home := getenv("HOME")
	var d dirs
	switch p {
	case windows:
		d = dirs{config: p.join(getenv("APPDATA"), "dsh-acp"), state: p.join(getenv("LOCALAPPDATA"), "dsh-acp")}
	case macOS:
		d.config = p.join(home, "Library", "Application Support", "dsh-acp")
		d.state = p.join(d.config, "state")
	default:
		d = dirs{config: p.join(home, ".config", "dsh-acp"), state: p.join(home, ".local", "state", "dsh-acp")}
	}
	if xdg := getenv("XDG_CONFIG_HOME"); p.abs(xdg) {
		d.config = p.join(xdg, "dsh-acp")
	}
	if xdg := getenv("XDG_STATE_HOME"); p.abs(xdg) {
		d.state = p.join(xdg, "dsh-acp")
	}
	return d
}

// join joins names to base with p's separator; "" when base is not an
// absolute path.
func (p platform) join(base string, names ...string) string {
	if !p.abs(base) {
		return ""
	}
	sep := "/"
	if p == windows {
		sep = `\`
	}
	return strings.TrimRight(base, `/\`) + sep + strings.Join(names, sep)
}

// abs reports whether path is absolute on p: "C:\…" or `\\host\share…`
// on Windows (either separator), "/…" elsewhere.
func (p platform) abs(path string) bool {
	if p != windows {
		return strings.HasPrefix(path, "/")
	}
	if len(path) >= 3 && path[1] == ':' && (path[2] == '\\' || path[2] == '/') {
		return true
	}
	return strings.HasPrefix(path, `\\`) || strings.HasPrefix(path, "//")
}

// missing says which variables would have given a directory: xdg, and
// on Windows windowsVar, elsewhere HOME.
func (p platform) missing(xdg, windowsVar string) string {
	if p == windows {
		return "neither " + xdg + " nor " + windowsVar + " is set"
	}
	return "neither " + xdg + " nor HOME is set"
}

// DefaultPath is the config file read when none is named: config.toml in
// Dir.
func DefaultPath(getenv func(string) string) (string, error) {
	dir, err := Dir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "config.toml"), nil
}

// CredentialsPath is where `dsh-acp login` stores API keys:
// credentials.json in Dir.
func CredentialsPath(getenv func(string) string) (string, error) {
	dir, err := Dir(getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "credentials.json"), nil
}
