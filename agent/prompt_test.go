package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/llm"
)

func TestProjectInstructionsHaveTheirOwnSection(t *testing.T) {
	tests := []struct {
		name         string
		instructions string
		want         string // "" when the section must be absent
	}{
		{"none", "", ""},
		{"white space only", " \n\n", ""},
		{"given", "## AGENTS.md\n\nRun make test before committing.\n",
			"\n# Project instructions\nThe project gives these instructions for working in it. " +
				"Follow them; where they conflict with the user's requests in this conversation, the user's requests win.\n\n" +
				"## AGENTS.md\n\nRun make test before committing.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := llm.NewScripted(llm.Message{Content: "ok"})
			h := newHarness(t, model, func(o *agent.Options) { o.Instructions = tt.instructions })
			if _, err := h.prompt(context.Background(), "hi"); err != nil {
				t.Fatal(err)
			}
			system := model.Requests()[0].System
			switch {
			case tt.want == "" && strings.Contains(system, "# Project instructions"):
				t.Errorf("an empty section:\n%s", system)
			case tt.want != "" && !strings.HasSuffix(system, tt.want):
				t.Errorf("system prompt does not end with the instructions:\n%s", system)
			}
		})
	}
}

func TestClientSystemPrompt(t *testing.T) {
	tests := []struct {
		name          string
		prompt        agent.ClientPrompt
		want, without []string
	}{
		{"none", agent.ClientPrompt{}, []string{"You are dsh", "# How to work"}, []string{"# Instructions from the editor"}},
		{"appended", agent.ClientPrompt{Text: "Answer in French."},
			[]string{"You are dsh", "# How to work", "\n# Instructions from the editor\nAnswer in French.\n"}, nil},
		{"in place of ours", agent.ClientPrompt{Text: "You are a reviewer; change nothing.", Override: true},
			[]string{"You are a reviewer; change nothing.\n\n# Tools\n", "# Workspace", "# Project instructions"},
			[]string{"You are dsh", "# How to work", "# Instructions from the editor"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := llm.NewScripted(llm.Message{Content: "ok"})
			h := newHarness(t, model, func(o *agent.Options) {
				o.ClientPrompt = tt.prompt
				o.Instructions = "Run make test."
			})
			if _, err := h.prompt(context.Background(), "hi"); err != nil {
				t.Fatal(err)
			}
			system := model.Requests()[0].System
			for _, w := range tt.want {
				if !strings.Contains(system, w) {
					t.Errorf("the system prompt lacks %q:\n%s", w, system)
				}
			}
			for _, w := range tt.without {
				if strings.Contains(system, w) {
					t.Errorf("the system prompt has %q:\n%s", w, system)
				}
			}
		})
	}
}
