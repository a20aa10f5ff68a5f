package mcp

import (
	"regexp"
	"strings"
	"testing"
)

var modelToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func TestToolName(t *testing.T) {
	long := strings.Repeat("x", 80)
	cases := []struct {
		server, tool, want string
	}{
		{"github", "create_issue", "mcp__github__create_issue"},
		{"my server", "read.file", "mcp__my_server__read_file"},
		{"zed/ctx", "héllo-wörld", "mcp__zed_ctx__h_llo-w_rld"},
		{"s", long, "mcp__s__" + strings.Repeat("x", 47) + "_"},
	}
	for _, c := range cases {
		got := ToolName(c.server, c.tool)
		if !modelToolName.MatchString(got) {
			t.Errorf("ToolName(%q, %q) = %q, not a model tool name", c.server, c.tool, got)
		}
		if len(got) == maxToolName {
			if !strings.HasPrefix(got, c.want) || len(got) != len(c.want)+8 {
				t.Errorf("ToolName(%q, %q) = %q, want %q + 8 hex digits", c.server, c.tool, got, c.want)
			}
			continue
		}
		if got != c.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
	}
	if ToolName("s", long+"a") == ToolName("s", long+"b") {
		t.Error("long names that differ past the cut collide")
	}
}

func TestUniqueName(t *testing.T) {
	taken := map[string]bool{}
	long := strings.Repeat("y", 70)
	got := []string{
		uniqueName(taken, "a b", "t"),
		uniqueName(taken, "a.b", "t"),
		uniqueName(taken, "a_b", "t"),
		uniqueName(taken, "s", long),
		uniqueName(taken, "s", long),
	}
	want := []string{"mcp__a_b__t", "mcp__a_b__t_2", "mcp__a_b__t_3"}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("name %d = %q, want %q", i, got[i], w)
		}
	}
	if got[3] == got[4] || !strings.HasSuffix(got[4], "_2") {
		t.Errorf("long duplicates %q and %q", got[3], got[4])
	}
	for _, n := range got {
		if !modelToolName.MatchString(n) {
			t.Errorf("%q is not a model tool name", n)
		}
	}
}
