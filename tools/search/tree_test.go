package search_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// genBigTree writes n small Go-like files below root, 50 to a directory
// two levels deep, with a .gitignore; every 40th file holds "needleXYZ".
func genBigTree(t testing.TB, root string, n int) {
	t.Helper()
	body := strings.Repeat("func handler(w http.ResponseWriter, r *http.Request) {\n\treturn nil // plain text\n}\n", 6)
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\nvendor/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("pkg%02d", i/1000), fmt.Sprintf("sub%02d", i/50%20))
		if i%50 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		content := body
		if i%40 == 0 {
			content += "var x = needleXYZ(1)\n"
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%05d.go", i)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
