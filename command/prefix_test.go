package command_test

import (
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/command"
)

func TestPrefix(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"go test ./...", []string{"go", "test"}},
		{"go test -run X ./pkg", []string{"go", "test"}},
		{"npm run build", []string{"npm", "run", "build"}},
		{"npm test", []string{"npm", "test"}},
		{"git status -s", []string{"git", "status"}},
		{"git push origin main", []string{"git", "push"}},
		{"git stash pop", []string{"git", "stash", "pop"}},
		{"git -C sub push", []string{"git", "-C", "sub", "push"}},
		{"./scripts/ci.sh x", []string{"./scripts/ci.sh"}},
		{"cd sub && go test ./...", []string{"go", "test"}},
		{"ls && go build ./...", []string{"go", "build"}},
		{"timeout 60 go test ./...", []string{"go", "test"}},
		{"python -m pytest -x tests", []string{"python", "-m", "pytest"}},
		{"python3 script.py --fast", []string{"python3", "script.py"}},
		{"make", []string{"make"}},
		{"make test", []string{"make", "test"}},
		{"make -j8 test", []string{"make", "-j8", "test"}},
		{"go mod tidy", []string{"go", "mod", "tidy"}},
		{"docker compose up -d", []string{"docker", "compose", "up"}},
		{"gh pr list", []string{"gh", "pr", "list"}},
		{"cargo +nightly test", []string{"cargo", "+nightly", "test"}},
		{"rm -rf build", []string{"rm"}},
		{"pytest -x tests", []string{"pytest"}},
		{"cd sub", nil},
		{"python3 <<EOF\nprint(1)\nEOF", nil},
		{"node - < script.js", nil},
		{"node -e 'console.log(1)'", []string{"node", "-e", "console.log(1)"}},
		{"eval ls", nil},
		{"$X build", nil},
		{"go $SUB ./...", nil},
		{"sudo rm x", nil},
		{"", nil},
	}
	for _, tt := range tests {
		c, err := command.Parse(tt.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		if got := c.Prefix(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q).Prefix() = %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestPrefixes(t *testing.T) {
	tests := []struct {
		src  string
		want [][]string
	}{
		{"go test ./... && go vet ./... && npm run build && go test -v ./...", [][]string{{"go", "test"}, {"npm", "run", "build"}}},
		{"ls && cat x", [][]string{}},
		{"make && ./bin/app --serve", [][]string{{"make"}, {"./bin/app"}}},
		{"go $X", nil},
		{"make && eval x", nil},
	}
	for _, tt := range tests {
		c, err := command.Parse(tt.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		if got := c.Prefixes(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q).Prefixes() = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestPrefixesAllow checks the promise of Prefixes: once its rules are
// remembered, the same command runs without asking.
func TestPrefixesAllow(t *testing.T) {
	for _, src := range []string{
		"go test ./...",
		"cd sub && make test && ./scripts/ci.sh --fast",
		"npm run build | tee build.log",
		"git add -A && git commit -m 'x'",
		"python -m pytest -x tests",
	} {
		c, err := command.Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		env := command.Env{Inside: inside, Writes: true}
		if v, _ := c.Evaluate(env); v != command.Ask {
			t.Fatalf("Evaluate(%q) with no rules = %v, want ask", src, v)
		}
		for _, p := range c.Prefixes() {
			env.Rules = append(env.Rules, command.Rule{Allow: true, Prefix: p})
		}
		if v, reason := c.Evaluate(env); v != command.Allow {
			t.Errorf("Evaluate(%q) with its Prefixes as rules = %v (%s), want allow", src, v, reason)
		}
	}
}

func TestMatches(t *testing.T) {
	simple := func(src string) command.Simple {
		c, err := command.Parse(src)
		if err != nil || len(c.Simple) == 0 {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		return c.Simple[0]
	}
	goTest := []string{"go", "test"}
	tests := []struct {
		src    string
		prefix []string
		want   bool
	}{
		{"go test ./...", goTest, true},
		{"go test -run X ./pkg", goTest, true},
		{"go test", goTest, true},
		{"go testx", goTest, false},
		{"go vet ./...", goTest, false},
		{"go", goTest, false},
		{"/usr/local/bin/go test", goTest, true},
		{"./go test", goTest, false},
		{`go "$t"`, goTest, false},
		{`"go" 'test'`, goTest, true},
		{"./scripts/ci.sh x", []string{"./scripts/ci.sh"}, true},
		{"scripts/ci.sh x", []string{"./scripts/ci.sh"}, false},
		{"ls", nil, false},
	}
	for _, tt := range tests {
		if got := command.Matches(simple(tt.src), tt.prefix); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.src, tt.prefix, got, tt.want)
		}
	}
}
