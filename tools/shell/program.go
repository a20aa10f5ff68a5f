package shell

import (
	"encoding/base64"
	"encoding/binary"
	"unicode/utf16"

	"github.com/dsh-acp/dsh-acp/command"
)

// shellVar names the variable that chooses the shell program when
// Options.Shell is empty: a path, or a name looked up on PATH.
const shellVar = "DSH_SHELL"

// program is the shell a command line runs with and the dialect it reads.
type program struct {
	path    string
	dialect command.Dialect
}

// programAt is the shell program at path, its dialect told by its name
// (command.DialectOf).
func programAt(path string) program {
	return program{path: path, dialect: command.DialectOf(path)}
}

// powerShellPrelude makes PowerShell write UTF-8 without a byte-order mark
// to its pipes (Windows PowerShell writes the console's code page
// otherwise) and keeps progress bars out of the output.
const powerShellPrelude = "$ProgressPreference = 'SilentlyContinue'; [Console]::OutputEncoding = [System.Text.UTF8Encoding]::new($false); $OutputEncoding = [Console]::OutputEncoding\n"

// args are the arguments that run line: `-c <line>` for a POSIX shell;
// for PowerShell, the line (after powerShellPrelude) as -EncodedCommand,
// base64 of its UTF-16LE text, so no quoting rule of the Windows command
// line can change it on the way, and no profile, logo or prompt.
func (p program) args(line string) []string {
	if p.dialect == command.PowerShell {
		return []string{"-NoLogo", "-NoProfile", "-NonInteractive", "-EncodedCommand", encodePowerShell(powerShellPrelude + line)}
	}
	return []string{"-c", line}
}

// encodePowerShell is text as -EncodedCommand takes it.
func encodePowerShell(text string) string {
	units := utf16.Encode([]rune(text))
	raw := make([]byte, 2*len(units))
	for i, u := range units {
		binary.LittleEndian.PutUint16(raw[2*i:], u)
	}
	return base64.StdEncoding.EncodeToString(raw)
}
