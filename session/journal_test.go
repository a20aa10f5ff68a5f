package session_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/session"
)

// TestJournalMergesBufferedPieces: pieces buffered together are one line
// on disk; pieces flushed apart are separate lines, merged again on load.
func TestJournalMergesBufferedPieces(t *testing.T) {
	ts := newTestStore(t)
	j := ts.create(t, session.Meta{ID: "s"})
	log := session.NewLog(nil)
	log.SetSink(j)
	log.Append(session.TurnStarted{})
	for i := range 1000 {
		log.Append(session.AssistantChunk{Text: fmt.Sprintf("r%d ", i), Reasoning: true})
	}
	for i := range 1000 {
		log.Append(session.AssistantChunk{Text: fmt.Sprintf("t%d ", i)})
	}
	log.Append(session.ToolOutput{CallID: "a", Output: "a1\n"})
	log.Append(session.ToolOutput{CallID: "a", Output: "a2\n"})
	log.Append(session.ToolOutput{CallID: "b", Output: "b1\n"})
	if err := j.Flush(); err != nil {
		t.Fatal(err)
	}
	// The same text run continues after a flush: a new line.
	log.Append(session.ToolOutput{CallID: "b", Output: "b2\n"})
	log.Append(session.ToolOutput{CallID: "b", Output: "b3\n"})
	log.Append(session.TurnEnded{Reason: session.StopEndTurn})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	lines := ts.readLog(t, "s")
	if !strings.HasPrefix(lines[0], `{"meta":`) {
		t.Fatalf("the log does not start with its meta line: %q", lines[0])
	}
	lines = lines[1:]
	wantKinds := []string{"turn/start", "assistant/chunk", "assistant/chunk", "tool/output", "tool/output", "tool/output", "turn/end"}
	if len(lines) != len(wantKinds)+1 || lines[len(lines)-1] != "" {
		t.Fatalf("log has %d lines, want %d:\n%s", len(lines)-1, len(wantKinds), strings.Join(lines, ""))
	}
	var onDisk []session.Event
	for _, line := range lines[:len(lines)-1] {
		ev, err := session.DecodeEvent([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		onDisk = append(onDisk, ev)
	}
	if got := kinds(onDisk); !slices.Equal(got, wantKinds) {
		t.Errorf("kinds on disk = %v, want %v", got, wantKinds)
	}
	if onDisk[1].Seq != 2 || onDisk[2].Seq != 1002 || onDisk[5].Seq != 2005 {
		t.Errorf("merged lines keep their first piece's Seq: %d %d %d", onDisk[1].Seq, onDisk[2].Seq, onDisk[5].Seq)
	}

	j2, loaded := ts.open(t, "s")
	defer j2.Close()
	if !slices.EqualFunc(loaded.Events, log.Events(), eventsEqual) {
		t.Errorf("loaded %v\nwant   %v", kinds(loaded.Events), kinds(log.Events()))
	}
	if got := loaded.Events[4].Payload.(session.ToolOutput).Output; got != "b1\nb2\nb3\n" {
		t.Errorf("b's output = %q", got)
	}
}

func eventsEqual(a, b session.Event) bool {
	return a.Seq == b.Seq && a.Turn == b.Turn && a.Time.Equal(b.Time) && fmt.Sprintf("%#v", a.Payload) == fmt.Sprintf("%#v", b.Payload)
}

// TestStoreOpenRecoversFromCorruption: a torn tail is ignored and cut off
// before the next append; a corrupt line in the middle, or one a newer
// build wrote, is skipped, counted and logged, and nothing else is lost.
func TestStoreOpenRecoversFromCorruption(t *testing.T) {
	tests := []struct {
		name        string
		damage      func(lines []string) []string // the log's lines, each with its newline
		wantKinds   []string
		wantSkipped int
		wantLog     string
		// keptLines is how many lines the file keeps before the next
		// append, its meta line included.
		keptLines int
	}{
		{
			name:      "torn last line without a newline",
			damage:    func(l []string) []string { return append(l, l[1][:len(l[1])/2]) },
			wantKinds: []string{"turn/start", "user/message", "turn/end"}, keptLines: 4,
			wantLog: "torn tail",
		},
		{
			name:      "garbage last line",
			damage:    func(l []string) []string { return append(l, "\x00\x00\x00\x00\n") },
			wantKinds: []string{"turn/start", "user/message", "turn/end"}, keptLines: 4,
			wantLog: "torn tail",
		},
		{
			name:      "garbage then a torn line",
			damage:    func(l []string) []string { return append(l, "{\"seq\":9,\"ti\n", "{\"se") },
			wantKinds: []string{"turn/start", "user/message", "turn/end"}, keptLines: 4,
			wantLog: "torn tail",
		},
		{
			name: "corrupt middle line",
			damage: func(l []string) []string {
				return slices.Insert(l, 1, "{\"seq\":2,\"time\":\"2026-11-29T12:00:00Z\",\"tu\n")
			},
			wantKinds: []string{"turn/start", "user/message", "turn/end"}, wantSkipped: 1, keptLines: 5,
			wantLog: "skipped a corrupt line",
		},
		{
			name: "a kind from a newer build",
			damage: func(l []string) []string {
				return slices.Insert(l, 2, `{"seq":3,"time":"2026-11-29T12:00:00Z","turn":1,"kind":"future/thing","data":{}}`+"\n")
			},
			wantKinds: []string{"turn/start", "user/message", "turn/end"}, wantSkipped: 1, keptLines: 5,
			wantLog: "future/thing",
		},
		{
			name:      "blank lines",
			damage:    func(l []string) []string { return slices.Insert(l, 1, "\n", "  \n") },
			wantKinds: []string{"turn/start", "user/message", "turn/end"}, keptLines: 6,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestStore(t)
			j := ts.create(t, session.Meta{ID: "s"})
			record(t, j, session.NewLog(nil), session.TurnStarted{}, session.UserMessage{}, session.TurnEnded{})
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			lines := ts.readLog(t, "s")
			damaged := tt.damage(lines[:len(lines)-1])
			if err := os.WriteFile(ts.logPath("s"), []byte(strings.Join(damaged, "")), 0o600); err != nil {
				t.Fatal(err)
			}

			j2, loaded := ts.open(t, "s")
			if got := kinds(loaded.Events); !slices.Equal(got, tt.wantKinds) || loaded.Skipped != tt.wantSkipped {
				t.Errorf("loaded %v skipped %d, want %v skipped %d", got, loaded.Skipped, tt.wantKinds, tt.wantSkipped)
			}
			if !strings.Contains(ts.log.String(), tt.wantLog) {
				t.Errorf("log lacks %q:\n%s", tt.wantLog, ts.log.String())
			}
			// The next append starts on a line of its own.
			log := session.RestoreLog(loaded.Events, nil)
			record(t, j2, log, session.TurnStarted{})
			if err := j2.Close(); err != nil {
				t.Fatal(err)
			}
			after := ts.readLog(t, "s")
			if len(after) != tt.keptLines+2 || !strings.Contains(after[tt.keptLines], `"kind":"turn/start"`) {
				t.Errorf("log after the append:\n%q", after)
			}
			j3, reloaded := ts.open(t, "s")
			defer j3.Close()
			if got := kinds(reloaded.Events); !slices.Equal(got, append(tt.wantKinds, "turn/start")) {
				t.Errorf("reloaded %v", got)
			}
		})
	}
}

// TestJournalConcurrentWriteAndFlush: the outbox flushes while the agent
// appends; every event lands once, in order.
func TestJournalConcurrentWriteAndFlush(t *testing.T) {
	ts := newTestStore(t)
	j := ts.create(t, session.Meta{ID: "s"})
	log := session.NewLog(nil)
	log.SetSink(j)
	const writers, each = 4, 200
	done := make(chan struct{})
	var flushes sync.WaitGroup
	flushes.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
				if err := j.Flush(); err != nil {
					t.Error(err)
					return
				}
			}
		}
	})
	var appends sync.WaitGroup
	for w := range writers {
		appends.Go(func() {
			for i := range each {
				if i%2 == 0 {
					log.Append(session.ToolStarted{CallID: fmt.Sprint(w)})
				} else {
					log.Append(session.ToolOutput{CallID: fmt.Sprint(w), Output: "x"})
				}
			}
		})
	}
	appends.Wait()
	close(done)
	flushes.Wait()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j2, loaded := ts.open(t, "s")
	defer j2.Close()
	if !slices.EqualFunc(loaded.Events, log.Events(), eventsEqual) {
		t.Errorf("loaded %d events, the log kept %d", len(loaded.Events), log.Len())
	}
}

func TestJournalDropsWritesAfterClose(t *testing.T) {
	ts := newTestStore(t)
	j := ts.create(t, session.Meta{ID: "s"})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j.Write(session.Event{Seq: 1, Payload: session.TurnStarted{}})
	if err := j.Flush(); err != nil {
		t.Errorf("Flush after Close = %v", err)
	}
	if !strings.Contains(ts.log.String(), "after close") {
		t.Errorf("the dropped event was not logged:\n%s", ts.log.String())
	}
	if files := ts.files(t); len(files) != 0 {
		t.Errorf("a session closed before it had events left %v", files)
	}
}
