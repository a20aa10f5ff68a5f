package app

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// maxCommandFile bounds a prompt file read as a slash command.
const maxCommandFile = 64 << 10

// CommandDir is a directory of slash-command files, and the directory
// their real paths must lie in: the workspace root for a project's
// commands, the config directory for the user's.
type CommandDir struct {
	Dir    string
	Within string
}

// LoadCommands reads the user's own slash commands: each Markdown file
// name.md in dirs is the command /name, its text the prompt ($ARGUMENTS
// becomes what follows the command). A file may open with front matter
// (between two "---" lines) whose "description:" line describes it;
// otherwise its first line does. A later directory's command replaces an
// earlier one of the same name, so a project's commands win over the
// user's. A missing directory holds none; files with names that are not
// a command's (letters, digits, - and _), too large, unreadable, not
// regular files (a FIFO is never waited on) or leading outside their
// directory's Within once links are followed (a project's .dsh/commands
// linking to ~/.ssh) are skipped.
func LoadCommands(dirs ...CommandDir) []live.Command {
	byName := map[string]live.Command{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir.Dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), ".md")
			if !ok || !commandName.MatchString(name) {
				continue
			}
			text, err := readCommandFile(filepath.Join(dir.Dir, e.Name()), dir.Within)
			if err != nil {
				continue
			}
			description, prompt := splitFrontMatter(text)
			byName[name] = live.Command{Name: name, Description: description, Prompt: prompt}
		}
	}
	out := make([]live.Command, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// commandName is what a command may be called.
var commandName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// readCommandFile reads a regular file of at most maxCommandFile bytes
// whose real path lies inside within.
func readCommandFile(path, within string) (string, error) {
	data, _, err := workspace.ReadFileWithin(path, maxCommandFile, within)
	if err != nil {
		return "", err
	}
	if len(data) > maxCommandFile {
		return "", fmt.Errorf("%s: longer than %d bytes", path, maxCommandFile)
	}
	return string(data), nil
}

// splitFrontMatter returns a command file's description and prompt.
func splitFrontMatter(text string) (description, prompt string) {
	prompt = text
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		if head, body, ok := strings.Cut(rest, "\n---\n"); ok {
			prompt = body
			for line := range strings.Lines(head) {
				if v, ok := strings.CutPrefix(strings.TrimSpace(line), "description:"); ok {
					description = strings.Trim(strings.TrimSpace(v), `"'`)
				}
			}
		}
	}
	if description == "" {
		for line := range strings.Lines(prompt) {
			if line = strings.TrimSpace(strings.TrimLeft(line, "# ")); line != "" {
				description = line
				break
			}
		}
	}
	if r := []rune(description); len(r) > 100 {
		description = string(r[:100]) + "…"
	}
	return description, strings.TrimSpace(prompt)
}
