package config

import (
	"errors"
	"path/filepath"
)

// Dir is dsh-acp's configuration directory: $XDG_CONFIG_HOME/dsh-acp, or
// $HOME/.config/dsh-acp when XDG_CONFIG_HOME is unset or not absolute
// (the XDG base directory rule). getenv is typically os.Getenv. It fails
// when neither variable gives a directory.
func Dir(getenv func(string) string) (string, error) {
	if xdg := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(xdg) {
		return filepath.Join(xdg, "dsh-acp"), nil
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "dsh-acp"), nil
	}
	return "", errors.New("no configuration directory: neither XDG_CONFIG_HOME nor HOME is set")
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
