package lsp_test

import (
	"strings"
	"testing"
)

const goodMain = "package main\n\nfunc main() {\n\tprintln(greeting())\n}\n\nfunc greeting() string { return \"hi\" }\n"

func TestAfterWriteReportsNewErrorsAndTheirFix(t *testing.T) {
	root := goModule(t, map[string]string{"main.go": goodMain})
	m := newManager(t, root, hangGuard)

	if got := write(t, m, root, "main.go", goodMain); got != "" {
		t.Fatalf("clean file: AfterWrite = %q, want nothing", got)
	}
	broken := strings.Replace(goodMain, "println(greeting())", "println(greting())", 1)
	got := write(t, m, root, "main.go", broken)
	if !strings.Contains(got, "main.go:4:10: undefined: greting") || !strings.Contains(got, "1 new error") {
		t.Fatalf("broken file: AfterWrite = %q, want the undefined name at main.go:4:10", got)
	}
	if got := write(t, m, root, "main.go", goodMain); got != "" {
		t.Fatalf("fixed file: AfterWrite = %q, want nothing", got)
	}
}

func TestAfterWriteColumnsCountCharacters(t *testing.T) {
	root := goModule(t, map[string]string{"main.go": goodMain})
	m := newManager(t, root, hangGuard)
	// "😀" is one character but two UTF-16 code units: the column the
	// model reads counts characters.
	broken := strings.Replace(goodMain, "println(greeting())", `println("😀", greting())`, 1)
	got := write(t, m, root, "main.go", broken)
	if !strings.Contains(got, "main.go:4:15: undefined: greting") {
		t.Fatalf("AfterWrite = %q, want the error at character column 15", got)
	}
	f := newToolFixture(t, m)
	diags := text(t, f.call(t, "diagnostics", map[string]string{"path": "main.go"}))
	if !strings.Contains(diags, "main.go:4:15: error: undefined: greting") {
		t.Fatalf("diagnostics = %q, want the same error", diags)
	}
	all := text(t, f.call(t, "diagnostics", map[string]string{}))
	if !strings.Contains(all, "main.go:4:15: error: undefined: greting") {
		t.Fatalf("workspace diagnostics = %q, want the same error", all)
	}
}
