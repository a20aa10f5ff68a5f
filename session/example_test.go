package session_test

import (
	"fmt"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

func ExampleLog() {
	log := session.NewLog(nil)
	stop := log.Subscribe(func(ev session.Event) {
		fmt.Printf("#%d turn %d %s\n", ev.Seq, ev.Turn, ev.Payload.Kind())
	})
	defer stop()
	log.Append(session.TurnStarted{})
	log.Append(session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("fix the bug")}})
	log.Append(session.AssistantChunk{Text: "On it."})
	log.Append(session.TurnEnded{Reason: session.StopEndTurn})
	// Output:
	// #1 turn 1 turn/start
	// #2 turn 1 user/message
	// #3 turn 1 assistant/chunk
	// #4 turn 1 turn/end
}
