package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// testHooks are what the test server does that depends on where it runs.
type testHooks struct {
	// event is told what a call did: "block started", "block cancelled".
	event func(string)
	// crash ends the server abruptly.
	crash func()
	// pids reports the server's process ids.
	pids func() string
}

var objectSchema = json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"what to echo"}},"required":["text"]}`)
var emptySchema = json.RawMessage(`{"type":"object"}`)

// newTestServer returns an MCP server with the tools the tests call:
// echo, fail (an isError result), image, resource, block (until its call is
// cancelled), crash, add_tool (announces a new tool), env and pids.
func newTestServer(h testHooks) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "dsh-test", Version: "1"}, nil)
	text := func(t string) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: t}}}
	}
	s.AddTool(&sdk.Tool{Name: "echo", Description: "Echo the text back.", InputSchema: objectSchema},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct{ Text string }
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			return text("echo: " + args.Text), nil
		})
	s.AddTool(&sdk.Tool{Name: "fail", Description: "Always fails.", InputSchema: emptySchema},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			r := text("it broke")
			r.IsError = true
			return r, nil
		})
	s.AddTool(&sdk.Tool{Name: "image", Description: "A tiny image.", InputSchema: emptySchema},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "here"},
				&sdk.ImageContent{MIMEType: "image/png", Data: []byte("PNG!")},
			}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "resource", Description: "An embedded resource.", InputSchema: emptySchema},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "remember"}},
			}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "block", Description: "Blocks until cancelled.", InputSchema: emptySchema},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			h.event("block started")
			<-ctx.Done()
			h.event("block cancelled")
			return nil, ctx.Err()
		})
	s.AddTool(&sdk.Tool{Name: "crash", Description: "Ends the server.", InputSchema: emptySchema},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			h.crash()
			return text("still here"), nil
		})
	s.AddTool(&sdk.Tool{Name: "add_tool", Description: "Adds the tool extra.", InputSchema: emptySchema},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			s.AddTool(&sdk.Tool{Name: "extra", Description: "Added later.", InputSchema: emptySchema},
				func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text("extra"), nil })
			return text("added"), nil
		})
	s.AddTool(&sdk.Tool{Name: "env", Description: "The server's environment: one NAME=value (or NAME unset) line per name in text.", InputSchema: objectSchema},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var args struct{ Text string }
			if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
				return nil, err
			}
			var lines []string
			for _, name := range strings.Fields(args.Text) {
				if v, ok := os.LookupEnv(name); ok {
					lines = append(lines, name+"="+v)
				} else {
					lines = append(lines, name+" unset")
				}
			}
			return text(strings.Join(lines, "\n")), nil
		})
	s.AddTool(&sdk.Tool{Name: "pids", Description: "Process ids.", InputSchema: emptySchema},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(h.pids()), nil
		})
	return s
}

// The helper modes of the re-executed test binary.
const (
	// helperServer serves newTestServer over stdio; it starts a helperSleeper
	// child, writes each cancelled call's name to the file named by
	// fifoEnv (testHooks.event), and crashes with a message on stderr.
	helperServer = "server"
	// helperFail writes a message to stderr and exits 1 at once.
	helperFail = "fail"
	// helperSleeper sleeps until killed, answering nothing.
	helperSleeper = "sleeper"
)

// fifoEnv names the file a helperServer writes cancelled calls to.
const fifoEnv = "DSH_MCP_TEST_FIFO"

func runHelper(mode string) int {
	switch mode {
	case helperServer:
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), helperEnv+"="+helperSleeper)
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "start child:", err)
			return 1
		}
		fmt.Fprintln(os.Stderr, "test server ready")
		s := newTestServer(testHooks{
			event: func(name string) {
				if f, err := os.OpenFile(os.Getenv(fifoEnv), os.O_WRONLY, 0); err == nil {
					fmt.Fprintln(f, name)
					_ = f.Close()
				}
			},
			crash: func() {
				fmt.Fprintln(os.Stderr, "panic: crashing on purpose")
				os.Exit(3)
			},
			pids: func() string { return fmt.Sprintf("%d %d", os.Getpid(), child.Process.Pid) },
		})
		if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "serve:", err)
			return 1
		}
		return 0
	case helperFail:
		fmt.Fprintln(os.Stderr, "cannot read config: /nowhere/config.json: no such file")
		return 1
	case helperSleeper:
		time.Sleep(time.Hour)
		return 0
	default:
		fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
		return 2
	}
}
