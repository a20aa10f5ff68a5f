package live

import (
	"strings"

	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// undoContext tells the model what an /undo did to the files.
func undoContext(u Undone) registry.ContextMessage {
	var parts []string
	if len(u.Files) > 0 {
		parts = append(parts, "The user undid the agent's last turn: these files are back as they were before it: "+
			joinPaths(u.Files, func(f session.FileRestored) string { return f.Path })+". What that turn did to them is gone.")
	}
	if len(u.Conflicts) > 0 {
		parts = append(parts, "These files the last turn changed were changed again since and left as they are: "+
			joinPaths(u.Conflicts, func(c UndoConflict) string { return c.Path })+".")
	}
	return registry.UserContext(strings.Join(parts, " ") + " Read them again before relying on their content.")
}

// joinPaths lists the paths of items, comma-separated.
func joinPaths[T any](items []T, path func(T) string) string {
	paths := make([]string, len(items))
	for i, item := range items {
		paths[i] = path(item)
	}
	return strings.Join(paths, ", ")
}
