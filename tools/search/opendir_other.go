//go:build !unix

package search

import "os"

// openDir opens the directory at path for listing.
func openDir(path string) (*os.File, error) { return os.Open(path) }
