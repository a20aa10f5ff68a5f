package bridge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// TestStoreFailuresAreTold: when the session cannot be stored, every
// turn still ends normally, the user is told once in the session —
// naming the state directory and the error — and what can be kept is
// kept: with only the index failing, the log holds the conversation and
// the next store lists the session.
func TestStoreFailuresAreTold(t *testing.T) {
	tests := []struct {
		name string
		// break_ damages the state dir after the store opened it.
		break_    func(t *testing.T, state string)
		wantError string // in the notice; "" means no notice
		// logKept says the session's log holds the conversation.
		logKept bool
	}{
		{name: "a healthy store", break_: func(*testing.T, string) {}, logKept: true},
		{
			name: "the index cannot be written",
			break_: func(t *testing.T, state string) {
				// A directory in the index's place can be neither read nor replaced.
				if err := os.MkdirAll(filepath.Join(state, "index.json", "in-the-way"), 0o700); err != nil {
					t.Fatal(err)
				}
			},
			wantError: "index.json", logKept: true,
		},
		{
			name: "the sessions directory cannot be written",
			break_: func(t *testing.T, state string) {
				// As root no permission stops a write: a file in the
				// directory's place does.
				sessions := filepath.Join(state, "sessions")
				if err := os.Remove(sessions); err != nil {
					t.Fatal(err)
				}
				writeFile(t, sessions, "not a directory\n")
			},
			wantError: "not a directory",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := t.TempDir()
			store := openStore(t, state)
			tt.break_(t, state)
			e := newEnv(t, withStore(store), withProvider(llm.NewScripted(
				llm.Message{Content: "First answer."}, llm.Message{Content: "Second answer."})))
			e.initialize(caps(true, false, false))
			id := e.newSession("")
			for _, text := range []string{"remember the first prompt", "and the second"} {
				if got := e.prompt(id, text); got != "end_turn" {
					t.Fatalf("prompt %q = %s: a storage failure must not fail the turn", text, got)
				}
			}

			said := agentText(e.updates(id))
			notices := strings.Count(said, "could not be stored in ")
			switch {
			case tt.wantError == "" && notices != 0:
				t.Errorf("a healthy store was reported as failing:\n%s", said)
			case tt.wantError != "" && notices != 1:
				t.Errorf("told %d times, want once per session:\n%s", notices, said)
			case tt.wantError != "" && (!strings.Contains(said, "could not be stored in "+state+": ") || !strings.Contains(said, tt.wantError)):
				t.Errorf("the notice does not name the state dir %s and the error %q:\n%s", state, tt.wantError, said)
			}
			if !strings.Contains(said, "First answer.") || !strings.Contains(said, "Second answer.") {
				t.Errorf("the turns did not run through:\n%s", said)
			}

			data, err := os.ReadFile(filepath.Join(state, "sessions", id+".jsonl"))
			if kept := err == nil && strings.Contains(string(data), "and the second"); kept != tt.logKept {
				t.Fatalf("log kept = %v, want %v (%v)", kept, tt.logKept, err)
			}
			if !tt.logKept {
				return
			}
			e.c.Close()
			if err := os.RemoveAll(filepath.Join(state, "index.json")); err != nil {
				t.Fatal(err)
			}
			metas, err := openStore(t, state).List("")
			if err != nil || len(metas) != 1 || metas[0].ID != id || metas[0].Title != "remember the first prompt" {
				t.Errorf("the next store lists %+v, %v", metas, err)
			}
		})
	}
}
