package search

import "errors"

// errNotRegular is the open of a path a search reads as a file that turns
// out not to be a regular file (a named pipe, a socket, a device).
var errNotRegular = errors.New("not a regular file")
