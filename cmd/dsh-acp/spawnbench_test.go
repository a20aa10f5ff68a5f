package main

// The spawn benchmark: the built binary started the way an editor starts
// it, timed from exec to the initialize answer, then session/new, with the
// resident memory read from /proc after session/new. The model is scripted
// (an empty DSH_MODEL_SCRIPT), so no network is touched.
//
//	go test -run '^$' -bench Spawn -benchtime 30x ./cmd/dsh-acp
//
// Set DSH_ACP_BIN to measure a binary you built; otherwise the benchmark
// builds one with `go build` into a temporary directory. BenchmarkSpawnFloor
// runs a twenty-line Go NDJSON echo server through the same client, which is
// the floor a Go binary can reach on the machine at hand.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// zedInitialize is the initialize request Zed sends.
const zedInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,` +
	`"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,` +
	`"auth":{"terminal":true},"_meta":{"terminal_output":true,"terminal-auth":true}},` +
	`"clientInfo":{"name":"zed","version":"0.210.0","title":"Zed"}}}`

// spawnSample is one spawn's measurements.
type spawnSample struct {
	initialize time.Duration // exec to the initialize answer
	newSession time.Duration // session/new sent to answered
	rssKB      int64         // VmRSS after session/new
	hwmKB      int64         // VmHWM (peak RSS) after session/new
	exit       time.Duration // stdin closed to process exit
}

func BenchmarkSpawn(b *testing.B) {
	bin := spawnBinary(b)
	benchSpawn(b, bin, nil)
}

func BenchmarkSpawnFloor(b *testing.B) {
	bin := buildGo(b, "floor", floorServer)
	benchSpawn(b, bin, nil)
}

// benchSpawn spawns bin b.N times and reports the medians as metrics and
// the full distribution in the log.
func benchSpawn(b *testing.B, bin string, args []string) {
	dir := b.TempDir()
	script := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(script, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "DSH_MODEL_SCRIPT="+script, "DSH_STATE_DIR="+filepath.Join(dir, "state"),
		"DSH_API_KEY=", "DEEPSEEK_API_KEY=")
	// One unmeasured spawn warms the page cache.
	if _, err := spawnOnce(bin, args, env, ws); err != nil {
		b.Fatal(err)
	}
	var samples []spawnSample
	for b.Loop() {
		s, err := spawnOnce(bin, args, env, ws)
		if err != nil {
			b.Fatal(err)
		}
		samples = append(samples, s)
	}

	ms := func(f func(spawnSample) time.Duration) []float64 {
		out := make([]float64, len(samples))
		for i, s := range samples {
			out[i] = float64(f(s)) / float64(time.Millisecond)
		}
		return out
	}
	mb := func(f func(spawnSample) int64) []float64 {
		out := make([]float64, len(samples))
		for i, s := range samples {
			out[i] = float64(f(s)) / 1024
		}
		return out
	}
	initMS := ms(func(s spawnSample) time.Duration { return s.initialize })
	newMS := ms(func(s spawnSample) time.Duration { return s.newSession })
	exitMS := ms(func(s spawnSample) time.Duration { return s.exit })
	rssMB := mb(func(s spawnSample) int64 { return s.rssKB })
	hwmMB := mb(func(s spawnSample) int64 { return s.hwmKB })

	b.ReportMetric(quantile(initMS, 0.5), "init-ms-p50")
	b.ReportMetric(quantile(initMS, 0.9), "init-ms-p90")
	b.ReportMetric(quantile(newMS, 0.5), "new-ms-p50")
	b.ReportMetric(quantile(newMS, 0.9), "new-ms-p90")
	b.ReportMetric(quantile(rssMB, 0.5), "rss-MB-p50")
	b.ReportMetric(0, "ns/op") // the spawn's wall time mixes in exit; the metrics above are the result
	b.Logf("%s: %d spawns", filepath.Base(bin), len(samples))
	b.Logf("%-28s %8s %8s %8s %8s", "", "median", "p90", "min", "max")
	for _, row := range []struct {
		name string
		v    []float64
	}{
		{"spawn -> initialize (ms)", initMS},
		{"session/new (ms)", newMS},
		{"VmRSS after new (MB)", rssMB},
		{"VmHWM after new (MB)", hwmMB},
		{"stdin EOF -> exit (ms)", exitMS},
	} {
		b.Logf("%-28s %8.2f %8.2f %8.2f %8.2f", row.name,
			quantile(row.v, 0.5), quantile(row.v, 0.9), slices.Min(row.v), slices.Max(row.v))
	}
}

// spawnOnce starts bin, sends Zed's initialize and a session/new in ws,
// reads the resident memory, closes stdin and waits for the exit.
func spawnOnce(bin string, args []string, env []string, ws string) (spawnSample, error) {
	var s spawnSample
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Dir = ws
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return s, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return s, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return s, err
	}
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	r := bufio.NewReaderSize(stdout, 1<<16)
	fail := func(err error) (spawnSample, error) {
		return s, fmt.Errorf("%w (stderr: %s)", err, strings.TrimSpace(stderr.String()))
	}

	if _, err := io.WriteString(stdin, zedInitialize+"\n"); err != nil {
		return fail(err)
	}
	if _, err := awaitResponse(r, 1); err != nil {
		return fail(fmt.Errorf("initialize: %w", err))
	}
	s.initialize = time.Since(start)

	newReq, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "session/new",
		"params": map[string]any{"cwd": ws, "mcpServers": []any{}}})
	t := time.Now()
	if _, err := stdin.Write(append(newReq, '\n')); err != nil {
		return fail(err)
	}
	res, err := awaitResponse(r, 2)
	if err != nil {
		return fail(fmt.Errorf("session/new: %w", err))
	}
	s.newSession = time.Since(t)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(res, &created); err != nil || created.SessionID == "" {
		return fail(fmt.Errorf("session/new: no session id in %s", res))
	}

	if s.rssKB, s.hwmKB, err = procMemory(cmd.Process.Pid); err != nil {
		return fail(err)
	}

	t = time.Now()
	stdin.Close()
	io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil {
		return fail(fmt.Errorf("exit after stdin EOF: %w", err))
	}
	s.exit = time.Since(t)
	return s, nil
}

// awaitResponse reads frames until the response with the given id and
// returns its result; notifications on the way are skipped.
func awaitResponse(r *bufio.Reader, id int) (json.RawMessage, error) {
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("reading stdout: %w", err)
		}
		var msg struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
			Result json.RawMessage  `json:"result"`
			Error  json.RawMessage  `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return nil, fmt.Errorf("stdout line is not JSON: %q", line)
		}
		if msg.Method != "" || msg.ID == nil || string(*msg.ID) != strconv.Itoa(id) {
			continue
		}
		if msg.Error != nil {
			return nil, fmt.Errorf("error response: %s", msg.Error)
		}
		return msg.Result, nil
	}
}

// procMemory is the process's VmRSS and VmHWM in kB.
func procMemory(pid int) (rss, hwm int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fields := strings.Fields(value)
		if len(fields) == 0 {
			continue
		}
		n, _ := strconv.ParseInt(fields[0], 10, 64)
		switch name {
		case "VmRSS":
			rss = n
		case "VmHWM":
			hwm = n
		}
	}
	if rss == 0 {
		return 0, 0, fmt.Errorf("no VmRSS in /proc/%d/status", pid)
	}
	return rss, hwm, nil
}

// quantile is the nearest-rank q-quantile of v (the median averages the
// two middle values of an even count).
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if q == 0.5 && len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

// spawnBinary is $DSH_ACP_BIN, or this package built into a temporary
// directory that is removed after the test or benchmark.
func spawnBinary(tb testing.TB) string {
	tb.Helper()
	if bin := os.Getenv("DSH_ACP_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(tb.TempDir(), "dsh-acp")
	if out, err := exec.Command(goTool(), "build", "-o", bin, ".").CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// buildGo builds a one-file program in its own module and returns the binary.
func buildGo(b *testing.B, name, src string) string {
	dir := b.TempDir()
	for file, content := range map[string]string{
		"go.mod":  "module " + name + "\n\ngo 1.22\n",
		"main.go": src,
	} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	bin := filepath.Join(dir, name)
	cmd := exec.Command(goTool(), "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", name, err, out)
	}
	return bin
}

// goTool is the go command of the toolchain running the test.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// floorServer answers every NDJSON request with a small result using
// encoding/json: the least a Go ACP server does.
const floorServer = `package main

import (
	"bufio"
	"encoding/json"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<25)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage ` + "`json:\"id\"`" + `
			Method string          ` + "`json:\"method\"`" + `
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		result := map[string]any{"protocolVersion": 1}
		if req.Method == "session/new" {
			result = map[string]any{"sessionId": "s1"}
		}
		out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
}
`
