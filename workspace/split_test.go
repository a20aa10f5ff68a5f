package workspace_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// tagged records which file system served a call.
type tagged struct {
	name string
	log  *[]string
}

func (t tagged) ReadFile(_ context.Context, p string) ([]byte, error) {
	*t.log = append(*t.log, t.name+" read "+filepath.Base(p))
	return nil, nil
}

func (t tagged) WriteFile(_ context.Context, p string, _ []byte) error {
	*t.log = append(*t.log, t.name+" write "+filepath.Base(p))
	return nil
}

func (t tagged) Stat(_ context.Context, p string) (fs.FileInfo, error) {
	*t.log = append(*t.log, t.name+" stat "+filepath.Base(p))
	return nil, nil
}

func TestSplitRoutesByRoot(t *testing.T) {
	root := t.TempDir()
	var log []string
	s := workspace.Split{Inside: tagged{"editor", &log}, Outside: tagged{"disk", &log}, Roots: []string{root}}
	ctx := context.Background()
	s.ReadFile(ctx, filepath.Join(root, "a.go"))
	s.WriteFile(ctx, filepath.Join(root, "new", "b.go"), nil)
	s.Stat(ctx, "/etc/hosts")
	s.WriteFile(ctx, filepath.Join(filepath.Dir(root), "c.go"), nil)
	want := []string{"editor read a.go", "editor write b.go", "disk stat hosts", "disk write c.go"}
	if len(log) != len(want) {
		t.Fatalf("log = %v", log)
	}
	for i := range want {
		if log[i] != want[i] {
			t.Errorf("log[%d] = %q, want %q", i, log[i], want[i])
		}
	}
}

// TestSplitRoutesDanglingLinksByTarget: a dangling link inside a root whose
// target is outside goes to the outside file system (issue 7 item 4: the
// editor was asked to write it and created the outside file).
func TestSplitRoutesDanglingLinksByTarget(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	linktest.Symlink(t, filepath.Join(base, "outside", "new.txt"), filepath.Join(root, "dangle"))
	linktest.Symlink(t, filepath.Join(root, "later.txt"), filepath.Join(root, "later"))
	var log []string
	s := workspace.Split{Inside: tagged{"editor", &log}, Outside: tagged{"disk", &log}, Roots: []string{root}}
	s.WriteFile(context.Background(), filepath.Join(root, "dangle"), nil)
	s.WriteFile(context.Background(), filepath.Join(root, "later"), nil)
	if want := []string{"disk write dangle", "editor write later"}; strings.Join(log, ",") != strings.Join(want, ",") {
		t.Errorf("log = %v, want %v", log, want)
	}
}
