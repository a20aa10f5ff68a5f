package shell

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// fakeShellVar, set in the environment, makes the test binary a tiny shell
// (fakeShell) instead of running the tests: the tests of how a command's
// processes are held and stopped (tree_test.go) run with it where there is
// no bash, as on Windows under Wine.
const fakeShellVar = "DSH_TEST_FAKE_SHELL"

// fakeShell runs `-c <script>`: statements separated by " ; ", each one
// of `print <text>`, `child` (starts a copy of itself running `hang` in
// the background, sharing its output, and prints "pid=<the child's
// pid>"), `hang` (sleeps for an hour) and `exit <code>`. It returns the
// exit code.
func fakeShell(args []string) int {
	if len(args) != 2 || args[0] != "-c" {
		fmt.Fprintf(os.Stderr, "fake shell: want -c <script>, got %q\n", args)
		return 2
	}
	for stmt := range strings.SplitSeq(args[1], " ; ") {
		verb, arg, _ := strings.Cut(strings.TrimSpace(stmt), " ")
		switch verb {
		case "print":
			fmt.Println(arg)
		case "child":
			self, err := os.Executable()
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			cmd := exec.Command(self, "-c", "hang")
			cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
			if err := cmd.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 2
			}
			fmt.Printf("pid=%d\n", cmd.Process.Pid)
		case "hang":
			time.Sleep(time.Hour)
		case "exit":
			code, _ := strconv.Atoi(arg)
			return code
		default:
			fmt.Fprintf(os.Stderr, "fake shell: unknown statement %q\n", stmt)
			return 2
		}
	}
	return 0
}
