package session

import "github.com/dsh-acp/dsh-acp/secrets"

// redactor hides the secrets a Store must never write, in encoded lines
// and in index entries: the one secrets.Redactor the process uses toward
// the editor and the model too. The zero redactor changes nothing.
type redactor struct {
	red *secrets.Redactor
}

// Line returns a JSON line with every secret inside its strings replaced
// by secrets.Marker; a line holding no secret is returned as is (see
// secrets.Redactor.JSON).
func (r redactor) Line(line []byte) ([]byte, error) { return r.red.JSON(line) }

// Meta returns m with the secrets replaced in every text field.
func (r redactor) Meta(m Meta) Meta {
	if r.red.Empty() {
		return m
	}
	m.Cwd = r.red.String(m.Cwd)
	m.Title = r.red.String(m.Title)
	m.Model = r.red.String(m.Model)
	m.Preset = r.red.String(m.Preset)
	m.Effort = r.red.String(m.Effort)
	m.SystemPrompt = r.red.String(m.SystemPrompt)
	if m.AdditionalDirectories != nil {
		dirs := make([]string, len(m.AdditionalDirectories))
		for i, d := range m.AdditionalDirectories {
			dirs[i] = r.red.String(d)
		}
		m.AdditionalDirectories = dirs
	}
	return m
}
