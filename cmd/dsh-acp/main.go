// Command dsh-acp is a coding agent that editors launch over the Agent
// Client Protocol. With no arguments it serves ACP on stdin and stdout;
// `dsh-acp demo` runs a scripted session through the real stack and prints
// what an editor would show.
//
// Usage:
//
//	dsh-acp [flags]          serve ACP on stdin/stdout
//	dsh-acp demo [flags]     run the demo in a temporary workspace
//	dsh-acp version          print the version
//
// See dsh-acp --help for the flags and the environment.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], environ(os.LookupEnv), streams{in: os.Stdin, out: os.Stdout, err: os.Stderr})
	stop()
	os.Exit(code)
}

// run is the whole program, with its inputs passed in so tests can drive
// it. It returns the exit status.
func run(ctx context.Context, args []string, env environ, io streams) int {
	cfg, err := parseConfig(args, env, io.err)
	if err != nil {
		if err == errHelp {
			return 0
		}
		fmt.Fprintf(io.err, "dsh-acp: %v\n", err)
		return 2
	}
	switch cfg.command {
	case "version":
		fmt.Fprintln(io.out, "dsh-acp", version())
		return 0
	case "demo":
		return demo(ctx, cfg, io)
	default:
		return serve(ctx, cfg, io)
	}
}
