package app_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/bridge"
	"github.com/dsh-acp/dsh-acp/internal/app"
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
	"github.com/dsh-acp/dsh-acp/tools/ask"
)

// editor is a client whose buffers differ from the disk.
type editor struct {
	bridge.Client
	buffers map[string]string
	writes  []string
}

func (e *editor) ReadTextFile(_ context.Context, req acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	text, ok := e.buffers[req.Path]
	if !ok {
		return acp.ReadTextFileResponse{}, fs.ErrNotExist
	}
	return acp.ReadTextFileResponse{Content: text}, nil
}

func (e *editor) WriteTextFile(_ context.Context, req acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	e.writes = append(e.writes, req.Path)
	e.buffers[req.Path] = req.Content
	return acp.WriteTextFileResponse{}, nil
}

func TestFactoryBuildsAWorkingSession(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ed := &editor{buffers: map[string]string{file: "unsaved buffer\n"}}
	model := llm.NewScripted(
		llm.Message{ToolCalls: []llm.ToolCall{
			{ID: "r", Name: "read", Arguments: `{"file_path":"notes.txt"}`},
			{ID: "w", Name: "write", Arguments: `{"file_path":"new.txt","content":"fresh\n"}`},
		}},
		llm.Message{Content: "done"},
	)
	factory := app.Factory(app.Config{Provider: model})
	rt, err := factory(context.Background(), bridge.SessionConfig{
		ID: "s1", Cwd: dir, Roots: []string{dir},
		Files: bridge.EditorFiles{SessionID: "s1", Client: ed, Read: true, Write: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	reason, err := rt.Prompt(context.Background(), []presentation.ContentBlock{presentation.Text("go")})
	if err != nil || reason != session.StopEndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	// The tools offered, and the editor's file access in use.
	tools := model.Requests()[0].Tools
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"read", "write", "edit", "grep", "glob", "bash", "job_output", "job_list", "job_kill", "todo_write"} {
		if !slices.Contains(names, want) {
			t.Errorf("tool %s not offered (got %v)", want, names)
		}
	}
	var readResult string
	for _, ev := range rt.Log().Events() {
		if r, ok := ev.Payload.(session.ToolResult); ok && r.CallID == "r" {
			readResult = presentation.JoinText(r.Content)
		}
	}
	if !strings.Contains(readResult, "unsaved buffer") {
		t.Errorf("read did not see the editor's buffer: %q", readResult)
	}
	if !slices.Contains(ed.writes, filepath.Join(dir, "new.txt")) {
		t.Errorf("write did not go through the editor: %v", ed.writes)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Errorf("write went to the disk behind the editor's back")
	}
}

func TestFactoryNeedsAProvider(t *testing.T) {
	dir := t.TempDir()
	if _, err := app.Factory(app.Config{})(context.Background(), bridge.SessionConfig{ID: "s", Cwd: dir, Roots: []string{dir}}); err == nil {
		t.Errorf("a session without a model was built")
	}
}

// TestFactoryOffersAskUserWithAnAsker: ask_user is offered exactly when
// the session has an Asker to put the questions to the user.
func TestFactoryOffersAskUserWithAnAsker(t *testing.T) {
	tests := []struct {
		name  string
		asker ask.Asker
		want  bool
	}{
		{"an asker", declineAll{}, true},
		{"none", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			model := llm.NewScripted(llm.Message{Content: "hi"})
			rt, err := app.Factory(app.Config{Provider: model})(context.Background(), bridge.SessionConfig{
				ID: "s1", Cwd: dir, Roots: []string{dir}, Asker: tt.asker,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			if _, err := rt.Prompt(context.Background(), []presentation.ContentBlock{presentation.Text("go")}); err != nil {
				t.Fatal(err)
			}
			offered := slices.ContainsFunc(model.Requests()[0].Tools, func(tool llm.Tool) bool { return tool.Name == ask.Name })
			if offered != tt.want {
				t.Errorf("ask_user offered: %v, want %v", offered, tt.want)
			}
		})
	}
}

// declineAll is an Asker whose user declines every question.
type declineAll struct{}

func (declineAll) Ask(context.Context, ask.Request) (ask.Reply, error) {
	return ask.Reply{Outcome: ask.Declined}, nil
}
