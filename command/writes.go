package command

import (
	"path"
	"strings"
)

// toolWrites records the files a known tool writes, from its arguments.
// The tools and what counts as their writes:
//
//   - tee: every file operand
//   - sort: -o/--output, and -T/--temporary-directory (its temporary files)
//   - uniq: the second operand (its output file)
//   - sed, yq: every file operand with -i (in place)
//   - gofmt: every operand with -w, and -cpuprofile
//   - tree: -o
//   - find: -fprint, -fprint0, -fprintf, -fls; -delete writes its roots
//   - time (the program): -o
//   - curl: -o, -D, -c, --trace, --trace-ascii, --stderr, --etag-save,
//     --hsts, --alt-svc, --libcurl; -O writes into --output-dir or ".";
//     -K (options from a file) is opaque
//   - wget: -O, -o, -a, --save-cookies, --warc-file; without -O, the
//     directory of -P or "."; -e and --config are opaque
//   - go build/test/…: -o, the test profiles (-coverprofile, -cpuprofile,
//     -memprofile, -blockprofile, -mutexprofile, -trace) and -outputdir
//   - cc, gcc, g++, c++, clang, clang++, gfortran, tcc: -o, -MF; rustc: -o,
//     --out-dir
//   - cp, mv, install, ln: the destination (and, when it may be a
//     directory, each source's name inside it); mv also every source;
//     install -d every operand
//   - rm, rmdir, unlink, shred, truncate, touch, mkdir, mkfifo: every
//     operand; chmod, chown, chgrp: every operand after the mode or owner
//   - dd: of=
//   - tar: the archive when creating, the -C directory (or ".") when
//     extracting; -P, --to-command and other commands it can run are
//     opaque
//   - unzip: the -d directory (or ".") unless listing or testing
//
// For these tools any argument that is not literal and may be an option
// or a target makes the line opaque: what it writes cannot be told.
// Programs not listed here (make, npm, git, python …) may write anything;
// only a rule, the user's own decision, lets them run.
func (p *parser) toolWrites(s Simple, name string) {
	switch name {
	case "tee":
		p.writeOperands(s, name, flagSpec{}, 0)
	case "sort":
		spec := flagSpec{short: "kotST", long: []string{"key", "output", "field-separator", "buffer-size",
			"temporary-directory", "compress-program", "files0-from", "random-source", "batch-size", "parallel", "sort"}}
		p.writeOptions(s, name, spec, "-o", "--output", "-T", "--temporary-directory")
	case "uniq":
		opts := p.known(s, name, flagSpec{short: "fsw", long: []string{"skip-fields", "skip-chars", "check-chars"}})
		if ops := operands(opts); len(ops) >= 2 {
			p.writeWord(s, ops[1].index, "uniq")
		}
	case "sed":
		p.sedWrites(s)
	case "yq":
		p.yqWrites(s)
	case "gofmt":
		p.gofmtWrites(s)
	case "tree":
		p.writeOptions(s, name, flagSpec{short: "LPIoHT", long: []string{"charset", "filelimit", "timefmt", "sort",
			"gitfile", "infofile", "hintro", "houtro"}}, "-o", "")
	case "find":
		p.findWrites(s)
	case "curl":
		p.curlWrites(s)
	case "wget":
		p.wgetWrites(s)
	case "go":
		p.goWrites(s)
	case "cc", "gcc", "g++", "c++", "clang", "clang++", "gfortran", "tcc":
		p.compilerWrites(s, name)
	case "rustc":
		p.writeOptions(s, name, flagSpec{short: "oLlCAWDF", long: []string{"out-dir", "emit", "crate-type", "crate-name",
			"edition", "target", "cfg", "cap-lints", "explain", "print", "codegen", "extern", "sysroot"}}, "-o", "--out-dir")
	case "cp", "mv", "install", "ln":
		p.copyWrites(s, name)
	case "rm", "rmdir", "unlink":
		p.writeOperands(s, name, flagSpec{}, 0)
	case "shred":
		p.writeOperands(s, name, flagSpec{short: "ns", long: []string{"iterations", "size", "random-source"}}, 0)
	case "truncate":
		p.writeOperands(s, name, flagSpec{short: "rs", long: []string{"reference", "size"}}, 0)
	case "touch":
		p.writeOperands(s, name, flagSpec{short: "dtr", long: []string{"date", "reference", "time"}}, 0)
	case "mkdir", "mkfifo":
		p.writeOperands(s, name, flagSpec{short: "m", long: []string{"mode"}}, 0)
	case "chmod":
		p.chmodWrites(s)
	case "chown", "chgrp":
		skip := 1
		if _, ok := anyWordIs(s, "--reference"); ok {
			skip = 0
		}
		p.writeOperands(s, name, flagSpec{}, skip)
	case "dd":
		if !p.allLiteral(s, name) {
			return
		}
		for _, w := range s.Words[1:] {
			if file, ok := strings.CutPrefix(w, "of="); ok {
				p.write(file, "dd")
			}
		}
	case "tar":
		p.tarWrites(s)
	case "unzip":
		p.unzipWrites(s)
	}
}

// known scans s and records the line as opaque when an argument cannot
// be told apart (nil then).
func (p *parser) known(s Simple, name string, spec flagSpec) []option {
	opts := scan(s, 1, spec)
	if hasUnknown(opts) {
		p.unknownWrite("", name, "cannot tell what %s writes: an argument is known only when it runs", name)
		return nil
	}
	return opts
}

// allLiteral reports whether every argument of s is literal, and records
// the line as opaque when one is not.
func (p *parser) allLiteral(s Simple, name string) bool {
	for i, w := range s.Words {
		if !s.literal(i) && !s.isPipe(i) {
			p.unknownWrite(w, name, "cannot tell what %s writes: %s is known only when it runs", name, w)
			return false
		}
	}
	return true
}

// writeWord records word i of s as a file written by by.
func (p *parser) writeWord(s Simple, i int, by string) {
	if s.isPipe(i) {
		return // a pipe into a command judged on its own
	}
	if !s.literal(i) {
		p.unknownWrite(s.Words[i], by, "cannot tell what %s writes: %s is known only when it runs", by, s.Words[i])
		return
	}
	p.write(s.Words[i], by)
}

// writeValue records the value of option o as a file written by by.
func (p *parser) writeValue(s Simple, o option, by string) {
	if !o.hasValue || o.value == "-" {
		return
	}
	if (o.valueIndex >= 0 && !s.literal(o.valueIndex)) || !s.literal(o.index) {
		p.unknownWrite(o.value, by, "cannot tell what %s writes: %s is known only when it runs", by, o.value)
		return
	}
	p.write(o.value, by)
}

// writeOperands records every operand of s after the first skip.
func (p *parser) writeOperands(s Simple, name string, spec flagSpec, skip int) {
	if !p.allLiteral(s, name) {
		return
	}
	for i, o := range operands(scan(s, 1, spec)) {
		if i >= skip {
			p.writeWord(s, o.index, name)
		}
	}
}

// writeOptions records the values of the options named in pairs of
// short and long names.
func (p *parser) writeOptions(s Simple, name string, spec flagSpec, names ...string) {
	opts := p.known(s, name, spec)
	for _, o := range opts {
		for i := 0; i+1 < len(names); i += 2 {
			if o.is(names[i], names[i+1]) {
				p.writeValue(s, o, name+" "+o.name)
			}
		}
	}
}

// yqWrites records yq -i's files: every operand after the expression
// (or the only operand, or all of them when the expression comes from a
// flag).
func (p *parser) yqWrites(s Simple) {
	spec := flagSpec{short: "fIops", long: []string{"output-format", "input-format", "indent", "split-exp",
		"front-matter", "expression", "from-file"}}
	opts := p.known(s, "yq", spec)
	inPlace, exprFlag := false, false
	for _, o := range opts {
		inPlace = inPlace || o.is("-i", "--inplace")
		exprFlag = exprFlag || o.is("", "--expression") || o.is("", "--from-file")
	}
	if !inPlace {
		return
	}
	ops := operands(opts)
	if len(ops) > 1 && !exprFlag {
		ops = ops[1:]
	}
	for _, o := range ops {
		p.writeWord(s, o.index, "yq -i")
	}
}

// gofmtWrites records gofmt -w's files and -cpuprofile.
func (p *parser) gofmtWrites(s Simple) {
	opts, ok := goFlags(s, 1, []string{"r", "cpuprofile"})
	if !ok {
		p.unknownWrite("", "gofmt", "cannot tell what gofmt writes: an argument is known only when it runs")
		return
	}
	rewrite := false
	for _, o := range opts {
		switch o.name {
		case "-w":
			rewrite = true
		case "-cpuprofile":
			p.writeValue(s, o, "gofmt -cpuprofile")
		}
	}
	if rewrite {
		for _, o := range operands(opts) {
			p.writeWord(s, o.index, "gofmt -w")
		}
	}
}

// findWrites records find's output files, and its roots when it deletes.
func (p *parser) findWrites(s Simple) {
	f := parseFind(s)
	if f.unknown {
		p.unknownWrite("", "find", "cannot tell what find writes: an argument is known only when it runs")
		return
	}
	for _, out := range f.outputs {
		p.writeWord(s, out, "find")
	}
	if f.deletes {
		roots := f.roots
		if len(roots) == 0 {
			p.write(".", "find -delete")
		}
		for _, r := range roots {
			p.writeWord(s, r, "find -delete")
		}
	}
}

// curlWrites records the files curl writes.
func (p *parser) curlWrites(s Simple) {
	opts := p.known(s, "curl", curlSpec())
	dir, remoteName := ".", false
	for _, o := range opts {
		switch {
		case o.is("-K", "--config"):
			p.unknownWrite("", "curl -K", "cannot tell what curl writes: -K reads options from a file")
		case o.is("-o", "--output"), o.is("-D", "--dump-header"), o.is("-c", "--cookie-jar"),
			o.is("", "--trace"), o.is("", "--trace-ascii"), o.is("", "--stderr"), o.is("", "--etag-save"),
			o.is("", "--hsts"), o.is("", "--alt-svc"), o.is("", "--libcurl"):
			p.writeValue(s, o, "curl "+o.name)
		case o.is("", "--output-dir"):
			if !s.literal(o.index) || (o.valueIndex >= 0 && !s.literal(o.valueIndex)) {
				p.unknownWrite(o.value, "curl", "cannot tell what curl writes: %s is known only when it runs", o.value)
				return
			}
			dir = o.value
		case o.is("-O", "--remote-name"), o.is("", "--remote-name-all"):
			remoteName = true
		}
	}
	if remoteName {
		p.write(dir, "curl -O")
	}
}

// curlSpec lists curl's options that take a value.
func curlSpec() flagSpec {
	return flagSpec{short: "AbcCdDeEFHKmoPQrTtuUwxXyYz", long: []string{
		"data", "data-ascii", "data-binary", "data-raw", "data-urlencode", "header", "user-agent", "referer",
		"request", "user", "proxy", "output", "output-dir", "config", "cookie", "cookie-jar", "dump-header",
		"form", "form-string", "max-time", "connect-timeout", "retry", "retry-delay", "retry-max-time", "url",
		"upload-file", "cert", "key", "cacert", "capath", "range", "trace", "trace-ascii", "stderr",
		"write-out", "etag-save", "etag-compare", "hsts", "alt-svc", "libcurl", "resolve", "connect-to",
		"interface", "limit-rate", "max-filesize", "proxy-user", "oauth2-bearer", "json", "variable",
		"time-cond", "speed-limit", "speed-time", "continue-at", "quote", "ftp-port", "telnet-option",
		"unix-socket", "abstract-unix-socket", "max-redirs", "aws-sigv4", "cert-type", "key-type", "ciphers",
		"dns-servers", "doh-url", "local-port", "netrc-file", "noproxy", "pass", "pinnedpubkey", "preproxy",
		"proto", "proto-default", "proto-redir", "proxy-header", "request-target", "socks4", "socks4a",
		"socks5", "socks5-hostname", "tls-max", "mail-from", "mail-rcpt", "mail-auth", "create-file-mode",
		"parallel-max", "expect100-timeout", "happy-eyeballs-timeout-ms", "keepalive-time", "ip-tos",
	}}
}

// wgetWrites records the files wget writes.
func (p *parser) wgetWrites(s Simple) {
	spec := flagSpec{short: "aABDeiIlnoOPQRtTUwX", long: []string{"output-document", "output-file", "append-output",
		"directory-prefix", "execute", "config", "input-file", "save-cookies", "load-cookies", "warc-file",
		"user-agent", "header", "post-data", "post-file", "tries", "timeout", "wait", "level", "accept",
		"reject", "domains", "exclude-directories", "include-directories", "quota", "base", "user", "password"}}
	opts := p.known(s, "wget", spec)
	document, dir := false, "."
	for _, o := range opts {
		switch {
		case o.is("-e", "--execute"), o.is("", "--config"):
			p.unknownWrite("", "wget "+o.name, "cannot tell what wget writes: %s takes settings from a string or file", o.name)
		case o.is("-O", "--output-document"):
			document = true
			p.writeValue(s, o, "wget -O")
		case o.is("-o", "--output-file"), o.is("-a", "--append-output"), o.is("", "--save-cookies"),
			o.is("", "--warc-file"):
			p.writeValue(s, o, "wget "+o.name)
		case o.is("-P", "--directory-prefix"):
			if !s.literal(o.index) || (o.valueIndex >= 0 && !s.literal(o.valueIndex)) {
				p.unknownWrite(o.value, "wget", "cannot tell what wget writes: %s is known only when it runs", o.value)
				return
			}
			dir = o.value
		}
	}
	if !document {
		p.write(dir, "wget")
	}
}

// goWrites records the output files of the go command.
func (p *parser) goWrites(s Simple) {
	if len(s.Words) < 2 || !s.literal(1) {
		return
	}
	opts, ok := goFlags(s, 2, goValuedFlags())
	if !ok {
		p.unknownWrite("", "go", "cannot tell what go writes: an argument is known only when it runs")
		return
	}
	outputDir := ""
	for _, o := range opts {
		if o.name == "-outputdir" {
			outputDir = o.value
			p.writeValue(s, o, "go -outputdir")
		}
	}
	for _, o := range opts {
		switch o.name {
		case "-o":
			p.writeValue(s, o, "go "+s.Words[1]+" -o")
		case "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace":
			p.writeValue(s, o, "go "+s.Words[1]+" "+o.name)
			if outputDir != "" && o.hasValue && !path.IsAbs(o.value) {
				p.write(joinPath(outputDir, o.value), "go "+s.Words[1]+" "+o.name)
			}
		}
	}
}

// goValuedFlags lists the go command's flags that take a value.
func goValuedFlags() []string {
	return []string{"o", "p", "C", "covermode", "coverpkg", "asmflags", "buildmode", "compiler", "gccgoflags",
		"gcflags", "installsuffix", "ldflags", "mod", "modfile", "overlay", "pgo", "pkgdir", "tags", "toolexec",
		"exec", "run", "bench", "benchtime", "count", "cpu", "list", "parallel", "timeout", "coverprofile",
		"cpuprofile", "memprofile", "memprofilerate", "blockprofile", "blockprofilerate", "mutexprofile",
		"mutexprofilefraction", "trace", "outputdir", "shuffle", "skip", "fuzz", "fuzztime", "fuzzminimizetime",
		"f", "vettool", "reuse", "vet"}
}

// goFlags scans Go-style flags (-name, --name, -name=value; a valued
// flag without "=" takes the next word) from word from on; flags end at
// the first operand or "--". ok is false when an argument cannot be told
// apart.
func goFlags(s Simple, from int, valued []string) (opts []option, ok bool) {
	done := false
	for i := from; i < len(s.Words); i++ {
		w := s.Words[i]
		switch {
		case !s.literal(i) && s.mayBeOption(i) && !done:
			return nil, false
		case done || !s.literal(i) || !strings.HasPrefix(w, "-") || w == "-":
			opts = append(opts, option{index: i, valueIndex: -1})
		case w == "--":
			done = true
		default:
			name, value, hasValue := strings.Cut(strings.TrimPrefix(w[1:], "-"), "=")
			o := option{index: i, name: "-" + name, value: value, hasValue: hasValue, valueIndex: -1}
			if !hasValue && containsString(valued, name) && i+1 < len(s.Words) {
				i++
				o.value, o.hasValue, o.valueIndex = s.Words[i], true, i
			}
			opts = append(opts, o)
		}
	}
	return opts, true
}

// containsString reports whether list holds s.
func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// compilerWrites records a C compiler's -o and -MF files.
func (p *parser) compilerWrites(s Simple, name string) {
	for i := 1; i < len(s.Words); i++ {
		w := s.Words[i]
		if !s.literal(i) {
			if s.mayBeOption(i) {
				p.unknownWrite(w, name, "cannot tell what %s writes: %s is known only when it runs", name, w)
				return
			}
			continue
		}
		for _, flag := range []string{"-o", "-MF"} {
			switch {
			case w == flag && i+1 < len(s.Words):
				i++
				p.writeWord(s, i, name+" "+flag)
			case strings.HasPrefix(w, flag) && len(w) > len(flag) && flag == "-o":
				p.write(w[len(flag):], name+" "+flag)
			}
		}
	}
}

// copyWrites records what cp, mv, install and ln write.
func (p *parser) copyWrites(s Simple, name string) {
	spec := flagSpec{short: "St", long: []string{"target-directory", "suffix"}}
	if name == "install" {
		spec = flagSpec{short: "gmoSt", long: []string{"group", "mode", "owner", "suffix", "target-directory", "strip-program"}}
	}
	if !p.allLiteral(s, name) {
		return
	}
	opts := scan(s, 1, spec)
	target, noTarget, dirs := "", false, false
	for _, o := range opts {
		switch {
		case o.is("-t", "--target-directory"):
			target = o.value
		case o.is("-T", "--no-target-directory"):
			noTarget = true
		case name == "install" && o.is("-d", "--directory"):
			dirs = true
		}
	}
	var files []string
	for _, o := range operands(opts) {
		files = append(files, s.Words[o.index])
	}
	if dirs {
		for _, f := range files {
			p.write(f, name)
		}
		return
	}
	sources := files
	switch {
	case target != "":
	case name == "ln" && len(files) == 1:
		target = "."
	case len(files) >= 2:
		target, sources = files[len(files)-1], files[:len(files)-1]
	default:
		return
	}
	p.write(target, name)
	if !noTarget {
		for _, src := range sources {
			p.write(joinPath(target, path.Base(src)), name)
		}
	}
	if name == "mv" {
		for _, src := range sources {
			p.write(src, "mv")
		}
	}
}

// chmodWrites records chmod's files: every operand after the mode, which
// may look like an option (-x).
func (p *parser) chmodWrites(s Simple) {
	if !p.allLiteral(s, "chmod") {
		return
	}
	mode := true
	if _, ok := anyWordIs(s, "--reference"); ok {
		mode = false
	}
	optionsDone := false
	for i := 1; i < len(s.Words); i++ {
		w := s.Words[i]
		switch {
		case !optionsDone && w == "--":
			optionsDone = true
		case !optionsDone && strings.HasPrefix(w, "--"):
		case !optionsDone && mode && isSymbolicMode(w):
			mode = false
		case !optionsDone && strings.HasPrefix(w, "-"):
		case mode:
			mode = false
		default:
			p.write(w, "chmod")
		}
	}
}

// isSymbolicMode reports whether w is a chmod mode that starts with "-"
// (such as -x or -rw), which chmod reads as a mode, not an option.
func isSymbolicMode(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	return strings.Trim(w[1:], "rwxXst") == ""
}

// tarWrites records what tar writes.
func (p *parser) tarWrites(s Simple) {
	if !p.allLiteral(s, "tar") {
		return
	}
	spec := flagSpec{short: "bCfFgHIKLNTVX", long: []string{"file", "directory", "files-from", "exclude-from",
		"listed-incremental", "blocking-factor", "label", "newer", "tape-length", "starting-file", "to-command",
		"use-compress-program", "info-script", "new-volume-script", "rsh-command", "checkpoint-action", "format",
		"owner", "group", "mode", "mtime", "transform", "exclude"}}
	words := s
	mode := ""
	if len(s.Words) > 1 && !strings.HasPrefix(s.Words[1], "-") {
		// Old style: "tar czf out.tgz dir" — the letters' values follow in order.
		words = expandTarKeys(s)
	}
	opts := scan(words, 1, spec)
	archive, dir := "", "."
	for _, o := range opts {
		switch {
		case o.is("-f", "--file"):
			archive = o.value
		case o.is("-C", "--directory"):
			dir = o.value
		case o.is("-P", "--absolute-names"), o.is("", "--to-command"), o.is("-I", "--use-compress-program"),
			o.is("-F", "--info-script"), o.is("", "--new-volume-script"), o.is("", "--rsh-command"),
			o.is("", "--checkpoint-action"):
			p.opaque("tar %s can write anywhere or run commands, which cannot be judged", o.name)
			return
		case len(o.name) == 2 && strings.ContainsRune("crutxAd", rune(o.name[1])):
			mode += o.name[1:]
		case o.is("", "--create"), o.is("", "--append"), o.is("", "--update"), o.is("", "--catenate"):
			mode += "c"
		case o.is("", "--extract"), o.is("", "--get"):
			mode += "x"
		}
	}
	if strings.ContainsAny(mode, "cruA") && archive != "" {
		p.write(archive, "tar")
	}
	if strings.Contains(mode, "x") {
		p.write(dir, "tar -x")
	}
}

// expandTarKeys rewrites tar's old-style first word ("czf") into
// options with their values ("-c -z -f out.tgz").
func expandTarKeys(s Simple) Simple {
	out := Simple{Env: s.Env, Words: []string{s.Words[0]}, Literal: []bool{true}}
	next := 2
	for _, c := range s.Words[1] {
		out.Words = append(out.Words, "-"+string(c))
		out.Literal = append(out.Literal, true)
		if strings.ContainsRune("bCfgKLNTVX", c) && next < len(s.Words) {
			out.Words = append(out.Words, s.Words[next])
			out.Literal = append(out.Literal, true)
			next++
		}
	}
	for ; next < len(s.Words); next++ {
		out.Words = append(out.Words, s.Words[next])
		out.Literal = append(out.Literal, true)
	}
	return out
}

// unzipWrites records unzip's destination.
func (p *parser) unzipWrites(s Simple) {
	if !p.allLiteral(s, "unzip") {
		return
	}
	dir := "."
	for _, o := range scan(s, 1, flagSpec{short: "dxP"}) {
		switch {
		case o.name == "-d":
			dir = o.value
		case o.name == "-:":
			p.unknownWrite("", "unzip -:", "cannot tell what unzip writes: -: writes wherever the archive says")
			return
		case o.name == "-l" || o.name == "-t" || o.name == "-v" || o.name == "-Z" || o.name == "-p" || o.name == "-c":
			return
		}
	}
	p.write(dir, "unzip")
}
