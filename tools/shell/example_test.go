//go:build unix

package shell_test

import (
	"context"
	"fmt"
	"os"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/shell"
	"github.com/dsh-acp/dsh-acp/workspace"
)

func ExampleNew() {
	dir, err := os.MkdirTemp("", "shell-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	ws, err := workspace.New(dir, nil, workspace.Local{})
	if err != nil {
		panic(err)
	}
	sh, err := shell.New(ws, shell.Options{})
	if err != nil {
		panic(err)
	}
	defer sh.Close()
	reg := registry.New()
	for _, tool := range sh.Tools() {
		if _, err := reg.Register(nil, tool); err != nil {
			panic(err)
		}
	}
	p := pipeline.New(reg, pipeline.Options{})

	r := p.Execute(context.Background(), pipeline.Input{
		CallID:    "call_1",
		Name:      "bash",
		Arguments: `{"command":"echo hello; echo oops >&2; exit 3","description":"Say hello"}`,
	})
	fmt.Printf("%s\nisError=%v\n", presentation.JoinText(r.Content), r.IsError)
	// Output:
	// hello
	// [stderr]
	// oops
	//
	// [exit code: 3]
	// isError=false
}
