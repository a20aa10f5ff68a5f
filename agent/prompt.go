package agent

import (
	"fmt"
	"strings"

	"github.com/dsh-acp/dsh-acp/llm"
)

// systemPrompt tells the model who it is, its tools, its workspace, the
// platform, today's date and the project's instructions.
func systemPrompt(opts Options, tools []llm.Tool) string {
	var b strings.Builder
	b.WriteString("You are dsh, a coding agent working inside the user's editor. ")
	b.WriteString("You help with software tasks by reading and changing files in the workspace and running commands, using the tools below. ")
	b.WriteString("Every change you make is shown to the user as a diff, every command as a terminal, and some actions wait for the user's approval.\n\n")
	b.WriteString("# Tools\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "- %s: %s\n", t.Name, firstLine(t.Description))
	}
	b.WriteString("\n# Workspace\n")
	if opts.Cwd != "" {
		fmt.Fprintf(&b, "Working directory: %s (relative paths are resolved against it)\n", opts.Cwd)
	}
	roots := opts.Roots
	if len(roots) == 0 && opts.Cwd != "" {
		roots = []string{opts.Cwd}
	}
	if len(roots) > 0 {
		fmt.Fprintf(&b, "Workspace roots: %s\n", strings.Join(roots, ", "))
	}
	fmt.Fprintf(&b, "Platform: %s\n", opts.Platform)
	if opts.Sandbox != "" {
		fmt.Fprintf(&b, "Sandbox: %s\n", opts.Sandbox)
	}
	fmt.Fprintf(&b, "Today's date: %s\n", opts.Now().Format("2006-01-02"))
	b.WriteString("\n# Working rules\n")
	b.WriteString("- Read a file before you edit it, and copy the text to replace exactly.\n")
	b.WriteString("- Prefer small edits over rewriting whole files.\n")
	b.WriteString("- Stay inside the workspace unless the user asks otherwise.\n")
	b.WriteString("- When a tool fails, read its error: it says what to do next.\n")
	b.WriteString("- Keep a plan with todo_write for work of three or more steps, when that tool is available.\n")
	if instructions := strings.TrimSpace(opts.Instructions); instructions != "" {
		b.WriteString("\n# Project instructions\n")
		b.WriteString("The project gives these instructions for working in it. Follow them; where they conflict with the user's requests in this conversation, the user's requests win.\n\n")
		b.WriteString(instructions)
		b.WriteString("\n")
	}
	return b.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
