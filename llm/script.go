package llm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// LoadScript reads the model script at path (the DSH_MODEL_SCRIPT format of
// DESIGN.md) and returns a [Scripted] provider replaying it, keeping no
// requests. Errors are [*ScriptError] values naming the file and, for a
// bad line, its number.
func LoadScript(path string) (*Scripted, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &ScriptError{File: path, Err: err}
	}
	defer f.Close()
	return ReadScript(f, path)
}

// ReadScript parses a model script from r; name identifies it in errors.
// The provider keeps no requests (see Scripted).
//
// The format is one JSON object per line:
//
//	{"text"?: string, "reasoning"?: string,
//	 "tool_calls"?: [{"id"?: string, "name": string, "arguments": object | string}]}
//
// A string "arguments" is kept verbatim, even if it is not valid JSON; an
// object becomes its compact JSON text, keys in the order written; absent
// or null arguments become "{}". Blank lines are skipped; unknown keys are
// errors, so a misspelled key is caught.
func ReadScript(r io.Reader, name string) (*Scripted, error) {
	steps, err := parseScript(r, name)
	if err != nil {
		return nil, err
	}
	return NewScripted(steps...).KeepRequests(0), nil
}

func parseScript(r io.Reader, name string) ([]Message, error) {
	br := bufio.NewReader(r)
	var steps []Message
	for lineNo := 1; ; lineNo++ {
		line, readErr := br.ReadBytes('\n')
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return nil, &ScriptError{File: name, Line: lineNo, Err: readErr}
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			step, err := parseScriptLine(trimmed)
			if err != nil {
				return nil, &ScriptError{File: name, Line: lineNo, Err: err}
			}
			steps = append(steps, step)
		}
		if readErr != nil {
			return steps, nil
		}
	}
}

type scriptLine struct {
	Text      string           `json:"text"`
	Reasoning string           `json:"reasoning"`
	ToolCalls []scriptToolCall `json:"tool_calls"`
}

type scriptToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func parseScriptLine(line []byte) (Message, error) {
	if line[0] != '{' {
		return Message{}, errors.New("want one JSON object per line")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var sl scriptLine
	if err := dec.Decode(&sl); err != nil {
		return Message{}, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Message{}, errors.New("unexpected text after the JSON object")
	}
	msg := Message{Role: RoleAssistant, Content: sl.Text, Reasoning: sl.Reasoning}
	for i, tc := range sl.ToolCalls {
		if strings.TrimSpace(tc.Name) == "" {
			return Message{}, fmt.Errorf("tool_calls[%d]: name is required", i)
		}
		args, err := scriptArguments(tc.Arguments)
		if err != nil {
			return Message{}, fmt.Errorf("tool_calls[%d] (%s): %w", i, tc.Name, err)
		}
		msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Name, Arguments: args})
	}
	return msg, nil
}

// scriptArguments returns the argument text of a scripted tool call.
func scriptArguments(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "{}", nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	case raw[0] == '{':
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return "", err
		}
		return buf.String(), nil
	default:
		return "", errors.New("arguments must be a JSON object or a string")
	}
}
