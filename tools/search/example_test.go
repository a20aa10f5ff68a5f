package search_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/search"
	"github.com/dsh-acp/dsh-acp/workspace"
)

func ExampleTools() {
	dir, _ := os.MkdirTemp("", "search-example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*.log\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "cmd"), 0o755)
	os.WriteFile(filepath.Join(dir, "cmd", "main.go"), []byte("package main\n\nfunc main() {\n\trun()\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "run.go"), []byte("package main\n\nfunc run() {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "debug.log"), []byte("run() failed\n"), 0o644)
	newer := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "run.go"), newer, newer)

	ws, _ := workspace.New(dir, nil, workspace.Local{})
	tools, err := search.Tools(ws, search.Options{})
	if err != nil {
		panic(err)
	}
	reg := registry.New()
	for _, t := range tools {
		reg.Register(nil, t)
	}
	p := pipeline.New(reg, pipeline.Options{})

	r := p.Execute(context.Background(), pipeline.Input{CallID: "call_1", Name: "grep", Arguments: `{"pattern":"run\\(\\)"}`})
	fmt.Println(presentation.JoinText(r.Content))

	r = p.Execute(context.Background(), pipeline.Input{CallID: "call_2", Name: "glob", Arguments: `{"pattern":"**/*.go"}`})
	fmt.Println(presentation.JoinText(r.Content))
	// Output:
	// Found 2 matches in 2 files.
	//
	// cmd/main.go:
	//   4: 	run()
	//
	// run.go:
	//   3: func run() {}
	// run.go
	// cmd/main.go
}
