package fs

import (
	"path/filepath"
	"strings"
)

// langOf returns the short language hint the read card carries for path
// ("go", "ts", "py", …), or "" when the name says nothing.
func langOf(path string) string {
	base := strings.ToLower(filepath.Base(path))
	switch base {
	case "makefile", "gnumakefile":
		return "make"
	case "dockerfile":
		return "dockerfile"
	}
	switch ext := filepath.Ext(base); ext {
	case ".go", ".ts", ".tsx", ".js", ".jsx", ".py", ".rb", ".rs", ".java", ".kt", ".swift",
		".c", ".cs", ".sh", ".ps1", ".json", ".yaml", ".toml", ".xml", ".html", ".css",
		".scss", ".md", ".sql", ".lua", ".php", ".zig", ".proto":
		return ext[1:]
	case ".mjs", ".cjs":
		return "js"
	case ".h":
		return "c"
	case ".cc", ".cpp", ".cxx", ".hpp":
		return "cpp"
	case ".bash", ".zsh":
		return "sh"
	case ".yml":
		return "yaml"
	case ".ex", ".exs":
		return "ex"
	default:
		return ""
	}
}
