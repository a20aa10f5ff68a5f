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
	override := opts.ClientPrompt.Override && strings.TrimSpace(opts.ClientPrompt.Text) != ""
	if override {
		b.WriteString(strings.TrimSpace(opts.ClientPrompt.Text))
		b.WriteString("\n\n")
	} else {
		b.WriteString("You are dsh, a coding agent working inside the user's editor. ")
		b.WriteString("You help with software tasks by reading and changing files in the workspace and running commands, using the tools below. ")
		b.WriteString("Every change you make is shown to the user as a diff, every command as a terminal, and some actions wait for the user's approval.\n\n")
	}
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
	if !override {
		b.WriteString(workingRules)
		if text := strings.TrimSpace(opts.ClientPrompt.Text); text != "" {
			b.WriteString("\n# Instructions from the editor\n")
			b.WriteString(text)
			b.WriteString("\n")
		}
	}
	if instructions := strings.TrimSpace(opts.Instructions); instructions != "" {
		b.WriteString("\n# Project instructions\n")
		b.WriteString("The project gives these instructions for working in it. Follow them; where they conflict with the user's requests in this conversation, the user's requests win.\n\n")
		b.WriteString(instructions)
		b.WriteString("\n")
	}
	return b.String()
}

// workingRules is how the model is asked to work: what a careful engineer
// does in someone else's repository, and how this agent's session behaves
// (diffs, approvals, messages sent while it works).
const workingRules = `
# How to work
- Understand before you change. Search with grep and glob (not shell find or grep) and read the files involved; run independent searches and reads together in one step, since they run in parallel.
- Read a file before you edit it, and copy the text you replace exactly, whitespace included. Prefer small edits to rewriting whole files, and keep each file's line endings, indentation and style.
- Follow the conventions the project already has: its layout, naming, error handling, test style and the libraries it already uses. Add a dependency only when the user agrees.
- For a change of more than a few steps, make a plan first (todo_write, when that tool is offered) and keep it current as you go. When a request is ambiguous or a choice is the user's to make, do not guess: ask with ask_user (all your questions in one call, with options where the choices are known), or, when that tool is not offered or says it cannot ask, ask in your answer and end your turn.
- Check your work the way the project does: build it, run its tests or linters for what you changed, and read the output. Say plainly what you could not check.
- When a tool fails, read the error: it says what went wrong and usually what to do next. Do not repeat a failing call unchanged.
- Stay inside the workspace unless the user asks otherwise. Never run destructive or irreversible commands the user did not ask for: no git reset --hard, git push --force, git clean, history rewrites, deleting files you did not create, or commands that touch systems outside the project.
- Some calls wait for the user's approval. A rejected call was the user's decision: do not try to get around it with another tool; ask or take another way.
- The user may put the session in plan mode, to review your plan before anything changes. There only reads and read-only commands run, and writes, edits and other commands are refused with a message that says so; do not try to get around that. Read what the task needs, then present the plan with exit_plan_mode (Markdown: what you found, numbered steps naming the files each one changes, how you will verify them). If the user approves it, the session leaves plan mode and you implement the plan at once, in the same turn; if they ask to keep planning, revise it and present it again. Outside plan mode never call exit_plan_mode.
- The user may send messages while you work; they arrive as user messages between your steps. Take them into account at once: they may change what you are doing.
- Answer concisely. Lead with the result, then what the user needs to know (what changed, what remains, what to check). Refer to code as path:line. Do not repeat file contents the user can already see as diffs.
`

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ClientPrompt is a client's system prompt (Options.ClientPrompt).
type ClientPrompt struct {
	Text     string
	Override bool
}
