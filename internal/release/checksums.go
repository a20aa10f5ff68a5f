package release

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ChecksumsFile is the name of the checksum list in a release directory,
// in sha256sum's format ("<hex>  <name>" per line, sorted by name), so
// `sha256sum -c SHA256SUMS` checks the archives.
const ChecksumsFile = "SHA256SUMS"

// fileSHA256 returns the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeChecksums writes ChecksumsFile into dir for sums (name → hex).
func writeChecksums(dir string, sums map[string]string) error {
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[name], name)
	}
	return os.WriteFile(filepath.Join(dir, ChecksumsFile), []byte(b.String()), 0o644)
}

// ReadChecksums reads the ChecksumsFile in dir: file name → hex SHA-256.
func ReadChecksums(dir string) (map[string]string, error) {
	f, err := os.Open(filepath.Join(dir, ChecksumsFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != sha256.Size*2 || name == "" {
			return nil, fmt.Errorf("%s:%d: want \"<sha256>  <name>\", got %q", ChecksumsFile, line, sc.Text())
		}
		sums[name] = sum
	}
	return sums, sc.Err()
}
