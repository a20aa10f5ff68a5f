package release

import (
	"archive/tar"
	"archive/zip"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// member is one file of an archive.
type member struct {
	// Name is its path inside the archive.
	Name string
	// Source is the file whose bytes it holds.
	Source string
	// Mode is its permission bits (0o755 for the binary, 0o644 else).
	Mode fs.FileMode
}

// writeArchive writes members to path, as a zip when zipped, else as a
// gzipped tar, so that the same members and modTime always give the same
// bytes: members in the order given, every time modTime (whole seconds),
// owner and group 0 without names, no gzip name or time.
func writeArchive(path string, members []member, modTime time.Time, zipped bool) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	if zipped {
		return writeZip(f, members, modTime)
	}
	return writeTarGz(f, members, modTime)
}

func writeTarGz(w io.Writer, members []member, modTime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	// The zero header: no name, no time, OS "unknown".
	tw := tar.NewWriter(gz)
	for _, m := range members {
		data, err := os.ReadFile(m.Source)
		if err != nil {
			return err
		}
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     m.Name,
			Mode:     int64(m.Mode.Perm()),
			Size:     int64(len(data)),
			ModTime:  modTime.UTC().Truncate(time.Second),
			Format:   tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
		if _, err := tw.Write(data); err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, members []member, modTime time.Time) error {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, flate.BestCompression)
	})
	for _, m := range members {
		data, err := os.ReadFile(m.Source)
		if err != nil {
			return err
		}
		hdr := &zip.FileHeader{Name: m.Name, Method: zip.Deflate, Modified: modTime.UTC().Truncate(time.Second)}
		hdr.SetMode(m.Mode.Perm())
		fw, err := zw.CreateHeader(hdr)
		if err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
		if _, err := fw.Write(data); err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
	}
	return zw.Close()
}
