package command

import "strings"

// Dialect is the language a shell program reads command lines in. The
// policy parses and judges Bash lines only (Parse, Evaluate); a
// PowerShell line runs without asking only when it is plain words that a
// remembered rule allows (PlainWords).
type Dialect int

const (
	// Bash is a POSIX shell: bash, sh, zsh, dash, Git for Windows' bash.
	Bash Dialect = iota
	// PowerShell is pwsh (PowerShell 7) or Windows PowerShell.
	PowerShell
)

// String names the dialect: "bash" or "PowerShell".
func (d Dialect) String() string {
	if d == PowerShell {
		return "PowerShell"
	}
	return "bash"
}

// DialectOf is the dialect of the shell program at path, by its file
// name (either separator, any case, with or without .exe): pwsh and
// powershell read PowerShell, every other program is taken for a POSIX
// shell.
func DialectOf(path string) Dialect {
	name := strings.ToLower(path[strings.LastIndexAny(path, `/\`)+1:])
	switch strings.TrimSuffix(name, ".exe") {
	case "pwsh", "powershell":
		return PowerShell
	}
	return Bash
}

// PlainWords splits a PowerShell line into its words when it is nothing
// but words made of letters, digits and _ - . / \ : = + separated by
// spaces or tabs: a program and its arguments, with no quoting,
// variable, expression, script block, pipeline, redirection, operator,
// statement separator or comment that would need PowerShell's parser to
// read. ok is false for every other line (and for an empty one). The
// program word is lower-cased and loses a ".exe" suffix, as Windows
// finds programs regardless of case and extension.
func PlainWords(line string) (words []string, ok bool) {
	for _, r := range line {
		if !plainRune(r) && r != ' ' && r != '\t' {
			return nil, false
		}
	}
	words = strings.Fields(line)
	if len(words) == 0 {
		return nil, false
	}
	words[0] = strings.TrimSuffix(strings.ToLower(words[0]), ".exe")
	return words, true
}

// plainRune reports whether r may appear in a plain PowerShell word.
func plainRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune(`_-./\:=+`, r)
}
