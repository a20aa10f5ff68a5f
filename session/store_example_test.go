package session_test

import (
	"fmt"
	"os"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
)

// ExampleStore records a session on disk, then loads it as a later
// process would and carries on.
func ExampleStore() {
	dir, err := os.MkdirTemp("", "dsh-acp-state")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	store, err := session.OpenStore(dir, session.StoreOptions{Redactor: secrets.NewRedactor("sk-secret")})
	if err != nil {
		panic(err)
	}

	// A new session: every event appended to its Log is buffered by the
	// Journal, and Flush writes it before the editor is shown it.
	journal, err := store.Create(session.Meta{Cwd: "/srv/proj", Title: "Fix the bug"})
	if err != nil {
		panic(err)
	}
	log := session.NewLog(nil)
	log.SetSink(journal)
	log.Append(session.TurnStarted{})
	log.Append(session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("my key is sk-secret")}})
	log.Append(session.AssistantChunk{Text: "On "})
	log.Append(session.AssistantChunk{Text: "it."})
	log.Append(session.TurnEnded{Reason: session.StopEndTurn})
	if err := journal.Flush(); err != nil {
		panic(err)
	}
	journal.Close()

	// Later: list the project's sessions, open one and carry on.
	metas, _ := store.List("/srv/proj")
	journal, loaded, err := store.Open(metas[0].ID)
	if err != nil {
		panic(err)
	}
	defer journal.Close()
	fmt.Println(loaded.Meta.Title)
	for _, ev := range loaded.Events {
		switch p := ev.Payload.(type) {
		case session.UserMessage:
			fmt.Printf("#%d %s %q\n", ev.Seq, p.Kind(), presentation.JoinText(p.Content))
		case session.AssistantChunk:
			fmt.Printf("#%d %s %q\n", ev.Seq, p.Kind(), p.Text)
		default:
			fmt.Printf("#%d %s\n", ev.Seq, p.Kind())
		}
	}
	log = session.RestoreLog(loaded.Events, nil)
	log.SetSink(journal)
	next := log.Append(session.TurnStarted{})
	fmt.Printf("next: #%d turn %d\n", next.Seq, next.Turn)
	// Output:
	// Fix the bug
	// #1 turn/start
	// #2 user/message "my key is [REDACTED]"
	// #3 assistant/chunk "On it."
	// #5 turn/end
	// next: #6 turn 2
}
