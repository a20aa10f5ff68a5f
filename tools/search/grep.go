package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/search/internal/ignore"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// grepArgs are the model's arguments to grep.
type grepArgs struct {
	Pattern string `json:"pattern" jsonschema:"the regular expression to search file contents for (RE2 syntax, e.g. func\\s+\\w+Handler or log\\.Error); matched line by line"`
	Path    string `json:"path,omitempty" jsonschema:"the file or directory to search, absolute or relative to the working directory; default the working directory"`
	Include string `json:"include,omitempty" jsonschema:"only search files whose names match this glob, e.g. *.go or *.{ts,tsx}; a glob with a slash matches the path below the searched directory"`
}

// grepTimeout is grep's time budget.
const grepTimeout = 2 * time.Minute

const grepDescription = `Search file contents with a regular expression (RE2 syntax) and list the matching lines, grouped by file with line numbers, ordered by path.
Files ignored by .gitignore, hidden files and directories, binary files and files over 10 MiB are skipped unless path names them.
Use include to filter file names (e.g. "*.go", "*.{ts,tsx}"). At most 200 lines are shown; narrow the pattern, path or include when the result says it was truncated.
Paths in the result can be passed to read.`

// defineGrep builds the grep tool.
func defineGrep(ws *workspace.Workspace, opts Options) (*registry.Tool, error) {
	g := &grepper{ws: ws, opts: opts}
	return registry.Define(registry.Spec[grepArgs, grepResult]{
		Name:             GrepName,
		Description:      grepDescription,
		Handler:          g.handle,
		Render:           renderGrep,
		PresentationMeta: grepMeta,
		Timeout:          grepTimeout,
		Effect:           registry.EffectRead,
		Paths:            func(a grepArgs) []string { return optionalPath(a.Path) },
		ConcurrencySafe:  func(grepArgs) bool { return true },
		PresentCall:      presentGrepCall,
		PresentResult:    presentGrepResult,
	})
}

// grepper runs grep calls for one workspace.
type grepper struct {
	ws   *workspace.Workspace
	opts Options
}

// handle is grep's body.
func (g *grepper) handle(ctx context.Context, _ *registry.Call, args grepArgs) (grepResult, error) {
	if args.Pattern == "" {
		return grepResult{}, registry.NewError(CodeInvalidPattern, "pattern is empty: pass the regular expression to search for")
	}
	m, err := compileMatcher(args.Pattern)
	if err != nil {
		return grepResult{}, invalidPattern(args.Pattern, err)
	}
	include, err := compileInclude(args.Include)
	if err != nil {
		return grepResult{}, err
	}
	root, info, err := statTarget(g.ws, args.Path)
	if err != nil {
		return grepResult{}, err
	}
	c := newCollector(g.opts.MaxMatches, g.opts.MaxLineLength)
	switch {
	case !info.IsDir() && !info.Mode().IsRegular():
		return grepResult{}, notRegularError(g.ws.Display(root), workspace.FileKind(info.Mode()))
	case !info.IsDir():
		err = g.searchFile(ctx, root, m, c)
	case g.opts.Ripgrep != "":
		err = g.ripgrep(ctx, root, m, args.Pattern, args.Include, include, c)
	default:
		err = g.fallback(ctx, root, m, include, c)
	}
	if ctx.Err() != nil {
		return grepResult{}, abortedError(ctx)
	}
	if err != nil {
		return grepResult{}, err
	}
	return g.result(c), nil
}

// compileInclude compiles the include filter; nil when there is none.
func compileInclude(include string) (*ignore.Pattern, error) {
	if include == "" {
		return nil, nil
	}
	p, ok := ignore.Compile(include)
	if !ok {
		return nil, registry.NewError(CodeInvalidInclude, fmt.Sprintf(
			"include %q is not a file-name glob: pass something like \"*.go\" or \"*.{ts,tsx}\"", include))
	}
	return p, nil
}

// searchFile searches one file the model named: no filter applies to it.
func (g *grepper) searchFile(ctx context.Context, path string, m *matcher, c *collector) error {
	var found []lineMatch
	err := newScanner(m).scanFile(ctx, path, 0, func(line int, text []byte) {
		found = append(found, lineMatch{path: path, line: line, text: string(text)})
	})
	switch {
	case err == errBinary:
		return registry.NewError(CodeBinaryFile, fmt.Sprintf(
			"%s is a binary file: grep searches text files only", g.ws.Display(path)))
	case errors.Is(err, errNotRegular):
		return notRegularError(g.ws.Display(path), "") // it changed after the stat
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return &registry.Error{Code: CodeSearchFailed, Cause: err, Message: fmt.Sprintf("cannot read %s: %v", g.ws.Display(path), err)}
	}
	c.add(found)
	return nil
}

// fallback is the built-in directory search: a parallel walk that skips
// what ripgrep skips, scanning each file in chunks.
func (g *grepper) fallback(ctx context.Context, root string, m *matcher, include *ignore.Pattern, c *collector) error {
	maxSize := g.opts.MaxFileSize
	return walk(ctx, root, walkOptions{include: include, workers: g.opts.Workers, onVisit: g.opts.onVisit}, func() visitFunc {
		s := newScanner(m)
		var found []lineMatch
		return func(path string, _ fs.DirEntry) {
			found = found[:0]
			s.scanFile(ctx, path, maxSize, func(line int, text []byte) {
				found = append(found, lineMatch{path: path, line: line, text: string(text)})
			})
			c.add(found)
		}
	})
}

// result turns what c kept into grep's value, paths as the model should
// pass them back.
func (g *grepper) result(c *collector) grepResult {
	kept, total, files := c.matches()
	r := grepResult{Total: total, FileCount: files, Truncated: len(kept) < total, Files: []grepFile{}}
	for _, m := range kept {
		if n := len(r.Files); n == 0 || r.Files[n-1].abs != m.path {
			r.Files = append(r.Files, grepFile{abs: m.path, Path: g.ws.Display(m.path)})
		}
		f := &r.Files[len(r.Files)-1]
		f.Matches = append(f.Matches, grepLine{LineNumber: m.line, Line: m.text})
	}
	return r
}

// optionalPath is the Paths of a tool whose path argument is optional.
func optionalPath(path string) []string {
	if path == "" {
		return nil
	}
	return []string{path}
}
