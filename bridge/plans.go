package bridge

import (
	"strings"
	"unicode"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/session"
)

// The plans a session keeps, by their plan_update ids: the model's todo
// list (todo_write), and the plan it presents for review in plan mode
// (exit_plan_mode).
const (
	todoPlanID   = "todos"
	reviewPlanID = "plan"
)

// plan shows a plan event. To a client that shows plan operations
// (MapperOptions.Plans): the todo list as a plan_update of items, a
// cleared one that was shown as plan_removed, a reviewed plan as a
// plan_update of Markdown. To the others: the todo list as the plan
// update it always was, a reviewed plan as the agent's text followed by
// a plan update of its list items (or of its first line, when it has
// none), so that both its text and its steps are shown.
func (m *Mapper) plan(p session.PlanUpdated) []acp.Update {
	switch {
	case p.Markdown != "" && m.opts.Plans:
		return []acp.Update{acp.PlanUpdate{Plan: acp.PlanMarkdown{PlanID: reviewPlanID, Content: p.Markdown}}}
	case p.Markdown != "":
		text := strings.TrimRight(p.Markdown, "\n") + "\n\n"
		return []acp.Update{
			acp.AgentMessageChunk{Content: acp.Text(text)},
			acp.Plan{Entries: markdownSteps(p.Markdown)},
		}
	}
	entries := make([]acp.PlanEntry, len(p.Entries))
	for i, e := range p.Entries {
		priority := e.Priority
		if priority == "" {
			priority = "medium"
		}
		entries[i] = acp.PlanEntry{Content: e.Content, Priority: acp.PlanEntryPriority(priority), Status: acp.PlanEntryStatus(e.Status)}
	}
	switch {
	case !m.opts.Plans:
		return []acp.Update{acp.Plan{Entries: entries}}
	case len(entries) == 0 && m.todoShown:
		m.todoShown = false
		return []acp.Update{acp.PlanRemoved{PlanID: todoPlanID}}
	case len(entries) == 0:
		return nil
	default:
		m.todoShown = true
		return []acp.Update{acp.PlanUpdate{Plan: acp.PlanItems{PlanID: todoPlanID, Entries: entries}}}
	}
}

// markdownSteps are the pending entries of a Markdown plan: its
// top-level list items ("- x", "* x", "+ x", "1. x", "1) x", a task box
// "[ ]" dropped), or, when it has none, its first non-blank line without
// its heading marks.
func markdownSteps(markdown string) []acp.PlanEntry {
	step := func(text string) acp.PlanEntry {
		return acp.PlanEntry{Content: text, Priority: "medium", Status: "pending"}
	}
	var steps []acp.PlanEntry
	first := ""
	for line := range strings.Lines(markdown) {
		line = strings.TrimRight(line, "\r\n")
		if first == "" && strings.TrimSpace(line) != "" {
			first = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
		}
		if item, ok := listItem(line); ok {
			steps = append(steps, step(item))
		}
	}
	if len(steps) == 0 && first != "" {
		steps = append(steps, step(first))
	}
	return steps
}

// listItem returns the text of a top-level Markdown list item (indented
// by at most one space); ok is false for any other line.
func listItem(line string) (string, bool) {
	rest := strings.TrimPrefix(line, " ")
	if rest == "" || rest[0] == ' ' || rest[0] == '\t' {
		return "", false
	}
	switch {
	case strings.HasPrefix(rest, "- "), strings.HasPrefix(rest, "* "), strings.HasPrefix(rest, "+ "):
		rest = rest[2:]
	default:
		digits := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsDigit(r) })
		if digits <= 0 || !strings.HasPrefix(rest[digits:], ". ") && !strings.HasPrefix(rest[digits:], ") ") {
			return "", false
		}
		rest = rest[digits+2:]
	}
	for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
		rest = strings.TrimPrefix(rest, box)
	}
	rest = strings.TrimSpace(rest)
	return rest, rest != ""
}
