package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/policy"
)

// A frame of the agent's that the demo cannot decode ends the demo with
// an error naming the frame, whatever the frame is: a session/update, a
// permission request, or the answer to one of its requests.
func TestDemoClientFailsOnAFrameItCannotDecode(t *testing.T) {
	badUpdate := `{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":7,"title":"Write"}}`
	badPermission := `{"sessionId":"s1","toolCall":{"toolCallId":"c1","content":[{"type":"hologram"}]},"options":[]}`
	tests := []struct {
		name      string
		prompt    []string // what the fake agent sends once prompted, before it answers
		newAnswer string   // its answer to session/new
		want      []string
	}{
		{"an update", []string{notification("session/update", badUpdate)}, `{"sessionId":"s1"}`,
			[]string{"frame #1 (session/update) does not decode", "session update tool_call", badUpdate}},
		{"an unknown update", []string{notification("session/update", `{"sessionId":"s1","update":{"sessionUpdate":"weather"}}`)}, `{"sessionId":"s1"}`,
			[]string{"frame #1 (session/update)", `unknown session update "weather"`}},
		{"a permission request", []string{request(90, "session/request_permission", badPermission)}, `{"sessionId":"s1"}`,
			[]string{"frame #1 (session/request_permission) does not decode", `unknown tool call content "hologram"`, badPermission}},
		{"an answer", nil, `{"sessionId":["s1"]}`,
			[]string{"the agent's answer to session/new does not decode", `{"sessionId":["s1"]}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toAgent, fromClient := io.Pipe()
			toClient, fromAgent := io.Pipe()
			agentDone := make(chan struct{})
			go func() {
				defer close(agentDone)
				fakeAgent(toAgent, fromAgent, tt.newAnswer, tt.prompt)
			}()
			var out bytes.Buffer
			_, err := runDemoClient(t.Context(), toClient, fromClient, t.TempDir(), policy.WorkspaceWrite, newTranscript(&out, "/ws", false))
			fromClient.Close()
			toAgent.Close()
			<-agentDone
			if err == nil {
				t.Fatalf("the demo client took the frame; transcript:\n%s", out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// fakeAgent answers initialize and session/new (with newAnswer), and
// sends the frames of prompt when prompted, then ends the turn. It
// reads the client on a goroutine of its own, so the client's answers
// never wait for its writes, and returns when the client goes away.
func fakeAgent(r io.Reader, w io.WriteCloser, newAnswer string, prompt []string) {
	defer w.Close()
	type request struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	requests := make(chan request, 16)
	go func() {
		defer close(requests)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var msg request
			if json.Unmarshal(sc.Bytes(), &msg) == nil && msg.Method != "" {
				requests <- msg // answers from the client are dropped
			}
		}
	}()
	for msg := range requests {
		var lines []string
		switch msg.Method {
		case "initialize":
			lines = []string{answer(msg.ID, `{"protocolVersion":1,"agentInfo":{"name":"fake","version":"0"}}`)}
		case "session/new":
			lines = []string{answer(msg.ID, newAnswer)}
		case "session/prompt":
			lines = append(prompt, answer(msg.ID, `{"stopReason":"end_turn"}`))
		}
		for _, l := range lines {
			if _, err := io.WriteString(w, l+"\n"); err != nil {
				return
			}
		}
	}
}

func notification(method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params)
}

func request(id int, method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
}

func answer(id json.RawMessage, result string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}
