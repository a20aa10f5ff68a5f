// Package live runs one session of the agent: its turns one at a time,
// the checkpoint of the workspace around each turn, cancelling and
// closing, /undo, /rewind, /compact, the settings the user changes and
// the rules they remembered. It knows nothing of the protocol a client speaks:
// internal/app builds a Session from the session's parts, and bridge
// translates between it and ACP.
//
//	s := live.New(live.Parts{Turns: ag, Log: log, Checkpoints: undo})
//	reason, err := s.Prompt(ctx, content) // ErrTurnRunning while one runs
//	s.Cancel()                            // the running turn ends "cancelled"
//	s.Close()                             // cancels, waits, stops the parts
//
// A prompt sent while a cancelled turn is still winding down waits for it
// rather than being refused, so a client that cancels and prompts again at
// once is served in order.
package live
