package command

import "testing"

func TestProgramRuleKeys(t *testing.T) {
	windows := programRule{foldCase: true, dropExe: true}
	macOS := programRule{foldCase: true}
	linux := programRule{}
	tests := []struct {
		rule       programRule
		a, b       string
		sameOnHost bool
	}{
		{windows, "GIT", "git", true},
		{windows, "Git.EXE", "git", true},
		{windows, "git.exe", "git", true},
		{windows, "gitk", "git", false},
		{macOS, "GIT", "git", true},
		{macOS, "git.exe", "git", false},
		{linux, "GIT", "git", false},
		{linux, "git", "git", true},
	}
	for _, tt := range tests {
		if got := tt.rule.key(tt.a) == tt.rule.key(tt.b); got != tt.sameOnHost {
			t.Errorf("%+v: %q and %q the same program = %v, want %v", tt.rule, tt.a, tt.b, got, tt.sameOnHost)
		}
	}
}

// A reject rule for git push must not miss the same program spelled
// another way where the platform runs it (a miss would let it run).
func TestMatchesFollowsTheHostsProgramRule(t *testing.T) {
	rule := hostProgramRule()
	line := "GIT push --force"
	lines, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	got := Matches(lines.Simple[0], []string{"git", "push"})
	if want := rule.foldCase; got != want {
		t.Errorf("Matches(%q, git push) = %v, want %v under %+v", line, got, want, rule)
	}
}
