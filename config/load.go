package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/pelletier/go-toml/v2"
)

// Load reads the config file at path. Every problem is an error naming
// the file, the line and the key (an *Error, or several joined): a syntax
// error, an unknown key or table, a value of the wrong type, and a value
// that makes no sense (an unknown provider, a negative price, a default
// model that does not exist, ...). Nothing wrong is replaced by a
// default. A file that cannot be read is an error wrapping the cause,
// fs.ErrNotExist when it is missing.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	return Parse(path, data)
}

// LoadOrDefault is Load, except that a missing file is Default: for the
// default path, which need not exist.
func LoadOrDefault(path string) (*File, error) {
	f, err := Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	return f, err
}

// Parse reads a config file's contents; path names the file in the
// result and in errors. It fails as Load does.
func Parse(path string, data []byte) (*File, error) {
	var raw rawFile
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, decodeErrors(path, data, err)
	}
	b := builder{path: path, pos: indexPositions(data)}
	f := b.build(&raw)
	if err := b.err(); err != nil {
		return nil, err
	}
	return f, nil
}

// rawFile is the file as written: nil is "not given".
type rawFile struct {
	Model     *string                `toml:"model"`
	Preset    *string                `toml:"preset"`
	Providers map[string]rawProvider `toml:"providers"`
	Models    map[string]rawModel    `toml:"models"`
	// MCPServers and LanguageServers are tables of tables by name.
	MCPServers      map[string]rawMCPServer      `toml:"mcp_servers"`
	LanguageServers map[string]rawLanguageServer `toml:"language_servers"`
	Sandbox         *rawSandbox                  `toml:"sandbox"`
	Subagents       *rawSubagents                `toml:"subagents"`
}

type rawProvider struct {
	BaseURL *string `toml:"base_url"`
	// APIKeyEnv is a string or a list of strings; build checks which.
	APIKeyEnv any   `toml:"api_key_env"`
	Keyless   *bool `toml:"keyless"`
}

type rawModel struct {
	Provider         *string   `toml:"provider"`
	ID               *string   `toml:"id"`
	Name             *string   `toml:"name"`
	ContextWindow    *int64    `toml:"context_window"`
	Price            *rawPrice `toml:"price"`
	ReasoningEfforts *[]string `toml:"reasoning_efforts"`
	ReasoningEffort  *string   `toml:"reasoning_effort"`
	Thinking         *string   `toml:"thinking"`
	Images           *bool     `toml:"images"`
}

type rawPrice struct {
	Input       *float64 `toml:"input"`
	CachedInput *float64 `toml:"cached_input"`
	Output      *float64 `toml:"output"`
	Currency    *string  `toml:"currency"`
}
