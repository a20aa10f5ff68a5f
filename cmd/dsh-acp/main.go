// Command dsh-acp is a coding agent that editors launch over the Agent
// Client Protocol. With no arguments it serves ACP on stdin and stdout;
// `dsh-acp demo` runs a scripted session through the real stack and prints
// what an editor would show.
//
// Usage:
//
//	dsh-acp [flags]          serve ACP on stdin/stdout
//	dsh-acp demo [flags]     run the demo in a temporary workspace
//	dsh-acp version          print the version, commit and Go version (also --version)
//
// See dsh-acp --help for the flags and the environment.
//
// The server stops when stdin ends, when stdout is closed, and on SIGINT
// or SIGTERM: every running turn is answered "cancelled", every command
// and background job is stopped, and it exits 0; a second signal, or a
// shutdown taking longer than ten seconds, ends it at once. On Linux it is
// the child subreaper of everything its commands start, and on the way
// out it kills whatever of that is left.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

func main() {
	// Started as the sandbox's helper, this process sets a command's
	// sandbox up and runs it, and never gets further.
	sandbox.Main()
	// Orphans of our commands stay our descendants, for the shutdown to
	// find; without it only process groups and strays are stopped.
	_ = becomeSubreaper()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGPIPE)
	ctx, stop := watchSignals(context.Background(), sigs,
		func() <-chan time.Time { return time.After(shutdownLimit) },
		func(code int, why string) {
			fmt.Fprintf(os.Stderr, "dsh-acp: %s: exiting now\n", why)
			killDescendants()
			os.Exit(code)
		})
	code := run(ctx, os.Args[1:], environ(os.LookupEnv), streams{in: os.Stdin, out: os.Stdout, err: os.Stderr})
	stop()
	killDescendants()
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
		fmt.Fprintln(io.out, identity())
		return 0
	case "demo":
		return demo(ctx, cfg, io)
	case "login", "logout":
		return account(ctx, cfg, io)
	default:
		return serve(ctx, cfg, io)
	}
}
