package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Layout is where a prepared case lives.
type Layout struct {
	// Root holds Workspace and Outside.
	Root string
	// Workspace is the session's cwd.
	Workspace string
	// Outside is a directory beside the workspace.
	Outside string
}

// Expand replaces $WS, $OUTSIDE and $ROOT in s with the layout's paths.
func (l Layout) Expand(s string) string {
	return strings.NewReplacer("$WS", l.Workspace, "$OUTSIDE", l.Outside, "$ROOT", l.Root).Replace(s)
}

// Prepare lays the case out under root (which must exist and be empty):
// the workspace with its files, pipes and links, and the outside
// directory. Buffers and Env are the client's and the process's to apply.
func (c Case) Prepare(root string) (Layout, error) {
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		root = resolved
	}
	l := Layout{Root: root, Workspace: filepath.Join(root, "ws"), Outside: filepath.Join(root, "outside")}
	for _, dir := range []string{l.Workspace, l.Outside} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return l, fmt.Errorf("prepare %s: %w", c.Name, err)
		}
	}
	if err := writeFiles(l.Workspace, c.Setup.Files); err != nil {
		return l, fmt.Errorf("prepare %s: %w", c.Name, err)
	}
	if err := writeFiles(l.Outside, c.Setup.Outside); err != nil {
		return l, fmt.Errorf("prepare %s: %w", c.Name, err)
	}
	for _, name := range c.Setup.FIFOs {
		if err := mkfifo(filepath.Join(l.Workspace, name)); err != nil {
			return l, fmt.Errorf("prepare %s: mkfifo %s: %w", c.Name, name, err)
		}
	}
	for link, target := range c.Setup.Symlinks {
		if err := os.Symlink(l.Expand(target), filepath.Join(l.Workspace, link)); err != nil {
			return l, fmt.Errorf("prepare %s: %w", c.Name, err)
		}
	}
	return l, nil
}

// writeFiles creates each relative path under dir with its content.
func writeFiles(dir string, files map[string]string) error {
	for rel, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
