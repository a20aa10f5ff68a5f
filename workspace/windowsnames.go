package workspace

import "strings"

// reservedNames are the names Windows gives to devices in every
// directory: "C:\ws\nul.txt" is the null device, "C:\ws\con" the console.
var reservedNames = []string{
	"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
	"COM0", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9", "COM¹", "COM²", "COM³",
	"LPT0", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9", "LPT¹", "LPT²", "LPT³",
}

// refuseElements says why one of path's names (after its volume) would
// make Windows open another file than the name reads, or "": a device's
// reserved name, with or without an extension ("nul.txt"); a name ending
// in a dot or a space, which Windows drops ("a.env." opens "a.env", past
// a rule about "a.env"); a colon, which names an alternate data stream of
// a file ("notes.txt:hidden") or, in a relative path, another drive.
func (r pathRule) refuseElements(path string) string {
	rest := path[len(r.volume(path)):]
	for _, elem := range strings.FieldsFunc(rest, func(c rune) bool { return c < 0x80 && r.isSep(byte(c)) }) {
		if elem == "." || elem == ".." {
			continue
		}
		if strings.ContainsRune(elem, ':') {
			return "holds a colon in the name " + quote(elem) + ", which Windows reads as a data stream of a file: pass the path without it"
		}
		if last := elem[len(elem)-1]; last == '.' || last == ' ' {
			return "has the name " + quote(elem) + ", ending in a dot or a space, which Windows drops and so opens another file: pass the name without it"
		}
		if reservedName(elem) {
			return "has the name " + quote(elem) + ", which Windows reserves for a device: choose another name"
		}
	}
	return ""
}

// reservedName reports whether Windows opens a device for elem: its part
// before the first dot, spaces trimmed, is a reserved name in any case.
func reservedName(elem string) bool {
	base, _, _ := strings.Cut(elem, ".")
	base = strings.TrimRight(base, " ")
	for _, name := range reservedNames {
		if strings.EqualFold(base, name) {
			return true
		}
	}
	return false
}

func quote(s string) string { return `"` + s + `"` }
