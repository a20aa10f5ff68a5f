package search

import (
	"errors"
	"fmt"

	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// The tool names, as the model sees them.
const (
	GrepName = "grep"
	GlobName = "glob"
)

// Tools returns the grep and glob tools bound to ws, in that order. They
// hold no background work, so there is nothing to close.
func Tools(ws *workspace.Workspace, opts Options) ([]*registry.Tool, error) {
	if ws == nil {
		return nil, errors.New("search: a workspace is required")
	}
	opts = opts.withDefaults()
	grep, err := defineGrep(ws, opts)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	glob, err := defineGlob(ws, opts)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return []*registry.Tool{grep, glob}, nil
}
