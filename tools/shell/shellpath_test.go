package shell

import (
	"encoding/base64"
	"errors"
	"slices"
	"testing"
	"unicode/utf16"
)

// fakeHost is a machine for the shell search: its environment, the
// programs on its PATH (name → path) and its files.
type fakeHost struct {
	env   map[string]string
	path  map[string]string
	files []string
}

func (h fakeHost) lookup() hostLookup {
	return hostLookup{
		env: func(name string) string { return h.env[name] },
		lookPath: func(name string) (string, error) {
			if p, ok := h.path[name]; ok {
				return p, nil
			}
			return "", errors.New("not found")
		},
		exists: func(path string) bool { return slices.Contains(h.files, path) },
	}
}

func TestWindowsShell(t *testing.T) {
	windowsEnv := map[string]string{"SystemRoot": `C:\Windows`, "ProgramFiles": `C:\Program Files`, "LOCALAPPDATA": `C:\Users\u\AppData\Local`}
	const gitBash = `C:\Program Files\Git\bin\bash.exe`
	for _, tt := range []struct {
		name string
		host fakeHost
		want string
	}{
		{"DSH_SHELL names a program on PATH", fakeHost{env: map[string]string{"DSH_SHELL": "zsh"}, path: map[string]string{"zsh": `C:\msys\zsh.exe`, "bash": `C:\x\bash.exe`}}, `C:\msys\zsh.exe`},
		{"DSH_SHELL names a path", fakeHost{env: map[string]string{"DSH_SHELL": `D:\sh\bash.exe`}}, `D:\sh\bash.exe`},
		{"Git's bash on PATH", fakeHost{env: windowsEnv, path: map[string]string{"bash": gitBash, "pwsh": `C:\pwsh.exe`}}, gitBash},
		{"WSL's bash in System32 is skipped", fakeHost{env: windowsEnv, path: map[string]string{"bash": `C:\WINDOWS\system32\bash.exe`, "pwsh": `C:\Program Files\PowerShell\7\pwsh.exe`}}, `C:\Program Files\PowerShell\7\pwsh.exe`},
		{"WSL's bash in WindowsApps is skipped", fakeHost{env: windowsEnv, path: map[string]string{"bash": `C:\Users\u\AppData\Local\Microsoft\WindowsApps\bash.exe`}, files: []string{gitBash}}, gitBash},
		{"bash beside git in cmd", fakeHost{env: windowsEnv, path: map[string]string{"git": `D:\Git\cmd\git.exe`}, files: []string{`D:\Git\bin\bash.exe`}}, `D:\Git\bin\bash.exe`},
		{"bash beside git in mingw64", fakeHost{env: windowsEnv, path: map[string]string{"git": `D:\Git\mingw64\bin\git.exe`}, files: []string{`D:\Git\bin\bash.exe`}}, `D:\Git\bin\bash.exe`},
		{"a git with no bash beside it", fakeHost{env: windowsEnv, path: map[string]string{"git": `D:\scoop\git.exe`, "powershell": `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`}}, `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`},
		{"the standard install directory", fakeHost{env: windowsEnv, files: []string{gitBash}}, gitBash},
		{"a per-user install", fakeHost{env: windowsEnv, files: []string{`C:\Users\u\AppData\Local\Programs\Git\bin\bash.exe`}}, `C:\Users\u\AppData\Local\Programs\Git\bin\bash.exe`},
		{"pwsh before Windows PowerShell", fakeHost{env: windowsEnv, path: map[string]string{"pwsh": `C:\pwsh\pwsh.exe`, "powershell": `C:\ps\powershell.exe`}}, `C:\pwsh\pwsh.exe`},
		{"Windows PowerShell off PATH", fakeHost{env: windowsEnv, files: []string{`C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`}}, `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := windowsShell(tt.host.lookup())
			if err != nil || got != tt.want {
				t.Errorf("windowsShell = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := windowsShell(fakeHost{env: windowsEnv}.lookup()); !errors.Is(err, errNoShell) {
		t.Errorf("no shell at all: err %v, want errNoShell", err)
	}
}

func TestPosixShell(t *testing.T) {
	for _, tt := range []struct {
		name string
		host fakeHost
		want string
	}{
		{"DSH_SHELL", fakeHost{env: map[string]string{"DSH_SHELL": "zsh"}, path: map[string]string{"zsh": "/bin/zsh", "bash": "/bin/bash"}}, "/bin/zsh"},
		{"bash", fakeHost{path: map[string]string{"bash": "/bin/bash", "sh": "/bin/sh"}}, "/bin/bash"},
		{"sh", fakeHost{path: map[string]string{"sh": "/usr/bin/sh"}}, "/usr/bin/sh"},
		{"nothing on PATH", fakeHost{}, "/bin/sh"},
	} {
		if got := posixShell(tt.host.lookup()); got != tt.want {
			t.Errorf("%s: posixShell = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestProgramArgs: bash gets the line as -c; PowerShell gets it, after
// the UTF-8 prelude, as UTF-16LE base64 that decodes to the same text,
// quotes and non-ASCII included.
func TestProgramArgs(t *testing.T) {
	line := `Write-Output "it's" 'ünï' | Out-String; exit 3`
	if got := programAt("/bin/bash").args(line); !slices.Equal(got, []string{"-c", line}) {
		t.Errorf("bash args = %q", got)
	}
	got := programAt(`C:\Program Files\PowerShell\7\pwsh.exe`).args(line)
	if len(got) != 5 || got[3] != "-EncodedCommand" {
		t.Fatalf("pwsh args = %q", got)
	}
	raw, err := base64.StdEncoding.DecodeString(got[4])
	if err != nil || len(raw)%2 != 0 {
		t.Fatalf("encoded command %q: %v", got[4], err)
	}
	units := make([]uint16, len(raw)/2)
	for i := range units {
		units[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
	}
	if text := string(utf16.Decode(units)); text != powerShellPrelude+line {
		t.Errorf("decoded %q, want %q", text, powerShellPrelude+line)
	}
}
