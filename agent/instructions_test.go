package agent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
)

// tree writes files (path → content; a path ending in "/" is a directory)
// under a temporary directory and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for path, content := range files {
		full := filepath.Join(root, filepath.FromSlash(path))
		if strings.HasSuffix(path, "/") {
			if err := os.MkdirAll(full, 0o700); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestProjectInstructions(t *testing.T) {
	big := strings.Repeat("a line of instructions, about forty bytes\n", 1000) // 42,000 bytes
	tests := []struct {
		name  string
		files map[string]string
		cwd   string
		setup func(t *testing.T, root string)
		want  string
	}{
		{
			name:  "none",
			files: map[string]string{"repo/.git/": "", "repo/src/": ""},
			cwd:   "repo/src",
			want:  "",
		},
		{
			name: "from the workspace root down to cwd, outermost first",
			files: map[string]string{
				"AGENTS.md":              "above the workspace: never read",
				"repo/.git/":             "",
				"repo/AGENTS.md":         "root rules",
				"repo/pkg/CLAUDE.md":     "pkg rules",
				"repo/pkg/a/GEMINI.md":   "gemini rules",
				"repo/pkg/a/AGENTS.md":   "a rules\n",
				"repo/pkg/a/b/AGENTS.md": "below cwd: never read",
			},
			cwd:  "repo/pkg/a",
			want: "## ../../AGENTS.md\n\nroot rules\n\n## ../CLAUDE.md\n\npkg rules\n\n## AGENTS.md\n\na rules\n\n## GEMINI.md\n\ngemini rules",
		},
		{
			name:  "a .git file marks the root too (a worktree)",
			files: map[string]string{"AGENTS.md": "outer", "wt/.git": "gitdir: /elsewhere", "wt/AGENTS.md": "inner", "wt/sub/": ""},
			cwd:   "wt/sub",
			want:  "## ../AGENTS.md\n\ninner",
		},
		{
			name:  "without a .git, cwd alone",
			files: map[string]string{"AGENTS.md": "outer", "dir/CLAUDE.md": "here"},
			cwd:   "dir",
			want:  "## CLAUDE.md\n\nhere",
		},
		{
			name:  "copilot's file",
			files: map[string]string{".git/": "", ".github/copilot-instructions.md": "use tabs"},
			cwd:   ".",
			want:  "## .github/copilot-instructions.md\n\nuse tabs",
		},
		{
			name:  "the same text twice is given once",
			files: map[string]string{".git/": "", "AGENTS.md": "same", "CLAUDE.md": "same", "GEMINI.md": "other"},
			cwd:   ".",
			want:  "## AGENTS.md\n\nsame\n\n## GEMINI.md\n\nother",
		},
		{
			name:  "a link to a file already given is given once",
			files: map[string]string{".git/": "", "AGENTS.md": "linked"},
			cwd:   ".",
			setup: func(t *testing.T, root string) {
				if err := os.Symlink("AGENTS.md", filepath.Join(root, "CLAUDE.md")); err != nil {
					t.Skip("no symlinks here:", err)
				}
			},
			want: "## AGENTS.md\n\nlinked",
		},
		{
			name:  "empty files and directories are skipped",
			files: map[string]string{".git/": "", "AGENTS.md": " \n\t\n", "CLAUDE.md/": "", "GEMINI.md": "kept"},
			cwd:   ".",
			want:  "## GEMINI.md\n\nkept",
		},
		{
			name:  "a dangling link is skipped",
			files: map[string]string{".git/": "", "CLAUDE.md": "kept"},
			cwd:   ".",
			setup: func(t *testing.T, root string) {
				if err := os.Symlink("missing.md", filepath.Join(root, "AGENTS.md")); err != nil {
					t.Skip("no symlinks here:", err)
				}
			},
			want: "## CLAUDE.md\n\nkept",
		},
		{
			name:  "invalid UTF-8 is replaced",
			files: map[string]string{".git/": "", "AGENTS.md": "caf\xe9"},
			cwd:   ".",
			want:  "## AGENTS.md\n\ncaf\uFFFD",
		},
		{
			name:  "a long file is cut after a whole line",
			files: map[string]string{".git/": "", "AGENTS.md": big},
			cwd:   ".",
			want: "## AGENTS.md\n\n" + strings.TrimSuffix(big[:32760], "\n") +
				"\n\n[This file is 42000 bytes long; only its first 32760 bytes are given here.]",
		},
		{
			name:  "a first line longer than the cap is cut between characters",
			files: map[string]string{".git/": "", "AGENTS.md": "x" + strings.Repeat("é", 19999)},
			cwd:   ".",
			want: "## AGENTS.md\n\nx" + strings.Repeat("é", 16383) +
				"\n\n[This file is 39999 bytes long; only its first 32767 bytes are given here.]",
		},
		{
			name:  "past the total, files are cut and left out",
			files: map[string]string{".git/": "", "AGENTS.md": big, "CLAUDE.md": big + "x", "GEMINI.md": big + "y", "sub/AGENTS.md": "inner"},
			cwd:   "sub",
			// Two files of 32,760 bytes leave 16 of the 65,536: less than
			// GEMINI.md's first line, enough for the inner AGENTS.md.
			want: "## ../AGENTS.md\n\n" + strings.TrimSuffix(big[:32760], "\n") +
				"\n\n[This file is 42000 bytes long; only its first 32760 bytes are given here.]" +
				"\n\n## ../CLAUDE.md\n\n" + strings.TrimSuffix(big[:32760], "\n") +
				"\n\n[This file is 42001 bytes long; only its first 32760 bytes are given here.]" +
				"\n\n## AGENTS.md\n\ninner" +
				"\n\n[Left out, past the 64 KiB given to project instructions: ../GEMINI.md.]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tree(t, tt.files)
			if tt.setup != nil {
				tt.setup(t, root)
			}
			got, err := agent.ProjectInstructions(filepath.Join(root, tt.cwd))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("instructions =\n%q\nwant\n%q", tail(got), tail(tt.want))
			}
			if len(got) > agent.MaxInstructionBytes+1024 {
				t.Errorf("%d bytes of instructions", len(got))
			}
		})
	}
}

func TestProjectInstructionsNeedACwd(t *testing.T) {
	root := tree(t, map[string]string{"file": "x"})
	for _, cwd := range []string{filepath.Join(root, "missing"), filepath.Join(root, "file")} {
		if _, err := agent.ProjectInstructions(cwd); err == nil {
			t.Errorf("ProjectInstructions(%s) succeeded", cwd)
		}
	}
}

func TestUnreadableInstructionsAreSkipped(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	root := tree(t, map[string]string{".git/": "", "AGENTS.md": "secret", "CLAUDE.md": "kept"})
	if err := os.Chmod(filepath.Join(root, "AGENTS.md"), 0); err != nil {
		t.Fatal(err)
	}
	got, err := agent.ProjectInstructions(root)
	if err != nil || got != "## CLAUDE.md\n\nkept" {
		t.Errorf("ProjectInstructions = %q, %v", got, err)
	}
}

// tail is the end of s, where long instructions differ.
func tail(s string) string {
	return s[max(0, len(s)-300):]
}

// BenchmarkProjectInstructions reads a workspace three directories deep
// with an instruction file in two of them.
func BenchmarkProjectInstructions(b *testing.B) {
	root := b.TempDir()
	cwd := filepath.Join(root, "a", "b", "c")
	for _, p := range []string{filepath.Join(root, ".git"), cwd} {
		if err := os.MkdirAll(p, 0o700); err != nil {
			b.Fatal(err)
		}
	}
	rules := strings.Repeat("Keep functions small and tests table-driven.\n", 40)
	for _, p := range []string{filepath.Join(root, "AGENTS.md"), filepath.Join(cwd, "CLAUDE.md")} {
		if err := os.WriteFile(p, []byte(rules), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := agent.ProjectInstructions(cwd); err != nil {
			b.Fatal(err)
		}
	}
}
