package presentation

// FileLocation is a place in a file a client may follow. Path is the path the
// model used (absolute or relative to the session's working directory); Line
// is 1-based, and 0 means "the file as a whole".
type FileLocation struct {
	Path string
	Line int
}
