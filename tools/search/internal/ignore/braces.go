package ignore

// expandBraces expands ripgrep-style alternation: "*.{ts,tsx}" becomes
// "*.ts" and "*.tsx". Groups nest; a backslash escapes a brace or comma;
// an unbalanced '{' is literal.
func expandBraces(s string) []string {
	open := -1
	depth := 0
	var commas []int
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
				commas = commas[:0]
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			prefix, suffix := s[:open], s[i+1:]
			var out []string
			start := open + 1
			for _, c := range append(commas, i) {
				for _, tail := range expandBraces(s[start:c] + suffix) {
					out = append(out, prefix+tail)
				}
				start = c + 1
			}
			return out
		}
	}
	return []string{s}
}
