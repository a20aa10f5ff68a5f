package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Verify checks the agent's frames and the files afterwards against the
// case's expectations and the invariants every case keeps:
//   - every tool_call's rawInput is a JSON object;
//   - every request to the client (fs/*, session/request_permission) is
//     sent while a tool call it belongs to is open, and no message or
//     thought chunk arrives between it and the end of that call (nothing
//     queued before a request may follow it).
//
// stopReasons are the prompts' answers in order. It returns every failure.
func (c Case) Verify(l Layout, frames []Frame, stopReasons []string) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	x := c.Expect

	if !slices.Equal(stopReasons, x.StopReasons) {
		fail("stop reasons %q, want %q", stopReasons, x.StopReasons)
	}
	errs = append(errs, checkOrder(frames)...)

	calls := map[string][]Update{}
	permissions, fsWrites := 0, 0
	for _, f := range frames {
		switch f.Method {
		case "session/request_permission":
			permissions++
		case "fs/write_text_file":
			fsWrites++
		}
		if u, ok := f.update(); ok && u.ToolCallID != "" {
			calls[u.ToolCallID] = append(calls[u.ToolCallID], u)
			if u.Kind == "tool_call" && !isObject(u.RawInput) {
				fail("tool_call %s: rawInput %s is not an object", u.ToolCallID, u.RawInput)
			}
		}
	}
	if x.Permissions != nil && permissions != *x.Permissions {
		fail("%d permission requests, want %d", permissions, *x.Permissions)
	}
	if x.FSWrites != nil && fsWrites != *x.FSWrites {
		fail("%d fs/write_text_file requests, want %d", fsWrites, *x.FSWrites)
	}
	for id, want := range x.Status {
		if got := finalStatus(calls[id]); got != want {
			fail("call %s: final status %q, want %q", id, got, want)
		}
	}
	for id, subs := range x.Includes {
		text := callText(calls[id])
		for _, s := range subs {
			if !strings.Contains(text, s) {
				fail("call %s: updates do not mention %q: %s", id, s, text)
			}
		}
	}
	for id, subs := range x.Excludes {
		text := callText(calls[id])
		for _, s := range subs {
			if strings.Contains(text, s) {
				fail("call %s: updates mention %q", id, s)
			}
		}
	}
	for _, s := range x.ExcludesAll {
		for i, f := range frames {
			if bytes.Contains(f.Line, []byte(s)) {
				fail("frame %d mentions %q: %s", i+1, s, f.Line)
			}
		}
	}
	for id, want := range x.DiffOldText {
		if !hasDiffOldText(calls[id], want) {
			fail("call %s: no diff with oldText %q: %s", id, want, callText(calls[id]))
		}
	}
	for id, want := range x.RawInput {
		if got := announced(calls[id]); !jsonEqual(got, want) {
			fail("call %s: rawInput %s, want %s", id, got, want)
		}
	}
	for _, p := range x.Absent {
		path := l.Expand(p)
		if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
			fail("%s exists (or cannot be checked: %v)", path, err)
		}
	}
	for p, want := range x.Files {
		path := l.Expand(p)
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			fail("%s: content %q (%v), want %q", path, got, err, want)
		}
	}
	return errs
}

// checkOrder enforces that requests to the client come after what was
// queued before them: the request is made while a tool call is open, and
// no chunk arrives until some open call ends.
func checkOrder(frames []Frame) []error {
	var errs []error
	open := map[string]bool{}
	waiting := "" // the request after which no chunk may come yet
	for i, f := range frames {
		if u, ok := f.update(); ok {
			switch {
			case u.Kind == "tool_call" || u.Kind == "tool_call_update":
				if u.Kind == "tool_call" {
					open[u.ToolCallID] = true
				}
				if isFinal(u.Status) {
					delete(open, u.ToolCallID)
					waiting = ""
				}
			case u.Kind == "agent_message_chunk" || u.Kind == "agent_thought_chunk":
				if waiting != "" {
					errs = append(errs, fmt.Errorf("frame %d: a %s arrived after %s, before its call ended", i+1, u.Kind, waiting))
				}
			}
			continue
		}
		if f.Method == "" || f.ID == nil || f.Method == "session/update" {
			continue
		}
		if len(open) == 0 {
			errs = append(errs, fmt.Errorf("frame %d: %s sent while no tool call was open (its tool_call had not arrived)", i+1, f.Method))
		}
		waiting = f.Method
	}
	return errs
}

func finalStatus(us []Update) string {
	status := ""
	for _, u := range us {
		if u.Status != "" {
			status = u.Status
		}
	}
	return status
}

func callText(us []Update) string {
	var b strings.Builder
	for _, u := range us {
		b.Write(u.Raw)
		b.WriteByte('\n')
	}
	return b.String()
}

func hasDiffOldText(us []Update, want string) bool {
	for _, u := range us {
		for _, c := range u.Content {
			if c.Type == "diff" && c.OldText != nil && *c.OldText == want {
				return true
			}
		}
	}
	return false
}

func announced(us []Update) json.RawMessage {
	for _, u := range us {
		if u.Kind == "tool_call" {
			return u.RawInput
		}
	}
	return nil
}

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}
