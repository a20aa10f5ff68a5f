package fs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/fs"
	"github.com/dsh-acp/dsh-acp/workspace"
)

func ExampleTools() {
	dir, err := os.MkdirTemp("", "fs-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)

	ws, err := workspace.New(dir, nil, workspace.Local{})
	if err != nil {
		panic(err)
	}
	tools, err := fs.Tools(ws, fs.Options{})
	if err != nil {
		panic(err)
	}
	reg := registry.New()
	for _, t := range tools {
		if _, err := reg.Register(nil, t); err != nil {
			panic(err)
		}
	}
	p := pipeline.New(reg, pipeline.Options{})
	run := func(name, args string) pipeline.Result {
		res := p.Execute(context.Background(), pipeline.Input{CallID: "call_1", Name: name, Arguments: args})
		fmt.Println(presentation.JoinText(res.Content))
		return res
	}

	run("write", `{"file_path":"notes.txt","content":"one\ntwo\nthree\n"}`)
	res := run("edit", `{"file_path":"notes.txt","old_string":"two","new_string":"2"}`)
	fmt.Println(res.Meta)
	run("read", `{"file_path":"notes.txt","limit":2}`)
	run("edit", `{"file_path":"notes.txt","old_string":"four","new_string":"4"}`)
	// Output:
	// Created notes.txt (3 lines).
	// Edited notes.txt: replaced 1 occurrence.
	// {"diffs":[{"path":"notes.txt","oldText":"one\ntwo\nthree\n","newText":"one\n2\nthree\n","line":2}]}
	// <path>notes.txt</path>
	// <type>file</type>
	// <content>
	//      1	one
	//      2	2
	//
	// (Showing lines 1-2 of 3. To see more, read with offset 3.)
	// </content>
	// Error: old_string was not found in notes.txt: read the file again and copy the exact text, including whitespace and indentation
}
