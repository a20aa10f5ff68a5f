package shell

import (
	"errors"
	"strings"
)

// hostLookup is what finding a shell program asks of the machine: an
// environment variable, a program on PATH (exec.LookPath), whether a file
// exists. Tests pass their own, so the Windows search runs on every
// platform.
type hostLookup struct {
	env      func(name string) string
	lookPath func(name string) (string, error)
	exists   func(path string) bool
}

// errNoShell is the failure of a machine with no shell program at all.
var errNoShell = errors.New("no shell program found: set DSH_SHELL to one")

// windowsShell is the program commands run with on Windows: DSH_SHELL
// when set; else Git for Windows' bash.exe (on PATH, beside git.exe on
// PATH, or in its standard install directories), never the WSL launcher
// that System32 and WindowsApps hold under that name; else PowerShell 7
// (pwsh); else Windows PowerShell.
func windowsShell(h hostLookup) (string, error) {
	if named := h.env(shellVar); named != "" {
		if path, err := h.lookPath(named); err == nil {
			return path, nil
		}
		return named, nil
	}
	if path, err := h.lookPath("bash"); err == nil && !isWSLLauncher(path, h.env) {
		return path, nil
	}
	if git, err := h.lookPath("git"); err == nil {
		if bash := gitBashBeside(git); bash != "" && h.exists(bash) {
			return bash, nil
		}
	}
	for _, base := range []string{h.env("ProgramFiles"), h.env("ProgramW6432"), h.env("ProgramFiles(x86)")} {
		if base != "" && h.exists(base+`\Git\bin\bash.exe`) {
			return base + `\Git\bin\bash.exe`, nil
		}
	}
	if local := h.env("LOCALAPPDATA"); local != "" && h.exists(local+`\Programs\Git\bin\bash.exe`) {
		return local + `\Programs\Git\bin\bash.exe`, nil
	}
	for _, name := range []string{"pwsh", "powershell"} {
		if path, err := h.lookPath(name); err == nil {
			return path, nil
		}
	}
	if root := h.env("SystemRoot"); root != "" && h.exists(root+`\System32\WindowsPowerShell\v1.0\powershell.exe`) {
		return root + `\System32\WindowsPowerShell\v1.0\powershell.exe`, nil
	}
	return "", errNoShell
}

// isWSLLauncher reports whether path is the bash.exe that starts the
// Windows Subsystem for Linux (in %SystemRoot%\System32 or a WindowsApps
// directory), whose commands would run in Linux, not on this machine.
func isWSLLauncher(path string, env func(string) string) bool {
	dir := strings.ToLower(windowsDir(path))
	if root := env("SystemRoot"); root != "" && dir == strings.ToLower(root+`\System32`) {
		return true
	}
	return strings.HasSuffix(dir, `\windowsapps`)
}

// gitBashBeside is where Git for Windows keeps bash.exe for the git.exe at
// git: <root>\bin\bash.exe, for git in <root>\cmd, <root>\bin or
// <root>\mingw64\bin; "" for a git.exe laid out otherwise.
func gitBashBeside(git string) string {
	dir := windowsDir(git)
	lower := strings.ToLower(dir)
	for _, sub := range []string{`\mingw64\bin`, `\cmd`, `\bin`} {
		if strings.HasSuffix(lower, sub) {
			return dir[:len(dir)-len(sub)] + `\bin\bash.exe`
		}
	}
	return ""
}

// windowsDir is the directory part of a Windows path (either separator).
func windowsDir(path string) string {
	return path[:max(strings.LastIndexAny(path, `\/`), 0)]
}

// posixShell is the program commands run with on Unix: DSH_SHELL when
// set, else bash on PATH, else sh on PATH, else /bin/sh.
func posixShell(h hostLookup) string {
	if named := h.env(shellVar); named != "" {
		if path, err := h.lookPath(named); err == nil {
			return path
		}
		return named
	}
	for _, name := range []string{"bash", "sh"} {
		if path, err := h.lookPath(name); err == nil {
			return path
		}
	}
	return "/bin/sh"
}
