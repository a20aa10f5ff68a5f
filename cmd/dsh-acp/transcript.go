package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

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

	mu      sync.Mutex
	text    strings.Builder
	titles  map[string]string
	running map[string]bool
}

func newTranscript(out io.Writer, dir string, verbose bool) *transcript {
	return &transcript{out: out, dir: dir, verbose: verbose, titles: map[string]string{}, running: map[string]bool{}}
}

func (t *transcript) header(name, version string, protocol int, preset policy.Preset) {
	fmt.Fprintf(t.out, "dsh-acp demo — %s %s, ACP v%d, workspace %s\n", name, version, protocol, t.dir)
	fmt.Fprintf(t.out, "permission preset %s; the demo approves each permission request once\n\n", preset)
}

func (t *transcript) user(prompt string) {
	fmt.Fprintf(t.out, "user> %s\n\n", prompt)
}

// update prints one session/update.
func (t *transcript) update(params json.RawMessage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.verbose {
		fmt.Fprintf(t.out, "  ⟨%s⟩\n", params)
	}
	var n struct {
		Update struct {
			Kind       string `json:"sessionUpdate"`
			Content    json.RawMessage
			ToolCallID string `json:"toolCallId"`
			Title      string `json:"title"`
			ToolKind   string `json:"kind"`
			Status     string `json:"status"`
			Entries    []struct{ Content, Status string }
			Meta       struct {
				Output *struct{ Data string } `json:"terminal_output"`
				Exit   *struct {
					ExitCode *int   `json:"exit_code"`
					Signal   string `json:"signal"`
				} `json:"terminal_exit"`
			} `json:"_meta"`
		} `json:"update"`
	}
	if err := json.Unmarshal(params, &n); err != nil {
		fmt.Fprintf(t.out, "  (unreadable update: %v)\n", err)
		return
	}
	u := n.Update
	if u.Kind != "agent_message_chunk" {
		t.flushText()
	}
	switch u.Kind {
	case "agent_message_chunk":
		var c struct{ Text string }
		json.Unmarshal(u.Content, &c)
		t.text.WriteString(c.Text)
	case "tool_call":
		t.titles[u.ToolCallID] = u.Title
		fmt.Fprintf(t.out, "● %s  (%s)\n", u.Title, u.ToolKind)
	case "tool_call_update":
		t.toolUpdate(u.ToolCallID, u.Status, u.Content, u.Meta.Output, u.Meta.Exit)
	case "plan":
		fmt.Fprintln(t.out, "  plan:")
		for _, e := range u.Entries {
			mark := map[string]string{"completed": "[x]", "in_progress": "[~]"}[e.Status]
			if mark == "" {
				mark = "[ ]"
			}
			fmt.Fprintf(t.out, "    %s %s\n", mark, e.Content)
		}
	}
}

func (t *transcript) toolUpdate(id, status string, content json.RawMessage, output *struct{ Data string }, exit *struct {
	ExitCode *int   `json:"exit_code"`
	Signal   string `json:"signal"`
}) {
	if output != nil && output.Data != "" {
		for _, line := range strings.SplitAfter(strings.TrimRight(output.Data, "\n"), "\n") {
			fmt.Fprintf(t.out, "  │ %s\n", strings.TrimRight(line, "\n"))
		}
	}
	if exit != nil {
		if exit.Signal != "" {
			fmt.Fprintf(t.out, "  └ killed by %s\n", exit.Signal)
		} else if exit.ExitCode != nil {
			fmt.Fprintf(t.out, "  └ exit status %d\n", *exit.ExitCode)
		}
	}
	if status == "completed" || status == "failed" {
		t.printContent(content)
		fmt.Fprintf(t.out, "  %s\n\n", status)
	}
}

// printContent shows a completed call's diffs as unified hunks and its
// text as indented lines. A diff's texts are whole lines, each with its
// newline where the file has one (hunks logged before issue 17 lack the
// last one); the transcript gives each text a final newline when it lacks
// one, so a missing one at the end of a file is not marked.
func (t *transcript) printContent(content json.RawMessage) {
	var items []struct {
		Type    string
		Path    string
		OldText *string
		NewText string
		Content struct{ Text string }
	}
	json.Unmarshal(content, &items)
	for _, it := range items {
		switch it.Type {
		case "diff":
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
		case "content":
			for _, line := range strings.Split(strings.TrimRight(it.Content.Text, "\n"), "\n") {
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
func (t *transcript) permission(params json.RawMessage) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushText()
	var req struct {
		ToolCall struct {
			Title string `json:"title"`
		} `json:"toolCall"`
		Options []struct {
			OptionID string `json:"optionId"`
			Kind     string `json:"kind"`
		} `json:"options"`
	}
	json.Unmarshal(params, &req)
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
