package session_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// TestStoreCreateAndOpenRoundTrip: what a Log kept is what Open loads,
// and a restored Log carries on where the session stopped.
func TestStoreCreateAndOpenRoundTrip(t *testing.T) {
	ts := newTestStore(t)
	j := ts.create(t, session.Meta{Cwd: "/srv/proj/", Title: "first", Model: "m", Preset: "workspace-write", Effort: "high"})
	id := j.ID()
	if id == "" {
		t.Fatal("Create made no id")
	}
	log := session.NewLog(ts.clock.Now)
	kept := record(t, j, log, samplePayloads()...)
	// A run still streaming when the session closes is merged on load.
	log.Append(session.AssistantChunk{Text: "to be "})
	log.Append(session.AssistantChunk{Text: "continued"})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}

	j2, loaded := ts.open(t, id)
	defer j2.Close()
	want := append(slices.Clone(kept), session.Event{Seq: int64(len(kept) + 1), Time: ts.clock.Now(), Turn: 1,
		Payload: session.AssistantChunk{Text: "to be continued"}})
	if !reflect.DeepEqual(loaded.Events, want) {
		t.Errorf("loaded %d events %v\nwant %d %v", len(loaded.Events), kinds(loaded.Events), len(want), kinds(want))
	}
	if loaded.Skipped != 0 {
		t.Errorf("Skipped = %d", loaded.Skipped)
	}
	wantMeta := session.Meta{ID: id, Cwd: filepath.FromSlash("/srv/proj"), Title: "first", Created: ts.clock.Now(), Updated: ts.clock.Now(),
		Model: "m", Preset: "workspace-write", Effort: "high"}
	if !reflect.DeepEqual(loaded.Meta, wantMeta) {
		t.Errorf("Meta = %+v\nwant %+v", loaded.Meta, wantMeta)
	}

	restored := session.RestoreLog(loaded.Events, nil)
	restored.SetSink(j2)
	next := restored.Append(session.TurnStarted{})
	if next.Seq != want[len(want)-1].Seq+1 || next.Turn != 2 {
		t.Errorf("after restore: seq %d turn %d", next.Seq, next.Turn)
	}
}

// TestStoreCreateRejectsAnExistingID: an id stored, or open here, cannot
// be created again; one closed before anything was kept can.
func TestStoreCreateRejectsAnExistingID(t *testing.T) {
	tests := []struct {
		name    string
		before  func(t *testing.T, ts *testStore) // leaves fixed-id in some state
		wantErr error                             // nil: the second Create succeeds
	}{
		{"stored and closed", func(t *testing.T, ts *testStore) { ts.createStored(t, session.Meta{ID: "fixed-id"}) }, fs.ErrExist},
		{"stored and open", func(t *testing.T, ts *testStore) {
			j := ts.create(t, session.Meta{ID: "fixed-id"})
			t.Cleanup(func() { j.Close() })
			record(t, j, session.NewLog(nil), session.TurnStarted{})
		}, fs.ErrExist},
		{"open, nothing kept", func(t *testing.T, ts *testStore) {
			j := ts.create(t, session.Meta{ID: "fixed-id"})
			t.Cleanup(func() { j.Close() })
		}, session.ErrLocked},
		{"closed, nothing kept", func(t *testing.T, ts *testStore) {
			if err := ts.create(t, session.Meta{ID: "fixed-id"}).Close(); err != nil {
				t.Fatal(err)
			}
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestStore(t)
			tt.before(t, ts)
			j, err := ts.Create(session.Meta{ID: "fixed-id"})
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("Create = %v", err)
				}
				j.Close()
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Create = %v, want %v", err, tt.wantErr)
			}
			if metas, _ := ts.List(""); len(metas) > 1 {
				t.Errorf("index holds %d sessions", len(metas))
			}
		})
	}
}

func TestStoreListNewestFirstAndByCwd(t *testing.T) {
	ts := newTestStore(t)
	cwds := []string{"/a", "/b", "/a/", "/a/sub", "/a/../a"}
	for i, cwd := range cwds {
		ts.createStored(t, session.Meta{ID: fmt.Sprintf("s%d", i), Cwd: cwd})
		ts.clock.Advance(time.Minute)
	}
	// Touching s0 makes it the newest.
	if _, err := ts.UpdateMeta("s0", func(m *session.Meta) { m.Title = "touched" }); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cwd  string
		want []string
	}{
		{"", []string{"s0", "s4", "s3", "s2", "s1"}},
		{"/a", []string{"s0", "s4", "s2"}},
		{"/a/./", []string{"s0", "s4", "s2"}},
		{"/a/sub", []string{"s3"}},
		{"/c", nil},
	}
	for _, tt := range tests {
		metas, err := ts.List(tt.cwd)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, m := range metas {
			ids = append(ids, m.ID)
		}
		if !slices.Equal(ids, tt.want) {
			t.Errorf("List(%q) = %v, want %v", tt.cwd, ids, tt.want)
		}
	}
}

func TestStoreGetAndUpdateMeta(t *testing.T) {
	ts := newTestStore(t)
	j := ts.create(t, session.Meta{ID: "s1", Cwd: "/w", Model: "a"})
	defer j.Close()
	created := ts.clock.Now()
	ts.clock.Advance(time.Hour)
	got, err := ts.UpdateMeta("s1", func(m *session.Meta) {
		m.ID = "renamed" // ignored
		m.Model = "b"
		m.Cwd = "/w/x/.."
		m.AdditionalDirectories = []string{"/extra"}
	})
	if err != nil {
		t.Fatal(err)
	}
	want := session.Meta{ID: "s1", Cwd: filepath.FromSlash("/w"), AdditionalDirectories: []string{"/extra"}, Created: created, Updated: ts.clock.Now(), Model: "b"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("UpdateMeta = %+v\nwant %+v", got, want)
	}
	if again, err := ts.Get("s1"); err != nil || !reflect.DeepEqual(again, want) {
		t.Errorf("Get = %+v, %v", again, err)
	}
	if _, err := ts.Get("nope"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Get(nope) = %v", err)
	}
	if _, err := ts.UpdateMeta("nope", func(*session.Meta) {}); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("UpdateMeta(nope) = %v", err)
	}
}

func TestStoreDelete(t *testing.T) {
	ts := newTestStore(t)
	j := ts.create(t, session.Meta{ID: "doomed"})
	record(t, j, session.NewLog(nil), session.TurnStarted{})
	err := ts.Delete("doomed")
	if !errors.Is(err, session.ErrLocked) {
		t.Fatalf("Delete of an open session = %v, want ErrLocked", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ts.Delete("doomed"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ts.Open("doomed"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Open after Delete = %v", err)
	}
	if err := ts.Delete("doomed"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("second Delete = %v", err)
	}
	if metas, _ := ts.List(""); len(metas) != 0 {
		t.Errorf("index still lists %v", metas)
	}
	entries, _ := os.ReadDir(filepath.Join(ts.dir, "sessions"))
	if len(entries) != 0 {
		t.Errorf("sessions dir still holds %v", entries)
	}
}

// TestStoreOpenRefusesASessionOpenInThisProcess: Open and Delete refuse
// a session open in a Journal here, stored or not, naming this process.
func TestStoreOpenRefusesASessionOpenInThisProcess(t *testing.T) {
	for _, stored := range []bool{false, true} {
		t.Run(fmt.Sprintf("stored=%v", stored), func(t *testing.T) {
			ts := newTestStore(t)
			j := ts.create(t, session.Meta{ID: "0123456789abcdef"})
			if stored {
				record(t, j, session.NewLog(nil), session.TurnStarted{})
			}
			_, _, err := ts.Open("0123456789abcdef")
			var locked *session.LockedError
			if !errors.Is(err, session.ErrLocked) || !errors.As(err, &locked) || locked.PID != os.Getpid() {
				t.Fatalf("second Open = %v, want a LockedError naming this process", err)
			}
			if want := "session 01234567… is already open in this dsh-acp process"; err.Error() != want {
				t.Errorf("message = %q, want %q", err, want)
			}
			if err := ts.Delete("0123456789abcdef"); !errors.Is(err, session.ErrLocked) {
				t.Errorf("Delete = %v, want ErrLocked", err)
			}
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			if !stored {
				return
			}
			j2, _ := ts.open(t, "0123456789abcdef")
			if err := j2.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestLockedErrorMessages(t *testing.T) {
	tests := []struct {
		err  *session.LockedError
		want string
	}{
		{&session.LockedError{ID: "1234567890", PID: 4242}, "session 12345678… is open in another dsh-acp process (pid 4242); close it there first"},
		{&session.LockedError{ID: "short"}, "session short is open in another dsh-acp process; close it there first"},
	}
	for _, tt := range tests {
		if tt.err.Error() != tt.want {
			t.Errorf("Error() = %q, want %q", tt.err.Error(), tt.want)
		}
	}
}

func TestStoreRefusesBadIDs(t *testing.T) {
	ts := newTestStore(t)
	outside := filepath.Join(filepath.Dir(ts.dir), "escaped")
	for _, id := range []string{"../escaped", "..", ".", "a/b", `a\b`, "a b", "a.jsonl", "/abs", "é", strings.Repeat("x", 129), "a\x00"} {
		t.Run(fmt.Sprintf("%q", id), func(t *testing.T) {
			calls := map[string]error{}
			_, calls["Create"] = ts.Create(session.Meta{ID: id})
			_, _, calls["Open"] = ts.Open(id)
			_, calls["Get"] = ts.Get(id)
			_, calls["UpdateMeta"] = ts.UpdateMeta(id, func(*session.Meta) {})
			calls["Delete"] = ts.Delete(id)
			for name, err := range calls {
				if !errors.Is(err, session.ErrInvalidID) {
					t.Errorf("%s(%q) = %v, want ErrInvalidID", name, id, err)
				}
			}
		})
	}
	if _, err := os.Stat(outside + ".jsonl"); err == nil {
		t.Errorf("a bad id wrote outside the store")
	}
	if entries, _ := os.ReadDir(filepath.Join(ts.dir, "sessions")); len(entries) != 0 {
		t.Errorf("bad ids left files: %v", entries)
	}
}

// TestStoreRedactsSecrets: a secret never reaches the disk, in the log or
// in the index, wherever it appears — even split across streamed pieces
// buffered together, or inside JSON text that must be escaped.
func TestStoreRedactsSecrets(t *testing.T) {
	const key = "sk-live-0123456789"
	const odd = `p<a>"ss`
	ts := newTestStore(t, key, odd, "")
	j := ts.create(t, session.Meta{ID: "s", Title: "uses " + key, Cwd: "/home/" + key})
	record(t, j, session.NewLog(nil),
		session.UserMessage{Content: []presentation.ContentBlock{presentation.Text("my key is " + key)}},
		session.ToolCall{CallID: "c", Name: "bash", Arguments: `{"command":"curl -H 'Authorization: Bearer ` + key + `'"}`,
			View: presentation.TerminalCallView{Title: "curl " + key}},
		session.AssistantChunk{Text: "the key sk-live-"},
		session.AssistantChunk{Text: "0123456789 and " + odd},
		session.ToolResult{CallID: "c", Content: []presentation.ContentBlock{presentation.Text(odd)}},
	)
	if _, err := ts.UpdateMeta("s", func(m *session.Meta) { m.Model = key }); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{ts.logPath("s"), filepath.Join(ts.dir, "index.json")} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{key, "0123456789", "p<a>", `p\u003ca\u003e`} {
			if strings.Contains(string(data), secret) {
				t.Errorf("%s holds %q:\n%s", filepath.Base(name), secret, data)
			}
		}
		if !strings.Contains(string(data), "[REDACTED]") {
			t.Errorf("%s has no [REDACTED]", filepath.Base(name))
		}
	}
	j2, loaded := ts.open(t, "s")
	defer j2.Close()
	if loaded.Skipped != 0 || len(loaded.Events) != 4 {
		t.Fatalf("loaded %v, skipped %d", kinds(loaded.Events), loaded.Skipped)
	}
	if got := loaded.Events[2].Payload.(session.AssistantChunk).Text; got != "the key [REDACTED] and [REDACTED]" {
		t.Errorf("chunk = %q", got)
	}
	if loaded.Meta.Title != "uses [REDACTED]" || loaded.Meta.Model != "[REDACTED]" {
		t.Errorf("meta = %+v", loaded.Meta)
	}
}

func TestOpenStoreNeedsADirectory(t *testing.T) {
	if _, err := session.OpenStore("", session.StoreOptions{}); err == nil {
		t.Error("OpenStore(\"\") succeeded")
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := session.OpenStore(file, session.StoreOptions{}); err == nil {
		t.Error("OpenStore over a file succeeded")
	}
}
