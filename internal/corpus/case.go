package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// Case is one scripted session: the model's script, the client that drives
// it, the workspace it starts from, and what must hold afterwards.
type Case struct {
	// Name identifies the case; About says what it shows; Issue names the
	// issue item it guards, if any.
	Name  string `json:"name"`
	About string `json:"about"`
	Issue string `json:"issue,omitempty"`
	// Script is the model script, relative to the corpus directory.
	Script string `json:"script"`
	// Client is "zed" (Zed's initialize: editor files, the terminal
	// convention) or "plain" (no client capabilities).
	Client string `json:"client"`
	// Preset is the permission preset (--permission); empty means the
	// default, workspace-write.
	Preset string `json:"preset,omitempty"`
	// Setup prepares the workspace and the environment.
	Setup Setup `json:"setup"`
	// Permission answers every permission request: an option id, or
	// "cancelled" for the cancelled outcome. Empty answers "reject-once".
	Permission string `json:"permission,omitempty"`
	// Prompts are sent in order, one turn each, in one session.
	Prompts []string `json:"prompts"`
	// Expect is what must hold after the last prompt.
	Expect Expect `json:"expect"`
	// Golden, when set, is the file (relative to the corpus directory)
	// holding the exact session/update frames of the case (GoldenUpdates).
	Golden string `json:"golden,omitempty"`
}

// Setup is the state a case starts from.
type Setup struct {
	// Files are created in the workspace (relative path → content).
	Files map[string]string `json:"files,omitempty"`
	// Outside are created in the directory beside the workspace.
	Outside map[string]string `json:"outside,omitempty"`
	// FIFOs are named pipes created in the workspace.
	FIFOs []string `json:"fifos,omitempty"`
	// Symlinks are created in the workspace: link → target ($OUTSIDE etc.
	// expanded; the target need not exist).
	Symlinks map[string]string `json:"symlinks,omitempty"`
	// Buffers are files the editor holds unsaved and the disk lacks: the
	// client answers fs/read_text_file for them from here.
	Buffers map[string]string `json:"buffers,omitempty"`
	// Env is added to the agent's environment.
	Env map[string]string `json:"env,omitempty"`
}

// Expect is what must hold once the case's prompts are answered. Call ids
// are the script's tool call ids.
type Expect struct {
	// StopReasons are the prompts' stop reasons, in order.
	StopReasons []string `json:"stopReasons"`
	// Permissions is the number of permission requests, when set.
	Permissions *int `json:"permissions,omitempty"`
	// Status is each call's final status.
	Status map[string]string `json:"status,omitempty"`
	// Includes and Excludes are strings the JSON of a call's updates must
	// (not) contain.
	Includes map[string][]string `json:"includes,omitempty"`
	Excludes map[string][]string `json:"excludes,omitempty"`
	// ExcludesAll are strings no frame the agent wrote may contain.
	ExcludesAll []string `json:"excludesAll,omitempty"`
	// Absent are paths that must not exist afterwards.
	Absent []string `json:"absent,omitempty"`
	// Files are paths and their content afterwards.
	Files map[string]string `json:"files,omitempty"`
	// DiffOldText is, per call, the oldText one of its diffs must carry.
	DiffOldText map[string]string `json:"diffOldText,omitempty"`
	// RawInput is, per call, the rawInput its tool_call must carry.
	RawInput map[string]json.RawMessage `json:"rawInput,omitempty"`
	// FSWrites is the number of fs/write_text_file requests, when set.
	FSWrites *int `json:"fsWrites,omitempty"`
}

// Dir returns the corpus directory: testdata/ at the module root, found
// from this source file's location.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "testdata"
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// Load reads dir/cases.json and checks that every case names a script
// that exists.
func Load(dir string) ([]Case, error) {
	data, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		return nil, fmt.Errorf("load corpus: %w", err)
	}
	var cases []Case
	if err := json.Unmarshal(data, &cases); err != nil {
		return nil, fmt.Errorf("load corpus: cases.json: %w", err)
	}
	seen := map[string]bool{}
	for i, c := range cases {
		if err := c.check(dir); err != nil {
			return nil, fmt.Errorf("load corpus: case %d (%q): %w", i, c.Name, err)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("load corpus: case %q is defined twice", c.Name)
		}
		seen[c.Name] = true
	}
	return cases, nil
}

// check reports what makes c unusable.
func (c Case) check(dir string) error {
	switch {
	case c.Name == "":
		return errors.New("no name")
	case c.Client != "zed" && c.Client != "plain":
		return fmt.Errorf("client %q is neither zed nor plain", c.Client)
	case len(c.Prompts) == 0:
		return errors.New("no prompts")
	case len(c.Expect.StopReasons) != len(c.Prompts):
		return fmt.Errorf("%d prompts but %d stop reasons", len(c.Prompts), len(c.Expect.StopReasons))
	}
	if _, err := os.Stat(c.ScriptPath(dir)); err != nil {
		return fmt.Errorf("script: %w", err)
	}
	return nil
}

// ScriptPath is the absolute path of the case's model script.
func (c Case) ScriptPath(dir string) string {
	return filepath.Join(dir, filepath.FromSlash(c.Script))
}

// PermissionAnswer is the option id the client selects, or "cancelled".
func (c Case) PermissionAnswer() string {
	if c.Permission == "" {
		return "reject-once"
	}
	return c.Permission
}
