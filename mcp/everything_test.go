//go:build linux

package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// everythingBin is the third-party reference server, pinned by
// e2e/package-lock.json and installed by `make deps` (npm ci --prefix e2e).
var everythingBin = filepath.Join("..", "e2e", "node_modules", ".bin", "mcp-server-everything")

// TestServerEverything lists and calls the npm reference server over stdio
// and checks Close leaves none of its processes (node and what npm's shim
// started).
func TestServerEverything(t *testing.T) {
	if _, err := os.Stat(everythingBin); err != nil {
		t.Skipf("@modelcontextprotocol/server-everything is not installed (%v): run `make deps` (npm ci --prefix e2e)", err)
	}
	s := newSession(t, []Server{{Name: "everything", Command: everythingBin, Args: []string{"stdio"}}}, Options{})
	names := s.names()
	for _, want := range []string{"mcp__everything__echo", "mcp__everything__get-sum"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}
	r := s.mustCall("mcp__everything__echo", `{"message":"hello from dsh-acp"}`)
	if text := presentation.JoinText(r.Content); r.IsError || !strings.Contains(text, "hello from dsh-acp") {
		t.Errorf("echo: isError %v, %q", r.IsError, text)
	}
	r = s.mustCall("mcp__everything__get-sum", `{"a":2,"b":40}`)
	if text := presentation.JoinText(r.Content); r.IsError || !strings.Contains(text, "42") {
		t.Errorf("get-sum: isError %v, %q", r.IsError, text)
	}
	pid := s.servers.conns[0].proc.cmd.Process.Pid
	if len(groupMembers(pid)) == 0 {
		t.Fatalf("no process in the server's group %d before Close", pid)
	}
	if err := s.servers.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	waitGone(t, pid, pid)
}
