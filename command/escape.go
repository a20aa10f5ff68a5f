package command

// EscapePrefixes returns the rules that an "always allow outside the
// sandbox" of this command saves: the prefix of every simple command,
// read-only ones included (outside the sandbox a read-only command still
// reads what the sandbox hides), in order and without repeats. It is nil
// when the command is opaque or one of its commands has no literal
// program.
func (c *Command) EscapePrefixes() [][]string {
	if len(c.Opaque) > 0 || len(c.Simple) == 0 {
		return nil
	}
	return c.prefixesOf(func(Simple) bool { return true })
}
