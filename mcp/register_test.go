//go:build linux

package mcp

import (
	"slices"
	"testing"
)

// TestRegisterFollowsChanges keeps unchanged tools registered as they were
// when a server's list grows, and dispose removes every tool.
func TestRegisterFollowsChanges(t *testing.T) {
	cfg, _, _ := httpServer(t, "web")
	s := newSession(t, []Server{cfg}, Options{})
	echo := s.reg.Get("mcp__web__echo", s.scope)
	if r := s.mustCall("mcp__web__add_tool", `{}`); r.IsError {
		t.Fatalf("add_tool: %v", r.Content)
	}
	s.waitFor("extra is registered", func() bool { return slices.Contains(s.names(), "mcp__web__extra") })
	if s.reg.Get("mcp__web__echo", s.scope) != echo {
		t.Error("echo was registered again though it did not change")
	}
	other := s.reg.NewScope("other", nil)
	dispose, err := s.servers.Register(s.reg, other)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.reg.Tools(other)); got != len(testToolNames)+1 {
		t.Errorf("%d tools in a second scope, want %d", got, len(testToolNames)+1)
	}
	dispose()
	if got := s.reg.Tools(other); len(got) != 0 {
		t.Errorf("tools left after dispose: %d", len(got))
	}
}
