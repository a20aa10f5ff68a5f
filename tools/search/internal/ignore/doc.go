// Package ignore reads .gitignore files and matches paths against them the
// way ripgrep does, so a search that walks the tree itself skips exactly
// the files ripgrep would.
//
//	rules := ignore.Parse([]byte("*.log\n!keep.log\nbuild/\n"))
//	rules.Match("debug.log", false)     // Ignore
//	rules.Match("keep.log", false)      // Whitelist
//	rules.Match("src/build", true)      // Ignore (a directory at any depth)
//	rules.Match("src/main.go", false)   // None: no pattern matched
//
// Paths are slash-separated and relative to the directory holding the
// ignore file. The syntax is git's: '#' comments, '!' negation, a trailing
// '/' for directories only, a leading or middle '/' to anchor a pattern to
// that directory, '*', '?', '[…]' and '**'; like ripgrep, '{a,b}'
// alternation is accepted too.
package ignore
