package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// maxToolName is the longest tool name models accept.
const maxToolName = 64

// ToolName returns the model-facing name of server's tool: "mcp__" +
// server + "__" + tool, with every character outside [a-zA-Z0-9_-]
// replaced by "_". A name longer than 64 characters keeps its first 55
// and ends in "_" plus 8 hex digits of the SHA-256 of the unsanitized
// "server/tool", so long names stay distinct. The result always matches
// ^[a-zA-Z0-9_-]{1,64}$.
func ToolName(server, tool string) string {
	name := sanitize("mcp__" + server + "__" + tool)
	if len(name) <= maxToolName {
		return name
	}
	sum := sha256.Sum256([]byte(server + "/" + tool))
	return name[:maxToolName-9] + "_" + hex.EncodeToString(sum[:4])
}

// uniqueName returns ToolName(server, tool), or, when taken already holds
// that name, the first of its variants ending in "_2", "_3", … (cut to fit
// 64 characters) that taken does not hold; it records the name in taken.
func uniqueName(taken map[string]bool, server, tool string) string {
	base := ToolName(server, tool)
	name := base
	for n := 2; taken[name]; n++ {
		suffix := "_" + strconv.Itoa(n)
		name = base[:min(len(base), maxToolName-len(suffix))] + suffix
	}
	taken[name] = true
	return name
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		default:
			return '_'
		}
	}, s)
}
