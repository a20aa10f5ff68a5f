package presentation

// ToolResult is what a result presenter sees of a finished call: the
// model-facing content, whether it failed, and the tool's presentation meta
// (canonical JSON text, "" when the tool attached none).
type ToolResult struct {
	Content []ContentBlock
	IsError bool
	Meta    string
}

// SingleText returns the text of Content when it is exactly one text block.
func (r ToolResult) SingleText() (string, bool) {
	if len(r.Content) != 1 {
		return "", false
	}
	t, ok := r.Content[0].(TextBlock)
	return t.Text, ok
}
