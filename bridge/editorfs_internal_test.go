package bridge

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// osDisk is the local disk, as the file tools' workspace reads it.
type osDisk struct{}

func (osDisk) ReadFile(_ context.Context, path string) ([]byte, error) { return os.ReadFile(path) }
func (osDisk) WriteFile(_ context.Context, path string, data []byte) error {
	return os.WriteFile(path, data, 0o644)
}
func (osDisk) Stat(_ context.Context, path string) (fs.FileInfo, error) { return os.Stat(path) }

// TestEditorFilesAsksOnlyAboutFilesOnDisk: the editor is asked for the
// text of a file the disk has (its buffer may hold unsaved edits), never
// for one the disk does not have, which is "does not exist" at once
// (issue 17: acpx printed "[error] RUNTIME: Resource not found" for the
// read before every write of a new file).
func TestEditorFilesAsksOnlyAboutFilesOnDisk(t *testing.T) {
	dir := t.TempDir()
	onDisk := filepath.Join(dir, "on-disk.txt")
	binary := filepath.Join(dir, "binary.bin")
	if err := os.WriteFile(onDisk, []byte("saved\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(binary, []byte{0, 1, 2}, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		want    string
		missing bool
		asked   bool
	}{
		{name: "a text file on disk is read through the editor", path: onDisk, want: "unsaved\n", asked: true},
		{name: "a binary file is read from the disk", path: binary, want: "\x00\x01\x02"},
		{name: "a file the disk does not have", path: filepath.Join(dir, "new.txt"), missing: true},
		{name: "a file in a directory the disk does not have", path: filepath.Join(dir, "no", "such", "new.txt"), missing: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := &readingClient{text: "unsaved\n"}
			files := EditorFiles{SessionID: "s1", Client: client, Read: true, Write: true, Disk: osDisk{}}
			data, err := files.ReadFile(t.Context(), tt.path)
			switch {
			case tt.missing && !errors.Is(err, fs.ErrNotExist):
				t.Errorf("ReadFile = %q, %v; want fs.ErrNotExist", data, err)
			case !tt.missing && (err != nil || string(data) != tt.want):
				t.Errorf("ReadFile = %q, %v; want %q", data, err, tt.want)
			}
			if asked := len(client.reads) > 0; asked != tt.asked {
				t.Errorf("the editor was asked: %v (%v), want %v", asked, client.reads, tt.asked)
			}
		})
	}
}
