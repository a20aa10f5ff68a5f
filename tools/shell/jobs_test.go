//go:build unix

package shell

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// eventually reads a job's output with job_output until the output read
// so far and the job's state satisfy ok, and returns them with the text
// of the last read.
func (f *fixture) eventually(t *testing.T, id string, ok func(output, state string) bool) (output, state, last string) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	var all strings.Builder
	for {
		r, text := f.run(t, "job_output", fmt.Sprintf(`{"job_id":%q}`, id))
		if r.IsError {
			t.Fatalf("job_output: %s", text)
		}
		var report jobReport
		if err := json.Unmarshal([]byte(r.Value), &report); err != nil {
			t.Fatal(err)
		}
		all.WriteString(report.Output)
		if ok(all.String(), report.State) {
			return all.String(), report.State, text
		}
		if time.Now().After(deadline) {
			t.Fatalf("job_output never satisfied the condition; output %q, state %q", all.String(), report.State)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestBackgroundJobLifecycle(t *testing.T) {
	f := newFixture(t, Options{})

	// Start: the call returns with the job id while the job runs on.
	r, text := f.runGuarded(t, "bash", `{"command":"echo started; echo warn >&2; sleep 300","description":"Sleep","run_in_background":true}`)
	if r.IsError || text != "started background job job_1" {
		t.Fatalf("start: %q (isError %v)", text, r.IsError)
	}
	if r.Meta != `{"jobId":"job_1"}` {
		t.Errorf("meta = %s", r.Meta)
	}
	pgid1 := f.pgid(t)

	// Output since the last read, with the state.
	f.eventually(t, "job_1", func(out, _ string) bool { return out == "started\nwarn\n" })
	if _, text := f.run(t, "job_output", `{"job_id":"job_1"}`); text != "(no new output)\n[job_1: running]" {
		t.Errorf("second read = %q", text)
	}

	// A job that ends by itself.
	if _, text := f.run(t, "bash", `{"command":"printf done; exit 4","run_in_background":true}`); text != "started background job job_2" {
		t.Fatalf("start job_2: %q", text)
	}
	f.pgid(t)
	if out, _, last := f.eventually(t, "job_2", func(_, state string) bool { return state != "running" }); out != "done" ||
		!strings.HasSuffix(last, "\n[job_2: exited with code 4]") {
		t.Errorf("job_2: output %q, last read %q", out, last)
	}

	// List.
	want := "job_1 (running): echo started; echo warn >&2; sleep 300\njob_2 (exited with code 4): printf done; exit 4"
	if _, text := f.run(t, "job_list", `{}`); text != want {
		t.Errorf("job_list = %q, want %q", text, want)
	}

	// Kill stops the whole group.
	r, text = f.run(t, "job_kill", `{"job_id":"job_1"}`)
	if r.IsError || text != "stopped background job job_1 (killed by signal SIGTERM)" {
		t.Errorf("job_kill = %q (isError %v)", text, r.IsError)
	}
	waitGone(t, pgid1)
	if _, text := f.run(t, "job_kill", `{"job_id":"job_1"}`); text != "background job job_1 had already ended (killed by signal SIGTERM)" {
		t.Errorf("second job_kill = %q", text)
	}
	if _, text := f.run(t, "job_output", `{"job_id":"job_1"}`); text != "(no new output)\n[job_1: killed by signal SIGTERM]" {
		t.Errorf("job_output after kill = %q", text)
	}

	// Unknown ids tell the model what to do.
	for _, tool := range []string{"job_output", "job_kill"} {
		r, text := f.run(t, tool, `{"job_id":"job_9"}`)
		if !r.IsError || r.Code() != CodeJobNotFound || !strings.Contains(text, "job_list") {
			t.Errorf("%s of an unknown job: %q (code %q)", tool, text, r.Code())
		}
	}

	// Close kills the jobs still running and waits for them: once it has
	// returned, their ends are known.
	f.run(t, "bash", `{"command":"sleep 300","run_in_background":true}`)
	pgid3 := f.pgid(t)
	if err := f.sh.Close(); err != nil {
		t.Fatal(err)
	}
	if _, text := f.run(t, "job_list", `{}`); !strings.Contains(text, "job_3 (killed by signal SIGTERM)") {
		t.Errorf("job_list after Close = %q", text)
	}
	waitGone(t, pgid3)
	if r, _ := f.run(t, "bash", `{"command":"true","run_in_background":true}`); r.Code() != CodeClosed {
		t.Errorf("a job started after Close: code %q", r.Code())
	}
}

// Close SIGKILLs a job that ignores SIGTERM, once the grace has passed.
// The job ignores SIGTERM before Close is called, so SIGKILL is the only
// possible end.
func TestCloseSIGKILLsAJobThatIgnoresSIGTERM(t *testing.T) {
	f := newFixture(t, Options{KillGrace: 300 * time.Millisecond})
	f.run(t, "bash", `{"command":"trap '' TERM; echo ready; exec sleep 300","run_in_background":true}`)
	pgid := f.pgid(t)
	f.eventually(t, "job_1", func(out, _ string) bool { return out == "ready\n" })
	if err := f.sh.Close(); err != nil {
		t.Fatal(err)
	}
	if _, text := f.run(t, "job_list", `{}`); !strings.Contains(text, "job_1 (killed by signal SIGKILL)") {
		t.Errorf("job_list after Close = %q", text)
	}
	waitGone(t, pgid)
}

func TestJobListEmpty(t *testing.T) {
	f := newFixture(t, Options{})
	if _, text := f.run(t, "job_list", `{}`); text != "no background jobs in this session" {
		t.Errorf("job_list = %q", text)
	}
}

func TestBackgroundJobTimeout(t *testing.T) {
	f := newFixture(t, Options{})
	f.run(t, "bash", `{"command":"sleep 30","run_in_background":true,"timeout":200}`)
	pgid := f.pgid(t)
	_, _, last := f.eventually(t, "job_1", func(_, state string) bool { return state != "running" })
	if last != "(no new output)\n[job_1: timed out after 200ms, killed by signal SIGTERM]" {
		t.Errorf("last read = %q", last)
	}
	waitGone(t, pgid)
}

func TestBackgroundJobOutputOverflowSpills(t *testing.T) {
	spill := t.TempDir()
	f := newFixture(t, Options{OutputLimit: 1000, SpillDir: spill})
	f.run(t, "bash", `{"command":"seq 1 50000","run_in_background":true}`)
	f.pgid(t)
	waitJobEnded(t, f, "job_1") // the first read comes after all the output
	_, text := f.run(t, "job_output", `{"job_id":"job_1"}`)
	m := regexp.MustCompile(`^\[(\d+) earlier bytes not kept; full output: (\S+)\]\n`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no note on the dropped output: %q", text[:min(len(text), 200)])
	}
	if !strings.HasSuffix(text, "\n49999\n50000\n[job_1: exited with code 0]") {
		t.Errorf("the latest output is missing: …%q", text[max(0, len(text)-80):])
	}
	data, err := os.ReadFile(m[2])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "1\n2\n3\n") || !strings.HasSuffix(string(data), "\n50000\n") {
		t.Errorf("the spill file does not hold everything (%d bytes)", len(data))
	}
}

func TestJobOutputKeepsCharactersWhole(t *testing.T) {
	var o jobOutput
	o.kept = newCapture(0, 100)
	o.write([]byte("caf\xc3"))
	if text, _, _ := o.unread(false); text != "caf" {
		t.Errorf("while running: %q, want the incomplete character held back", text)
	}
	o.write([]byte("\xa9!"))
	if text, _, _ := o.unread(false); text != "é!" {
		t.Errorf("next read: %q", text)
	}
	o.write([]byte("\xc3"))
	if text, _, _ := o.unread(true); text != "\uFFFD" {
		t.Errorf("final read: %q", text)
	}
}

// TestJobOutputCard: job_output's card is failed once the job it reads has
// ended and failed, and shows the text as it is otherwise (issue 17.1).
func TestJobOutputCard(t *testing.T) {
	f := newFixture(t, Options{})
	card := func(id string) presentation.ResultView {
		t.Helper()
		r, text := f.run(t, "job_output", fmt.Sprintf(`{"job_id":%q}`, id))
		if r.IsError {
			t.Fatalf("job_output: %s", text)
		}
		return presentJobOutputResult(jobIDArgs{JobID: id}, presentation.ToolResult{Content: r.Content, Meta: r.Meta})
	}
	start := func(command string) string {
		t.Helper()
		r, text := f.runGuarded(t, "bash", fmt.Sprintf(`{"command":%q,"run_in_background":true}`, command))
		if r.IsError {
			t.Fatalf("start %q: %s", command, text)
		}
		f.pgid(t)
		return strings.TrimPrefix(text, "started background job ")
	}
	ended := func(_, state string) bool { return state != "running" }

	failed := start("exit 4")
	f.eventually(t, failed, ended)
	want := presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text("(no new output)\n[" + failed + ": exited with code 4]")}, Failed: true}
	if got := card(failed); !reflect.DeepEqual(got, want) {
		t.Errorf("card of a job that exited 4 = %#v, want %#v", got, want)
	}

	clean := start("true")
	f.eventually(t, clean, ended)
	if got := card(clean); got != nil {
		t.Errorf("card of a job that exited 0 = %#v, want none (the text as it is)", got)
	}

	running := start("sleep 300")
	if got := card(running); got != nil {
		t.Errorf("card of a running job = %#v, want none", got)
	}
	if r, text := f.run(t, "job_kill", fmt.Sprintf(`{"job_id":%q}`, running)); r.IsError {
		t.Fatalf("job_kill: %s", text)
	}
	if got := card(running); !isFailed(got) {
		t.Errorf("card of a killed job = %#v, want a failed one", got)
	}
}

// isFailed reports whether v is a generic card marked failed.
func isFailed(v presentation.ResultView) bool {
	g, ok := v.(presentation.GenericResultView)
	return ok && g.Failed
}
