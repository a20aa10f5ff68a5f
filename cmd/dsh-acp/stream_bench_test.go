package main

// The streaming benchmark: the built binary answers one prompt whose model
// reply is 20,000 text deltas from a fake OpenAI-compatible server on
// loopback, and the process CPU (user+sys from /proc/<pid>/stat) spent
// between sending session/prompt and reading its answer is divided by the
// number of deltas.
//
//	go test -run '^$' -bench StreamDeltas -benchtime 3x ./cmd/dsh-acp
//
// Three ways of sending:
//
//   - burst: every chunk written back to back, flushed every 64 chunks, as a
//     server with a backlog (or a replay) sends them;
//   - paced: each chunk written and flushed on its own, chunk i due at
//     start + i×200 µs (5,000 chunks a second, a run takes 4 s), so the
//     client goes idle and wakes for every chunk the way it does for a real
//     model, only faster (a real model sends one every few milliseconds;
//     the work per chunk is the same, and a run stays short). A sender
//     that falls behind its schedule sends at once, so the rate holds on a
//     loaded machine; wall-ms shows whether it did;
//   - burst-2000: 2,000 deltas as in burst, for the number of updates a
//     short answer makes (its CPU figure rests on a few 10 ms clock ticks).
//
// Metrics: cpu-µs/delta (the result), updates (session/update notifications
// the prompt produced), wall-ms. Set DSH_ACP_BIN to measure a binary you
// built. The fake server runs in the test process, so its CPU is not
// counted.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// streamPace says how the fake model server sends its chunks.
type streamPace struct {
	name     string
	deltas   int
	flush    int           // chunks per write+flush
	interval time.Duration // time between flushes; 0 sends at once
}

var (
	paceBurst     = streamPace{name: "burst", deltas: 20_000, flush: 64}
	pacePaced     = streamPace{name: "paced", deltas: 20_000, flush: 1, interval: 200 * time.Microsecond}
	paceBurstText = streamPace{name: "burst-2000", deltas: 2000, flush: 64}
)

func BenchmarkStreamDeltas(b *testing.B) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		b.Skip("process CPU is read from /proc")
	}
	bin := spawnBinary(b)
	for _, pace := range []streamPace{paceBurst, pacePaced, paceBurstText} {
		b.Run(pace.name, func(b *testing.B) {
			model := startFakeModel(b, pace)
			var cpu time.Duration
			var updates, runs int
			var wall time.Duration
			for b.Loop() {
				r, err := streamOnce(b, bin, model.url)
				if err != nil {
					b.Fatal(err)
				}
				if r.text != pace.deltas*len(fakeDeltaText) {
					b.Fatalf("the client saw %d bytes of text, want %d", r.text, pace.deltas*len(fakeDeltaText))
				}
				cpu += r.cpu
				wall += r.wall
				updates += r.updates
				runs++
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(runs*pace.deltas), "cpu-µs/delta")
			b.ReportMetric(float64(updates)/float64(runs), "updates")
			b.ReportMetric(float64(wall.Milliseconds())/float64(runs), "wall-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// streamResult is one prompt's measurements.
type streamResult struct {
	cpu     time.Duration // process CPU from session/prompt sent to answered
	wall    time.Duration
	updates int // session/update notifications
	text    int // bytes of agent_message_chunk text
}

// streamOnce starts bin against the fake model at url, runs one prompt and
// measures it.
func streamOnce(tb testing.TB, bin, url string) (streamResult, error) {
	var res streamResult
	dir := tb.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		return res, err
	}
	cmd := exec.Command(bin, "--permission", "read-only")
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "DSH_BASE_URL="+url, "DSH_API_KEY=sk-bench", "DSH_MODEL=bench",
		"DSH_MODEL_SCRIPT=", "DSH_STATE_DIR="+filepath.Join(dir, "state"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return res, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return res, err
	}
	if err := cmd.Start(); err != nil {
		return res, err
	}
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	fail := func(err error) (streamResult, error) {
		return res, fmt.Errorf("%w (stderr: %s)", err, strings.TrimSpace(stderr.String()))
	}
	r := bufio.NewReaderSize(stdout, 1<<16)
	if _, err := io.WriteString(stdin, zedInitialize+"\n"); err != nil {
		return fail(err)
	}
	if _, err := awaitResponse(r, 1); err != nil {
		return fail(fmt.Errorf("initialize: %w", err))
	}
	newReq, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "session/new",
		"params": map[string]any{"cwd": ws, "mcpServers": []any{}}})
	if _, err := stdin.Write(append(newReq, '\n')); err != nil {
		return fail(err)
	}
	created, err := awaitResponse(r, 2)
	if err != nil {
		return fail(fmt.Errorf("session/new: %w", err))
	}
	var session struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(created, &session); err != nil || session.SessionID == "" {
		return fail(fmt.Errorf("session/new: no session id in %s", created))
	}

	cpu0, err := procCPU(cmd.Process.Pid)
	if err != nil {
		return fail(err)
	}
	start := time.Now()
	prompt := fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"stream"}]}}`, session.SessionID)
	if _, err := io.WriteString(stdin, prompt+"\n"); err != nil {
		return fail(err)
	}
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return fail(fmt.Errorf("reading stdout: %w", err))
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result struct {
				StopReason string `json:"stopReason"`
			} `json:"result"`
			Error  json.RawMessage `json:"error"`
			Params struct {
				Update struct {
					Kind    string `json:"sessionUpdate"`
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"update"`
			} `json:"params"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return fail(fmt.Errorf("stdout line is not JSON: %q", line))
		}
		if msg.Method == "session/update" {
			res.updates++
			if msg.Params.Update.Kind == "agent_message_chunk" {
				res.text += len(msg.Params.Update.Content.Text)
			}
			continue
		}
		if string(msg.ID) != "3" {
			continue
		}
		if msg.Error != nil {
			return fail(fmt.Errorf("session/prompt: %s", msg.Error))
		}
		if msg.Result.StopReason != "end_turn" {
			return fail(fmt.Errorf("session/prompt stopped with %q, want end_turn", msg.Result.StopReason))
		}
		break
	}
	res.wall = time.Since(start)
	cpu1, err := procCPU(cmd.Process.Pid)
	if err != nil {
		return fail(err)
	}
	res.cpu = cpu1 - cpu0
	stdin.Close()
	io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil {
		return fail(fmt.Errorf("exit after stdin EOF: %w", err))
	}
	return res, nil
}

// procCPU is the user+sys CPU time of process pid, all its threads, from
// /proc/<pid>/stat (in clock ticks of 10 ms on Linux).
func procCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; the fields after it start at ')'.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	fields := strings.Fields(string(data[i+1:]))
	// utime and stime are fields 14 and 15 of stat; fields[0] is field 3.
	if len(fields) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(fields))
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: bad utime or stime", pid)
	}
	const tick = 10 * time.Millisecond // USER_HZ is 100 on every Linux
	return time.Duration(utime+stime) * tick, nil
}

// fakeDeltaText is the text of every streamed delta: a token and a space.
const fakeDeltaText = "tok "

// fakeModel is an OpenAI-compatible chat completions server on loopback
// that answers every request with pace.deltas text deltas sent at pace.
type fakeModel struct {
	url string
}

func startFakeModel(tb testing.TB, pace streamPace) *fakeModel {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	chunk := func(delta, finish string) []byte {
		fin := "null"
		if finish != "" {
			fin = strconv.Quote(finish)
		}
		return fmt.Appendf(nil, `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1764500000,"model":"bench",`+
			`"system_fingerprint":"fp_bench","choices":[{"index":0,"delta":%s,"logprobs":null,"finish_reason":%s}]}`+"\n\n", delta, fin)
	}
	first := chunk(`{"role":"assistant","content":""}`, "")
	text := chunk(`{"content":`+strconv.Quote(fakeDeltaText)+`}`, "")
	last := chunk(`{}`, "stop")
	usage := []byte(`data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1764500000,"model":"bench",` +
		`"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":1,"total_tokens":13}}` + "\n\n" + "data: [DONE]\n\n")

	mux := http.NewServeMux()
	mux.HandleFunc("POST /chat/completions", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		flusher := w.(http.Flusher)
		var buf bytes.Buffer
		buf.Write(first)
		start := time.Now()
		flushes := 0
		for i := range pace.deltas {
			buf.Write(text)
			if (i+1)%pace.flush != 0 {
				continue
			}
			if _, err := w.Write(buf.Bytes()); err != nil {
				return
			}
			buf.Reset()
			flusher.Flush()
			flushes++
			if pace.interval > 0 {
				time.Sleep(time.Until(start.Add(time.Duration(flushes) * pace.interval)))
			}
		}
		buf.Write(last)
		buf.Write(usage)
		w.Write(buf.Bytes())
		flusher.Flush()
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	tb.Cleanup(func() { srv.Close() })
	return &fakeModel{url: "http://" + ln.Addr().String()}
}
