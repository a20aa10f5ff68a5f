package bridge_test

import (
	"os"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/secrets"
)

// TestSecretsStayHome: a secret of dsh-acp's environment that a command
// prints (read from a file, since commands never inherit the variable)
// reaches neither the editor (no frame holds it: the terminal output, the
// tool_call_update, the diff of an edit beside it) nor the model (the next
// request's tool results), each of which shows [REDACTED] instead. The
// user's file keeps it: the edit written through fs/write_text_file holds
// the secret byte for byte.
func TestSecretsStayHome(t *testing.T) {
	const secret = "aws-Zq8wX2vN/pL4rT6yB+secret"
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	red := secrets.NewRedactor(secrets.EnvValues(os.Environ())...)
	model := llm.NewScripted(
		toolStep("c_cat", "bash", map[string]any{"command": "cat aws.txt && echo \"inherited: [$AWS_SECRET_ACCESS_KEY]\""}),
		toolStep("c_edit", "edit", map[string]any{"file_path": ".env", "old_string": "REGION=eu", "new_string": "REGION=us"}),
		llm.Message{Content: "done"},
	)
	e := newEnv(t, withProvider(model), withRedactor(red))
	writeFile(t, e.dir+"/aws.txt", "key: "+secret+"\n")
	writeFile(t, e.dir+"/.env", "AWS_SECRET_ACCESS_KEY="+secret+"\nREGION=eu\n")
	ed := newEditor(e.c, map[string]string{})
	e.initialize(caps(true, true, true))
	s := e.newSession("")
	if got := e.prompt(s, "show the key"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	us := e.updates(s)
	for _, id := range []string{"c_cat", "c_edit"} {
		if st := finalStatus(forCall(us, id)); st != "completed" {
			t.Fatalf("%s ended %q", id, st)
		}
	}
	redactedFrames := 0
	for i, f := range e.c.Frames() {
		raw := string(f.Raw)
		if f.Method == "fs/write_text_file" {
			continue // the file's content: see below
		}
		if strings.Contains(raw, secret) || strings.Contains(raw, "Zq8wX2vN") {
			t.Errorf("frame %d (%s) shows the secret: %s", i, f.Method, raw)
		}
		if strings.Contains(raw, secrets.Marker) {
			redactedFrames++
		}
	}
	if redactedFrames == 0 {
		t.Errorf("no frame shows %s", secrets.Marker)
	}
	if res := toolResults(model.Requests()[1]); strings.Contains(res, "Zq8wX2vN") || !strings.Contains(res, "key: "+secrets.Marker) {
		t.Errorf("the model's next request holds the tool result %q; want the secret redacted", res)
	}
	if res := toolResults(model.Requests()[1]); !strings.Contains(res, "inherited: []") {
		t.Errorf("the command inherited the secret: %q", res)
	}
	_, writes := ed.snapshot()
	if len(writes) != 1 || writes[0].Content != "AWS_SECRET_ACCESS_KEY="+secret+"\nREGION=us\n" {
		t.Errorf("fs/write_text_file requests = %+v; want the edited file, secret intact", writes)
	}
}
