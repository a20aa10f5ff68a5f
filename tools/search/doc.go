// Package search holds the model's search tools: grep (file contents by
// regular expression) and glob (file paths by pattern), bound to one
// session's workspace.
//
//	ws, _ := workspace.New("/home/me/project", nil, workspace.Local{})
//	tools, err := search.Tools(ws, search.Options{})
//	if err != nil { … }
//	for _, t := range tools {
//		reg.Register(nil, t) // "grep" and "glob"
//	}
//	p := pipeline.New(reg, pipeline.Options{})
//	r := p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: "grep",
//		Arguments: `{"pattern":"func\\s+New","include":"*.go"}`})
//	// Found 2 matches in 1 file.
//	//
//	// tools/search/tools.go:
//	//   19: func NewThing() {
//	//   …
//
// Both tools skip what git ignores (.gitignore files at every level and in
// the parent directories up to the repository root, and
// .git/info/exclude) and what .ignore and .rgignore files exclude, as
// ripgrep does; they never enter .git or follow symbolic links, and show paths relative to the
// working directory so the model can pass them back to read. Results are
// capped with a note telling the model to narrow the search, and sorted
// deterministically: grep by path and line, glob newest first. Neither
// opens anything but regular files and directories: named pipes, sockets
// and devices are skipped, and grep refuses one it is pointed at.
//
// Each tool's Paths (what a policy checks against the workspace) are the
// places the call touches: grep's path (include only narrows what is
// below it), and for glob its path plus the directory it really walks,
// the pattern's fixed leading directories joined to path, so "../out/*"
// and "/etc/host*" are seen as outside. A NUL byte in a path or pattern
// is refused before anything is searched.
//
// grep runs ripgrep when it is on PATH and otherwise searches with a
// built-in parallel walk that skips exactly what ripgrep skips: ignored,
// hidden and binary files, and files over 10 MiB. The two give the same
// results on the same tree, except where their regular expression
// dialects differ: the built-in search uses Go's RE2 syntax, ripgrep its
// own Rust syntax, which agree on everything common (classes, repetition,
// anchors, (?i) flags) but differ at the edges: \w, \d, \s and \b are
// Unicode-aware in ripgrep and ASCII in Go. Patterns are checked with Go's
// syntax first either way. The grep presentation meta feeds the search
// matches card; glob's feeds the search paths card.
package search
