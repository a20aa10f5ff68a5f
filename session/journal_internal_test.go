package session

import (
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// fullDisk is a log file whose writes fail while full is set, after
// storing half of what they were given, the way a write(2) that runs out
// of space does.
type fullDisk struct {
	*os.File
	full bool
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if !d.full {
		return d.File.Write(p)
	}
	n, err := d.File.Write(p[:len(p)/2])
	if err != nil {
		return n, err
	}
	return n, syscall.ENOSPC
}

// TestJournalSurvivesAFullDisk: a failed write is returned by Flush,
// leaves no partial line behind, and loses nothing once there is room.
func TestJournalSurvivesAFullDisk(t *testing.T) {
	store, err := OpenStore(t.TempDir(), StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := store.Create(Meta{ID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	log := NewLog(nil)
	log.SetSink(j)

	log.Append(TurnStarted{})
	if err := j.Flush(); err != nil {
		t.Fatal(err)
	}
	// The first Flush stored the session and created its log: its meta
	// line and the event.
	disk := &fullDisk{File: j.file.(*os.File)}
	j.file = disk
	disk.full = true
	log.Append(UserMessage{})
	if err := j.Flush(); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Flush on a full disk = %v", err)
	}
	if data, _ := os.ReadFile(store.logPath("s")); strings.Count(string(data), "\n") != 2 || !strings.HasSuffix(string(data), "\n") {
		t.Fatalf("after the failed write the log is %q", data)
	}
	log.Append(AssistantChunk{Text: "still running"})
	if err := j.Flush(); err == nil {
		t.Fatal("second Flush on a full disk succeeded")
	}
	disk.full = false
	log.Append(TurnEnded{})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	j2, loaded, err := store.Open("s")
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	var kinds []string
	for _, ev := range loaded.Events {
		kinds = append(kinds, ev.Payload.Kind())
	}
	if strings.Join(kinds, " ") != "turn/start user/message assistant/chunk turn/end" || loaded.Skipped != 0 {
		t.Errorf("loaded %v, skipped %d", kinds, loaded.Skipped)
	}
}

// TestJournalReportsUnencodableEvents: an event the codec cannot encode
// is left out and reported by the next Flush; the others are written.
func TestJournalReportsUnencodableEvents(t *testing.T) {
	store, err := OpenStore(t.TempDir(), StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := store.Create(Meta{ID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.Write(Event{Seq: 1, Payload: TurnStarted{}})
	j.Write(Event{Seq: 2, Payload: UserMessage{Content: []presentation.ContentBlock{presentation.UnknownBlock{Type: "x", JSON: "{"}}}})
	j.Write(Event{Seq: 3, Payload: TurnEnded{}})
	if err := j.Flush(); err == nil {
		t.Error("Flush did not report the event left out")
	}
	if err := j.Flush(); err != nil {
		t.Errorf("the error was reported twice: %v", err)
	}
	data, _ := os.ReadFile(store.logPath("s"))
	if strings.Count(string(data), "\n") != 3 { // the meta line and two events
		t.Errorf("log = %q", data)
	}
}
