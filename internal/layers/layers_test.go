package layers_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/dsh-acp/dsh-acp/"

// layers are the module's packages, lowest first: a package imports only
// packages of lower layers, never one of its own layer or above. A new
// package must be given its place here.
var layers = [][]string{
	{"internal/atomicfile", "internal/jobobject", "internal/linktest"},
	{"presentation", "jsonvalue", "secrets", "internal/procfs", "internal/corpus", "internal/layers",
		"command", "sandbox", "workspace", "tools/search/internal/ignore", "internal/release"},
	{"schema", "diffcard", "internal/procgroup", "acp"},
	{"registry", "llm", "acp/acptest"},
	{"pipeline", "session", "checkpoint", "tools/todo", "tools/planmode", "tools/ask"},
	{"tools/fs", "tools/search", "tools/shell", "mcp", "lsp", "policy", "agent"},
	{"live", "config", "subagent"},
	{"bridge"},
	{"internal/app"},
	{"cmd/dsh-acp", "internal/cmd/mkrelease"},
}

// speakers are the outside libraries that only some packages may import,
// for their code (not their tests, which may play the other side).
var speakers = []struct {
	prefix  string
	may     []string // the packages that may import it
	because string
}{
	{"github.com/coder/acp-go-sdk", []string{"acp", "acp/acptest"}, "no package but acp speaks ACP's SDK types"},
	{"go.lsp.dev/protocol", []string{"lsp"}, "no package but lsp mentions LSP"},
	{"go.lsp.dev/uri", []string{"lsp"}, "no package but lsp mentions LSP"},
	{"go.lsp.dev/jsonrpc2", []string{"acp", "lsp", "cmd/dsh-acp"}, "JSON-RPC is the wire of acp and lsp (and of the demo's client)"},
	{"github.com/modelcontextprotocol/go-sdk", []string{"mcp"}, "no package but mcp speaks MCP"},
}

// testSpeakers may import the ACP SDK in their tests, which drive a
// server as its client does.
var testSpeakers = []string{"acp", "acp/acptest", "bridge", "internal/corpus"}

type pkg struct {
	path              string
	imports, testDeps []string
}

// modulePackages lists the module's packages with what their code and
// their tests import.
func modulePackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", module+"...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "|")
		if len(parts) != 3 {
			t.Fatalf("go list printed %q", sc.Text())
		}
		if strings.Contains(parts[0], "/node_modules/") {
			continue // an npm package's Go sources (the extension's dependencies), not ours
		}
		pkgs = append(pkgs, pkg{
			path:     strings.TrimPrefix(parts[0], module),
			imports:  strings.Fields(parts[1]),
			testDeps: strings.Fields(parts[2]),
		})
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no package")
	}
	return pkgs
}

// layerOf returns the layer of a package of the module, or -1.
func layerOf(path string) int {
	for i, layer := range layers {
		if slices.Contains(layer, path) {
			return i
		}
	}
	return -1
}

func TestImportsPointDown(t *testing.T) {
	for _, p := range modulePackages(t) {
		from := layerOf(p.path)
		if from < 0 {
			t.Errorf("%s has no layer: give it its place in layers", p.path)
			continue
		}
		for _, imp := range p.imports {
			target, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			switch to := layerOf(target); {
			case to < 0:
				t.Errorf("%s imports %s, which has no layer", p.path, target)
			case to >= from:
				t.Errorf("%s (layer %d) imports %s (layer %d): imports point down only", p.path, from, target, to)
			}
		}
	}
}

func TestProtocolsStayInTheirPackage(t *testing.T) {
	for _, p := range modulePackages(t) {
		for _, s := range speakers {
			for _, imp := range p.imports {
				if strings.HasPrefix(imp, s.prefix) && !slices.Contains(s.may, p.path) {
					t.Errorf("%s imports %s: %s", p.path, imp, s.because)
				}
			}
		}
		for _, imp := range p.testDeps {
			if strings.HasPrefix(imp, "github.com/coder/acp-go-sdk") && !slices.Contains(testSpeakers, p.path) {
				t.Errorf("the tests of %s import %s: only the tests that drive a server as its client may", p.path, imp)
			}
		}
	}
}

func TestEveryLayeredPackageExists(t *testing.T) {
	var listed []string
	for _, p := range modulePackages(t) {
		listed = append(listed, p.path)
	}
	for _, layer := range layers {
		for _, path := range layer {
			if !slices.Contains(listed, path) {
				t.Errorf("layers names %s, which is no package of the module", path)
			}
		}
	}
}
