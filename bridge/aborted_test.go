package bridge_test

import (
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// A call the turn's cancel stopped reads so in the user's words, not in
// the pipeline's.
func TestACancelledCallSaysSo(t *testing.T) {
	tests := []struct {
		code, model, want string
	}{
		{registry.CodeAbortedBeforeDispatch, "Error: tool call aborted before dispatch", `"text":"Not run: the turn was cancelled before it started."`},
		{registry.CodeAborted, "Error: tool call aborted", `"text":"Stopped: the turn was cancelled while it ran."`},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			m := bridge.NewMapper(bridge.MapperOptions{})
			m.Map(ev(session.ToolCall{CallID: "c1", Name: "read", Arguments: `{}`}))
			got := encode(t, m.Map(ev(session.ToolResult{CallID: "c1", CallSeq: 1, IsError: true, Code: tt.code,
				Content: []presentation.ContentBlock{presentation.Text(tt.model)}})))
			if len(got) != 1 || !strings.Contains(got[0], tt.want) || !strings.Contains(got[0], `"status":"failed"`) {
				t.Errorf("update = %v, want a failed card saying %s", got, tt.want)
			}
			if len(got) == 1 && !strings.Contains(got[0], `"_meta":{"dsh-acp":{"stopped":true}}`) {
				t.Errorf("update = %s, want it marked stopped", got[0])
			}
		})
	}
}
