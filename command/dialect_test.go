package command_test

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/command"
)

func TestDialectOf(t *testing.T) {
	for _, tt := range []struct {
		path string
		want command.Dialect
	}{
		{`/bin/bash`, command.Bash},
		{`/bin/sh`, command.Bash},
		{`C:\Program Files\Git\bin\bash.exe`, command.Bash},
		{`C:\Program Files\PowerShell\7\pwsh.exe`, command.PowerShell},
		{`C:\Windows\System32\WindowsPowerShell\v1.0\PowerShell.EXE`, command.PowerShell},
		{`pwsh`, command.PowerShell},
		{`/usr/bin/pwsh`, command.PowerShell},
		{`C:/tools/pwsh-preview/zsh.exe`, command.Bash},
	} {
		if got := command.DialectOf(tt.path); got != tt.want {
			t.Errorf("DialectOf(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestPlainWords(t *testing.T) {
	for _, tt := range []struct {
		line string
		want []string // nil: not plain
	}{
		{`go test ./...`, []string{"go", "test", "./..."}},
		{`GO.EXE  test	-run=TestX`, []string{"go", "test", "-run=TestX"}},
		{`git status`, []string{"git", "status"}},
		{`dir C:\src\x`, []string{"dir", `C:\src\x`}},
		{``, nil},
		{`   `, nil},
		{`go test; Remove-Item -Recurse C:\`, nil},
		{`go test | Out-File x`, nil},
		{`go test > out.txt`, nil},
		{`git status && rm x`, nil},
		{`go test $(Remove-Item x)`, nil},
		{`go test $env:HOME`, nil},
		{`go "test"`, nil},
		{`go 'test'`, nil},
		{"go te`st", nil},
		{`go test # comment`, nil},
		{`& go test`, nil},
		{`go @args`, nil},
		{`go test, x`, nil},
		{`{ go test }`, nil},
		{"go test\nrm x", nil},
		{`go tést`, nil},
	} {
		got, ok := command.PlainWords(tt.line)
		if ok != (tt.want != nil) || !slices.Equal(got, tt.want) {
			t.Errorf("PlainWords(%q) = %q, %v; want %q", tt.line, got, ok, tt.want)
		}
	}
}
