package workspace_test

import (
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/workspace"
)

func TestUnder(t *testing.T) {
	root := filepath.FromSlash("/ws")
	tests := []struct {
		name, path string
		want       bool
	}{
		{"the directory itself", "/ws", true},
		{"a file below", "/ws/a/b.go", true},
		{"a name starting with two dots", "/ws/..a", true},
		{"a sibling sharing the prefix", "/ws2/a.go", false},
		{"the parent's file", "/a.go", false},
		{"a climb out, cleaned", "/ws/../etc/passwd", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Clean(filepath.FromSlash(tt.path))
			if got := workspace.Under(root, path); got != tt.want {
				t.Errorf("Under(%q, %q) = %v, want %v", root, path, got, tt.want)
			}
		})
	}
}
