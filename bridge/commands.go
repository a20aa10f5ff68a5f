package bridge

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// slashCommand is a command the user types as "/name arguments".
type slashCommand struct {
	name, description string
	// hint, when set, says the command takes free text.
	hint string
	// local answers the command in the session itself; nil sends
	// prompt's text to the model instead. Its reply is logged as the
	// command's answer, unless it is "": the command logged its answer
	// itself.
	local  func(s *liveSession, ctx context.Context, t *live.Turn, args string) (reply string, err error)
	prompt func(args string) string
}

// initPrompt asks the model to write the project's AGENTS.md.
const initPrompt = `Write an AGENTS.md file at the root of this project for coding agents that will work in it.
Look at the project first: its layout, languages, build and test commands, conventions and anything surprising.
Then write a concise AGENTS.md: how to build, test and lint; where things live; the conventions to follow; pitfalls.
If an AGENTS.md exists, improve it rather than starting over. Keep it under about 150 lines.`

// commands returns the session's slash commands: the built-in ones (those
// its runtime supports), then the user's own.
func (s *liveSession) commands() []slashCommand {
	var out []slashCommand
	if s.rt.CanUndo() {
		out = append(out, slashCommand{name: "undo", description: "Revert the files the last turn changed, except those changed since (repeat to go further back)", local: (*liveSession).undo})
		out = append(out, slashCommand{name: "rewind", description: "Undo the last turn's changes and drop it from the conversation (repeat to go further back)", local: (*liveSession).rewind})
	}
	out = append(out, slashCommand{name: "compact", description: "Summarize the conversation so far to free the context window", local: (*liveSession).compact})
	if s.rt.Rules() != nil {
		out = append(out, slashCommand{name: "permissions", description: "List this project's remembered approvals; `remove N` forgets one", hint: "remove N", local: (*liveSession).permissions})
	}
	out = append(out,
		slashCommand{name: "init", description: "Have the agent write an AGENTS.md for this project", prompt: func(string) string { return initPrompt }},
		slashCommand{name: "help", description: "List the commands", local: (*liveSession).help},
	)
	for _, c := range s.rt.Commands() {
		if slices.ContainsFunc(out, func(b slashCommand) bool { return b.name == c.Name }) {
			continue // a built-in keeps its name
		}
		text := c.Prompt
		out = append(out, slashCommand{name: c.Name, description: c.Description, hint: "arguments",
			prompt: func(args string) string { return strings.ReplaceAll(text, "$ARGUMENTS", args) }})
	}
	return out
}

// availableCommands is the update that tells the client the commands.
func (s *liveSession) availableCommands() acp.AvailableCommandsUpdate {
	var out []acp.AvailableCommand
	for _, c := range s.commands() {
		cmd := acp.AvailableCommand{Name: c.name, Description: c.description}
		if c.hint != "" {
			cmd.Input = &acp.UnstructuredCommandInput{Hint: c.hint}
		}
		out = append(out, cmd)
	}
	return acp.AvailableCommandsUpdate{AvailableCommands: out}
}

// announce tells the client, once the answer that gives it the session
// has been sent, the session's commands; and, to a client that shows
// notices, what the session has to tell, from then on as it comes.
func (s *liveSession) announce(ctx context.Context) {
	send := func() {
		s.out.push(s.availableCommands())
		if s.mapper.opts.Notices {
			s.rt.TellAtOnce()
		}
	}
	if !acp.AfterAnswer(ctx, send) {
		send()
	}
}

// parseCommand finds the command a prompt starts with ("/name args");
// ok is false for a prompt that is not one of the session's commands.
func (s *liveSession) parseCommand(content []presentation.ContentBlock) (cmd slashCommand, line, args string, ok bool) {
	text := strings.TrimSpace(presentation.JoinText(content))
	if !strings.HasPrefix(text, "/") {
		return cmd, "", "", false
	}
	name, args, _ := strings.Cut(text[1:], " ")
	if i := strings.IndexAny(name, "\n\t"); i >= 0 {
		name, args = name[:i], name[i+1:]+" "+args
	}
	for _, c := range s.commands() {
		if c.name == name {
			return c, text, strings.TrimSpace(args), true
		}
	}
	return cmd, "", "", false
}

// runLocal answers a local command: its reply is logged (so a replay shows
// it) and shown; the model does not see it.
func (s *liveSession) runLocal(ctx context.Context, t *live.Turn, cmd slashCommand, line, args string) error {
	reply, err := cmd.local(s, ctx, t, args)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		reply = fmt.Sprintf("/%s failed: %v", cmd.name, err)
	}
	if reply == "" {
		return nil
	}
	s.rt.Log().Append(session.CommandRan{Line: line, Reply: reply})
	return nil
}

func (s *liveSession) help(context.Context, *live.Turn, string) (string, error) {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, c := range s.commands() {
		fmt.Fprintf(&b, "- /%s — %s\n", c.name, c.description)
	}
	return b.String(), nil
}

func (s *liveSession) undo(ctx context.Context, t *live.Turn, _ string) (string, error) {
	undone, err := t.Undo(ctx)
	if err != nil {
		return "", err
	}
	return undoReply(undone, s.mapper.opts.Cwd), nil
}

// undoListed bounds the files an /undo reply names in each list; the
// rest are counted.
const undoListed = 40

// undoReply is what the user reads after an /undo: each file put back,
// each file left as it is with the reason, and the note; a path inside
// cwd is shown relative to it.
func undoReply(u live.Undone, cwd string) string {
	var b strings.Builder
	switch {
	case !u.Turn:
		b.WriteString("Nothing to undo: no earlier turn changed a file.")
	case len(u.Files) == 0 && len(u.Conflicts) == 0:
		b.WriteString("The last turn changed no file; nothing to revert.")
	}
	return revertedFiles(&b, u, "the last turn", cwd)
}

// revertedFiles writes to b, after what it holds, the files an undo of
// turn (a phrase) put back and those it left as they are, with the
// reasons, and returns the whole text with the note; a path inside cwd
// is shown relative to it.
func revertedFiles(b *strings.Builder, u live.Undone, turn, cwd string) string {
	shown := func(path string) string {
		if rel, ok := workspace.Relative(cwd, path); ok && rel != "." {
			return rel
		}
		return path
	}
	if n := len(u.Files); n > 0 {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "Reverted %d %s %s changed:\n", n, plural(n, "file", "files"), turn)
		listLines(b, u.Files, func(f session.FileRestored) string { return shown(f.Path) })
	}
	if n := len(u.Conflicts); n > 0 {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "Left as %s (nothing was overwritten or deleted):\n", plural(n, "it is", "they are"))
		listLines(b, u.Conflicts, func(c live.UndoConflict) string { return shown(c.Path) + ": " + c.Reason })
	}
	reply := strings.TrimSuffix(b.String(), "\n")
	if u.Note != "" {
		reply += "\n\n" + u.Note
	}
	return reply
}

// listLines writes a "- " line for each of the first undoListed items,
// and one that counts the rest.
func listLines[T any](b *strings.Builder, items []T, line func(T) string) {
	for _, item := range items[:min(len(items), undoListed)] {
		fmt.Fprintf(b, "- %s\n", line(item))
	}
	if rest := len(items) - undoListed; rest > 0 {
		fmt.Fprintf(b, "- and %d more\n", rest)
	}
}

func (s *liveSession) compact(ctx context.Context, t *live.Turn, _ string) (string, error) {
	turns, err := t.Compact(ctx)
	if err != nil {
		return "", err
	}
	if turns == 0 {
		return "Nothing to compact yet: the conversation has no earlier turn to summarize.", nil
	}
	return fmt.Sprintf("Summarized %d earlier %s; the model sees the summary and the latest turn.", turns, plural(turns, "turn", "turns")), nil
}

func (s *liveSession) permissions(_ context.Context, _ *live.Turn, args string) (string, error) {
	book := s.rt.Rules()
	if verb, n, _ := strings.Cut(args, " "); verb == "remove" || verb == "delete" {
		i, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil {
			return "", fmt.Errorf("say which rule to remove by its number, e.g. /permissions remove 2")
		}
		removed, err := book.Forget(i - 1)
		if err != nil {
			return "", err
		}
		return "Removed: " + removed.String() + ".", nil
	} else if args != "" {
		return "", fmt.Errorf("unknown argument %q: /permissions lists the rules, /permissions remove N forgets one", args)
	}
	rules, err := book.List()
	if err != nil {
		return "", err
	}
	if len(rules) == 0 {
		return "No remembered approvals in this project. Answer a permission prompt with an \"Always\" option to add one.", nil
	}
	var b strings.Builder
	b.WriteString("Remembered approvals in this project (a reject wins over an allow):\n")
	for i, r := range rules {
		fmt.Fprintf(&b, "%d. %s\n", i+1, r)
	}
	b.WriteString("\n/permissions remove N forgets one.")
	return b.String(), nil
}
