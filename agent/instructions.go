package agent

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/workspace"
)

// Limits on what ProjectInstructions reads.
const (
	// MaxInstructionFileBytes is how much of one instruction file is read.
	MaxInstructionFileBytes = 32 << 10
	// MaxInstructionBytes is how much of all the files together is read.
	MaxInstructionBytes = 64 << 10
)

// instructionNames are the files ProjectInstructions looks for in each
// directory, in the order it reads them: AGENTS.md, the open format most
// agents read, then the files of Claude Code, Gemini CLI and GitHub
// Copilot.
func instructionNames() []string {
	return []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md", filepath.Join(".github", "copilot-instructions.md")}
}

// ProjectInstructions collects the instructions a project gives coding
// agents, for Options.Instructions. In every directory from the workspace
// root down to cwd — the root is the nearest ancestor of cwd, cwd itself
// included, that holds a .git entry; without one, cwd alone is read — it
// reads AGENTS.md, CLAUDE.md, GEMINI.md and .github/copilot-instructions.md,
// in that order, outermost directory first. Each file is given under a
// heading naming its path relative to cwd, such as "## ../AGENTS.md".
//
// A file that is the same file as, or has the same text as, one already
// given (CLAUDE.md is often a link to AGENTS.md) is given once; a file
// that is empty, unreadable or not a regular file (a FIFO is never waited
// on) is skipped, and so is one whose real path, every link followed,
// lies outside the directory it was found in (a link to
// ~/.ssh/id_ed25519, a .github that links to a directory elsewhere; a
// home directory that is a git repository makes no key below it an
// instruction of a project inside it). At most MaxInstructionFileBytes of a file and
// MaxInstructionBytes of all of them are given, cut after a whole line,
// with a note where a file was cut or left out; only a first line longer
// than MaxInstructionFileBytes is cut inside, between characters. Invalid
// UTF-8 is replaced.
//
// It returns "" when there are no instructions, and an error only when
// cwd is not a directory it can stat.
func ProjectInstructions(cwd string) (string, error) {
	dir, err := filepath.Abs(cwd)
	if err != nil {
		return "", fmt.Errorf("project instructions: %w", err)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("project instructions: %w", err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("project instructions: %s is not a directory", dir)
	}
	var (
		b     strings.Builder
		given []instructionFile
		left  []string
		room  = MaxInstructionBytes
	)
	for _, d := range workspaceDirs(dir) {
		for _, name := range instructionNames() {
			path := filepath.Join(d, name)
			f, ok := readInstructionFile(path, d)
			if !ok || f.duplicates(given) {
				continue
			}
			rel := relativePath(dir, path)
			text, cut := cutAfterLine(f.text, room, false)
			if len(text) == 0 {
				left = append(left, rel)
				continue
			}
			given = append(given, f)
			room -= len(text)
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			fmt.Fprintf(&b, "## %s\n\n%s", rel, strings.ToValidUTF8(string(bytes.TrimRight(text, "\r\n")), "\uFFFD"))
			if cut || f.cut {
				fmt.Fprintf(&b, "\n\n[This file is %d bytes long; only its first %d bytes are given here.]", f.size, len(text))
			}
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, "\n\n[Left out, past the %d KiB given to project instructions: %s.]", MaxInstructionBytes>>10, strings.Join(left, ", "))
	}
	return b.String(), nil
}

// relativePath names path relative to dir, with forward slashes.
func relativePath(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// workspaceDirs returns the directories from the workspace root down to
// dir: the nearest of dir and its ancestors that holds a .git entry, and
// each directory below it; just dir when none holds one.
func workspaceDirs(dir string) []string {
	var chain []string
	for d := dir; ; {
		chain = append(chain, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
				chain[i], chain[j] = chain[j], chain[i]
			}
			return chain
		}
		parent := filepath.Dir(d)
		if parent == d {
			return []string{dir}
		}
		d = parent
	}
}

// instructionFile is the read part of one instruction file.
type instructionFile struct {
	info os.FileInfo
	// text is the file's first MaxInstructionFileBytes, cut after the last
	// whole line when the file is longer (then cut is set), or inside its
	// first line when that line alone is longer.
	text []byte
	cut  bool
	size int64
}

// duplicates reports whether f is the same file as one of given, or has
// the same text as one read whole.
func (f instructionFile) duplicates(given []instructionFile) bool {
	for _, g := range given {
		if os.SameFile(f.info, g.info) || (!f.cut && !g.cut && bytes.Equal(f.text, g.text)) {
			return true
		}
	}
	return false
}

// readInstructionFile reads the first MaxInstructionFileBytes of the
// regular file at path, when its real path (every link followed) lies
// inside dir: a link to ~/.ssh/id_ed25519 is no project instruction. It
// opens without blocking, so a FIFO or a device is skipped, never waited
// on (workspace.ReadFileWithin). ok is false when the file lies outside,
// cannot be read, is not a regular file, or holds only white space.
func readInstructionFile(path, dir string) (f instructionFile, ok bool) {
	data, info, err := workspace.ReadFileWithin(path, MaxInstructionFileBytes, dir)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return f, false
	}
	f = instructionFile{info: info, size: max(info.Size(), int64(len(data)))}
	f.text, f.cut = cutAfterLine(data, MaxInstructionFileBytes, true)
	return f, true
}

// cutAfterLine returns data when it is at most limit bytes long;
// otherwise its longest prefix within limit that ends a line, or, when no
// line ends within limit and partial is set, that ends a UTF-8 character
// (nothing when partial is not set); cut reports whether anything was
// cut.
func cutAfterLine(data []byte, limit int, partial bool) (text []byte, cut bool) {
	if len(data) <= limit {
		return data, false
	}
	n := max(limit, 0)
	if i := bytes.LastIndexByte(data[:n], '\n'); i >= 0 {
		return data[:i+1], true
	}
	if !partial {
		return nil, true
	}
	for n > 0 && !utf8.RuneStart(data[n]) {
		n--
	}
	return data[:n], true
}
