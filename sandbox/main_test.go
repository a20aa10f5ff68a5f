package sandbox_test

import (
	"fmt"
	"net"
	"os"
	"testing"

	"github.com/dsh-acp/dsh-acp/sandbox"
	"go.uber.org/goleak"
)

// SANDBOX_TEST_DIAL, when set, makes the test binary a program that
// dials the TCP address it holds and exits: 0 when the connection was
// made, 1 when not. SANDBOX_TEST_LOOPBACK makes it listen on the loopback
// interface and dial itself.

func TestMain(m *testing.M) {
	sandbox.Main()
	if addr := os.Getenv("SANDBOX_TEST_DIAL"); addr != "" {
		os.Exit(dial("tcp", addr))
	}
	if path := os.Getenv("SANDBOX_TEST_DIAL_UNIX"); path != "" {
		os.Exit(dial("unix", path))
	}
	if os.Getenv("SANDBOX_TEST_LOOPBACK") != "" {
		os.Exit(loopback())
	}
	goleak.VerifyTestMain(m)
}

func dial(network, addr string) int {
	conn, err := net.Dial(network, addr)
	if err != nil {
		fmt.Println("dial:", err)
		return 1
	}
	conn.Close()
	fmt.Println("connected")
	return 0
}

func loopback() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("listen:", err)
		return 1
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			c.Close()
		}
	}()
	return dial("tcp", l.Addr().String())
}
