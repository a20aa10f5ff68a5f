package command_test

import (
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/command"
)

func TestParseSimple(t *testing.T) {
	type simple struct {
		env     []string
		words   []string
		literal []bool
	}
	lit := func(words ...string) simple {
		s := simple{words: words}
		for range words {
			s.literal = append(s.literal, true)
		}
		return s
	}
	tests := []struct {
		src  string
		want []simple
	}{
		{"ls; rm x", []simple{lit("ls"), lit("rm", "x")}},
		{"ls $(rm x)", []simple{lit("rm", "x"), {words: []string{"ls", "$(rm x)"}, literal: []bool{true, false}}}},
		{`"l"s 'a b' c\ d`, []simple{lit("ls", "a b", "c d")}},
		{"ls *.go ~/x {a,b} {}", []simple{{words: []string{"ls", "*.go", "~/x", "{a,b}", "{}"}, literal: []bool{true, false, false, false, true}}}},
		{"timeout 5 nice -n 2 rm x", []simple{lit("rm", "x")}},
		{"FOO=1 ls", []simple{{env: []string{"FOO=1"}, words: []string{"ls"}, literal: []bool{true}}}},
		{`A=1 env B="$x" ls`, []simple{{env: []string{"A=1", `B="$x"`}, words: []string{"ls"}, literal: []bool{true}}}},
		{"env B=$x ls", nil}, // $x may split into a command of its own: opaque
		{"find . -exec grep -l x {} +", []simple{
			lit("find", ".", "-exec", "grep", "-l", "x", "{}", "+"),
			{words: []string{"grep", "-l", "x", "{}"}, literal: []bool{true, true, true, false}},
		}},
		{"xargs grep x", []simple{{words: []string{"grep", "x", "{input}"}, literal: []bool{true, true, false}}}},
		{"f() { ls; }; f", []simple{lit("ls")}},
		{"f; f() { ls; }", []simple{lit("f"), lit("ls")}},
		{"(f() { ls; }); f", []simple{lit("ls"), lit("f")}},
		{"command -v rg", []simple{lit("command", "-v", "rg")}},
		{"x=1", nil},
		{"", nil},
	}
	for _, tt := range tests {
		c, err := command.Parse(tt.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		var got []simple
		for _, s := range c.Simple {
			got = append(got, simple{env: s.Env, words: s.Words, literal: s.Literal})
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q).Simple = %+v, want %+v", tt.src, got, tt.want)
		}
	}
}

func TestParseWrites(t *testing.T) {
	w := func(path, by string) command.Write { return command.Write{Path: path, By: by} }
	tests := []struct {
		src  string
		want []command.Write
	}{
		{"echo x > /dev/null 2>&1 >&2 >&- 2>/dev/stderr", nil},
		{"echo > a; cd sub && echo > b", []command.Write{w("a", "redirect"), w("b", "redirect"), w("sub/b", "redirect")}},
		{"(cd sub && echo > a); echo > b", []command.Write{w("a", "redirect"), w("sub/a", "redirect"), w("b", "redirect")}},
		{"echo x | tee -a a b", []command.Write{w("a", "tee"), w("b", "tee")}},
		{"cp -r a b dir", []command.Write{w("dir", "cp"), w("dir/a", "cp"), w("dir/b", "cp")}},
		{"mv a b", []command.Write{w("b", "mv"), w("b/a", "mv"), w("a", "mv")}},
		{"ln -s /etc/passwd", []command.Write{w(".", "ln"), w("./passwd", "ln")}},
		{"chmod -x a b", []command.Write{w("a", "chmod"), w("b", "chmod")}},
		{"chown -R me a", []command.Write{w("a", "chown")}},
		{"rm -rf a b", []command.Write{w("a", "rm"), w("b", "rm")}},
		{"touch -d yesterday a", []command.Write{w("a", "touch")}},
		{"mkdir -p -m 755 a", []command.Write{w("a", "mkdir")}},
		{"find a b -delete", []command.Write{w("a", "find -delete"), w("b", "find -delete")}},
		{"find . -fprintf out '%p'", []command.Write{w("out", "find")}},
		{"dd if=a of=b", []command.Write{w("b", "dd")}},
		{"sed -i.bak s/a/b/ x y", []command.Write{w("x", "sed -i"), w("y", "sed -i")}},
		{"sed -n p x", nil},
		{"sort -k2 -o out in", []command.Write{w("out", "sort -o")}},
		{"uniq in out", []command.Write{w("out", "uniq")}},
		{"yq -i '.a = 1' x.yaml", []command.Write{w("x.yaml", "yq -i")}},
		{"gofmt -l -w a.go", []command.Write{w("a.go", "gofmt -w")}},
		{"curl -sSL -O https://e/x", []command.Write{w(".", "curl -O")}},
		{"curl -o out https://e/x", []command.Write{w("out", "curl -o")}},
		{"wget -P dl https://e/x", []command.Write{w("dl", "wget")}},
		{"go build -o bin/app .", []command.Write{w("bin/app", "go build -o")}},
		{"gcc -o a.out a.c", []command.Write{w("a.out", "gcc -o")}},
		{"tar -czf out.tgz src", []command.Write{w("out.tgz", "tar")}},
		{"tar xf a.tar -C dir", []command.Write{w("dir", "tar -x")}},
		{"unzip a.zip -d dir", []command.Write{w("dir", "unzip")}},
		{"/usr/bin/time -o t.txt ls", []command.Write{w("t.txt", "time -o")}},
	}
	for _, tt := range tests {
		c, err := command.Parse(tt.src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		if !reflect.DeepEqual(c.Writes, tt.want) {
			t.Errorf("Parse(%q).Writes = %+v, want %+v", tt.src, c.Writes, tt.want)
		}
	}
}

func TestParseUnknownWrites(t *testing.T) {
	for _, src := range []string{
		"echo > $f",
		"echo > *.txt",
		"rm -f *.o",
		"tee $(cat list)",
		"cd $d; echo > x",
		"f() { echo > x; }",
		"curl -K cfg https://e",
		"sort $opts in",
	} {
		c, err := command.Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		unknown := false
		for _, w := range c.Writes {
			unknown = unknown || w.Unknown != ""
		}
		if !unknown {
			t.Errorf("Parse(%q).Writes = %+v, want a write that cannot be placed", src, c.Writes)
		}
	}
}

func TestParseError(t *testing.T) {
	if _, err := command.Parse("echo 'open"); err == nil {
		t.Fatal("Parse of an unclosed quote: no error")
	}
}

func TestProgram(t *testing.T) {
	for words, want := range map[string]string{
		"ls":                    "ls",
		"/bin/ls":               "ls",
		"/usr/local/bin/rg":     "rg",
		"//usr/bin/git":         "git",
		"./ls":                  "./ls",
		"bin/ls":                "bin/ls",
		"/tmp/ls":               "/tmp/ls",
		"/usr/bin/../../tmp/ls": "/usr/bin/../../tmp/ls",
	} {
		s := command.Simple{Words: []string{words}, Literal: []bool{true}}
		if got := s.Program(); got != want {
			t.Errorf("Program of %q = %q, want %q", words, got, want)
		}
	}
	if got := (command.Simple{Words: []string{"$x"}, Literal: []bool{false}}).Program(); got != "" {
		t.Errorf("Program of an expansion = %q, want empty", got)
	}
}
