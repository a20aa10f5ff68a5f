package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/diffcard"
	"github.com/dsh-acp/dsh-acp/policy"
)

// transcript prints a session the way a person reads it: the agent's
// words, each tool call with its diff or terminal output, the approvals
// asked and answered, and the plan.
type transcript struct {
	out     io.Writer
	dir     string
	verbose bool

	mu   sync.Mutex
	text strings.Builder
}

func newTranscript(out io.Writer, dir string, verbose bool) *transcript {
	return &transcript{out: out, dir: dir, verbose: verbose}
}

func (t *transcript) header(name, version string, protocol int, preset policy.Preset) {
	fmt.Fprintf(t.out, "dsh-acp demo — %s %s, ACP v%d, workspace %s\n", name, version, protocol, t.dir)
	fmt.Fprintf(t.out, "permission preset %s; the demo approves each permission request once\n\n", preset)
}

func (t *transcript) user(prompt string) {
	fmt.Fprintf(t.out, "user> %s\n\n", prompt)
}

// frame prints a session/update's params as they came, in verbose mode.
func (t *transcript) frame(params json.RawMessage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.verbose {
		fmt.Fprintf(t.out, "  ⟨%s⟩\n", params)
	}
}

// update prints one session/update: the agent's text, tool calls and
// their progress, and the plan; the other updates show nothing.
func (t *transcript) update(n acp.SessionNotification) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := n.Update.(acp.AgentMessageChunk); !ok {
		t.flushText()
	}
	switch u := n.Update.(type) {
	case acp.AgentMessageChunk:
		if text, ok := u.Content.(acp.TextContent); ok {
			t.text.WriteString(text.Text)
		}
	case acp.ToolCall:
		fmt.Fprintf(t.out, "● %s  (%s)\n", u.Title, u.Kind)
	case acp.ToolCallUpdate:
		t.toolUpdate(u)
	case acp.Plan:
		fmt.Fprintln(t.out, "  plan:")
		for _, e := range u.Entries {
			mark := map[acp.PlanEntryStatus]string{"completed": "[x]", "in_progress": "[~]"}[e.Status]
			if mark == "" {
				mark = "[ ]"
			}
			fmt.Fprintf(t.out, "    %s %s\n", mark, e.Content)
		}
	}
}

// toolUpdate prints a tool call's terminal output and exit as they come,
// and its content and status once it is done.
func (t *transcript) toolUpdate(u acp.ToolCallUpdate) {
	if meta := u.Meta; meta != nil {
		if out := meta.TerminalOutput; out != nil && out.Data != "" {
			for _, line := range strings.SplitAfter(strings.TrimRight(out.Data, "\n"), "\n") {
				fmt.Fprintf(t.out, "  │ %s\n", strings.TrimRight(line, "\n"))
			}
		}
		if exit := meta.TerminalExit; exit != nil {
			if exit.Signal != "" {
				fmt.Fprintf(t.out, "  └ killed by %s\n", exit.Signal)
			} else if exit.ExitCode != nil {
				fmt.Fprintf(t.out, "  └ exit status %d\n", *exit.ExitCode)
			}
		}
	}
	if u.Status == acp.ToolCallStatusCompleted || u.Status == acp.ToolCallStatusFailed {
		t.printContent(u.Content)
		fmt.Fprintf(t.out, "  %s\n\n", u.Status)
	}
}

// printContent shows a completed call's diffs as unified hunks and its
// text as indented lines. A diff's texts are whole lines, each with its
// newline where the file has one (hunks logged before issue 17 lack the
// last one); the transcript gives each text a final newline when it lacks
// one, so a missing one at the end of a file is not marked.
func (t *transcript) printContent(content []acp.ToolCallContent) {
	for _, item := range content {
		switch it := item.(type) {
		case acp.Diff:
			old := ""
			if it.OldText != nil {
				old = asLines(*it.OldText)
			}
			rel := strings.TrimPrefix(it.Path, t.dir+string(os.PathSeparator))
			u, err := diffcard.Unified("a/"+rel, "b/"+rel, old, asLines(it.NewText))
			if err != nil {
				fmt.Fprintf(t.out, "  (diff not printable: %v)\n", err)
				continue
			}
			for _, line := range strings.Split(strings.TrimRight(u, "\n"), "\n") {
				fmt.Fprintf(t.out, "  %s\n", line)
			}
		case acp.ContentItem:
			text, ok := it.Content.(acp.TextContent)
			if !ok {
				continue
			}
			for _, line := range strings.Split(strings.TrimRight(text.Text, "\n"), "\n") {
				fmt.Fprintf(t.out, "  │ %s\n", line)
			}
		}
	}
}

// asLines is text ending in a newline: as it is when it has one or is
// empty, else with one added.
func asLines(text string) string {
	if text == "" || strings.HasSuffix(text, "\n") {
		return text
	}
	return text + "\n"
}

// permission prints the approval asked and the demo's answer.
func (t *transcript) permission(req acp.RequestPermissionRequest) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushText()
	answer := "allow-once"
	var offered []string
	for _, o := range req.Options {
		offered = append(offered, o.OptionID)
	}
	fmt.Fprintf(t.out, "  ? permission asked for %q (options: %s)\n", req.ToolCall.Title, strings.Join(offered, ", "))
	fmt.Fprintf(t.out, "  → answered %s\n", answer)
	return answer
}

func (t *transcript) flushText() {
	if t.text.Len() == 0 {
		return
	}
	fmt.Fprintf(t.out, "agent> %s\n\n", strings.TrimSpace(t.text.String()))
	t.text.Reset()
}

// finish prints the stop reason and the resulting file, and returns the
// exit status: 0 when the session ended normally with the expected file.
func (t *transcript) finish(reason, file string) int {
	t.mu.Lock()
	t.flushText()
	t.mu.Unlock()
	fmt.Fprintf(t.out, "stop reason: %s\n", reason)
	data, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(t.out, "greet.sh was not written: %v\n", err)
		return 1
	}
	fmt.Fprintf(t.out, "\ngreet.sh now reads:\n%s", data)
	if reason != "end_turn" || string(data) != demoExpected {
		fmt.Fprintln(t.out, "the demo did not end as scripted")
		return 1
	}
	return 0
}
