// Package session records what happens in a session as an append-only log
// of events. The events are the truth: the agent rebuilds the model's
// context from them, and the editor bridge maps each one to what the
// editor shows — live as it is appended, and again when a session is
// replayed.
//
//	log := session.NewLog(nil)
//	stop := log.Subscribe(func(ev session.Event) { bridge.Show(ev) })
//	defer stop()
//	log.Append(session.TurnStarted{})
//	log.Append(session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("fix the bug")}})
//	for _, ev := range log.Events() { … }
package session
