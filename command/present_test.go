package command_test

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/command"
)

func TestPresent(t *testing.T) {
	read := func(path string, line int) command.Presentation {
		return command.Presentation{Kind: command.KindRead, Path: path, Line: line}
	}
	search := func(path string) command.Presentation {
		return command.Presentation{Kind: command.KindSearch, Path: path}
	}
	diff := func(path string) command.Presentation {
		return command.Presentation{Kind: command.KindDiff, Path: path}
	}
	execute := command.Presentation{Kind: command.KindExecute}
	tests := []struct {
		src  string
		want command.Presentation
	}{
		{"cat main.go", read("main.go", 1)},
		{"cat -n src/a.go", read("src/a.go", 1)},
		{"cat main.go 2>/dev/null", read("main.go", 1)},
		{"head -n 20 main.go", read("main.go", 1)},
		{"head -20 main.go", read("main.go", 1)},
		{"tail -n +40 main.go", read("main.go", 40)},
		{"tail -n+40 main.go", read("main.go", 40)},
		{"tail -20 main.go", read("main.go", 0)},
		{"sed -n '10,20p' main.go", read("main.go", 10)},
		{"sed -n 5p main.go", read("main.go", 5)},
		{"sed -n '7,$p' main.go", read("main.go", 7)},
		{"sed -n '/x/p' main.go", execute},
		{"sed 's/a/b/' main.go", execute},
		{"cat a.go b.go", execute},
		{"cat", execute},
		{"cat < main.go", execute},
		{"cat $f", execute},
		{"cat main.go > copy.go", execute},
		{"cat main.go | head", execute},
		{"rg foo src", search("src")},
		{"rg foo", search(".")},
		{"rg -e foo -e bar src", search("src")},
		{"rg --files src", search("src")},
		{"rg -n -A 3 foo src lib", search("")},
		{"grep -rn foo .", search(".")},
		{"grep -n foo a.go", search("a.go")},
		{"grep foo", search("")},
		{"find src -name '*.go'", search("src")},
		{"find -name '*.go'", search(".")},
		{"find . -name x -exec rm {} \\;", execute},
		{"fd pattern dir", search("dir")},
		{"ag foo lib", search("lib")},
		{"git grep -n foo", search("")},
		{"git diff", diff("")},
		{"git diff HEAD~1 -- main.go", diff("main.go")},
		{"git --no-pager show HEAD", diff("")},
		{"git log", execute},
		{"git diff --output=x", execute},
		{"ls -la", execute},
		{"echo x", execute},
		{"go test ./...", execute},
		{"cat 'unclosed", execute},
	}
	for _, tt := range tests {
		if got := command.Present(tt.src); got != tt.want {
			t.Errorf("Present(%q) = %+v, want %+v", tt.src, got, tt.want)
		}
	}
}
