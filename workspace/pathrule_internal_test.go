package workspace

import "testing"

var (
	linuxRule   = pathRule{}
	macRule     = pathRule{fold: true}
	windowsRule = pathRule{windows: true, fold: true}
)

// TestPathRuleRelative runs every platform's containment cases here,
// whatever the platform the tests run on: Relative is hostRule's
// relative.
func TestPathRuleRelative(t *testing.T) {
	for _, tt := range []struct {
		name      string
		rule      pathRule
		dir, path string
		want      string // "" means not below
	}{
		{"linux: the directory itself", linuxRule, "/ws", "/ws", "."},
		{"linux: below", linuxRule, "/ws", "/ws/a/b.go", "a/b.go"},
		{"linux: case matters", linuxRule, "/ws", "/WS/a", ""},
		{"linux: a sibling sharing the prefix", linuxRule, "/ws", "/ws2/a", ""},
		{"linux: a climb out", linuxRule, "/ws", "/ws/../etc/passwd", ""},
		{"linux: a name starting with two dots", linuxRule, "/ws", "/ws/..a", "..a"},
		{"linux: a backslash is a name's", linuxRule, "/ws", `/ws/..\..\x`, `..\..\x`},
		{"linux: absolute against relative", linuxRule, "/ws", "ws/a", ""},
		{"linux: the root", linuxRule, "/", "/etc", "etc"},
		{"mac: case is ignored", macRule, "/Users/me/Proj", "/users/ME/proj/src/a.go", "src/a.go"},
		{"mac: a sibling sharing the prefix", macRule, "/Users/me/Proj", "/Users/me/Project/a", ""},
		{"windows: below", windowsRule, `C:\ws`, `C:\ws\src\a.go`, `src\a.go`},
		{"windows: the directory itself", windowsRule, `C:\ws`, `C:\ws\`, "."},
		{"windows: the drive letter's case", windowsRule, `C:\ws`, `c:\WS\a`, "a"},
		{"windows: forward slashes", windowsRule, `C:\ws`, `C:/ws/sub/a.go`, `sub\a.go`},
		{"windows: mixed separators", windowsRule, `C:/ws`, `C:\ws/a\b`, `a\b`},
		{"windows: another drive", windowsRule, `C:\ws`, `D:\ws\a`, ""},
		{"windows: a climb out with backslashes", windowsRule, `C:\ws`, `C:\ws\..\Windows\win.ini`, ""},
		{"windows: a climb out with mixed separators", windowsRule, `C:\ws`, `C:\ws/..\secret`, ""},
		{"windows: a sibling sharing the prefix", windowsRule, `C:\ws`, `C:\ws2\a`, ""},
		{"windows: rooted without a drive is not on it", windowsRule, `C:\ws`, `\ws\a`, ""},
		{"windows: a UNC share", windowsRule, `\\srv\share\ws`, `\\SRV\Share\ws\a`, "a"},
		{"windows: a UNC share with slashes", windowsRule, `\\srv\share\ws`, `//srv/share/ws/a`, "a"},
		{"windows: another UNC share", windowsRule, `\\srv\share\ws`, `\\srv\other\ws\a`, ""},
		{"windows: a UNC path against a drive", windowsRule, `C:\ws`, `\\localhost\C$\ws\a`, ""},
		{"windows: a device path against a drive", windowsRule, `C:\ws`, `\\?\C:\ws\a`, ""},
		{"windows: the drive's root", windowsRule, `C:\`, `C:\x\y`, `x\y`},
		{"windows: .. at the root stays there", windowsRule, `C:\ws`, `C:\..\ws\a`, "a"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rel, ok := tt.rule.relative(tt.dir, tt.path)
			if tt.want == "" {
				if ok {
					t.Errorf("relative(%q, %q) = %q, want not below", tt.dir, tt.path, rel)
				}
				return
			}
			if !ok || rel != tt.want {
				t.Errorf("relative(%q, %q) = %q, %v; want %q", tt.dir, tt.path, rel, ok, tt.want)
			}
		})
	}
}

func TestPathRuleJoin(t *testing.T) {
	for _, tt := range []struct {
		rule            pathRule
		cwd, path, want string
	}{
		{linuxRule, "/ws", "a/b", "/ws/a/b"},
		{linuxRule, "/ws", "/etc/passwd", "/etc/passwd"},
		{linuxRule, "/ws", `\etc`, `/ws/\etc`},
		{windowsRule, `C:\ws`, `a\b`, `C:\ws\a\b`},
		{windowsRule, `C:\ws`, `a/b`, `C:\ws\a/b`},
		{windowsRule, `C:\ws`, `D:\x`, `D:\x`},
		{windowsRule, `C:\ws`, `\Windows\win.ini`, `C:\Windows\win.ini`},
		{windowsRule, `C:\ws`, `/etc/passwd`, `C:/etc/passwd`},
		{windowsRule, `\\srv\share\ws`, `\x`, `\\srv\share\x`},
		{windowsRule, `C:\ws`, `\\srv\share\x`, `\\srv\share\x`},
	} {
		if got := tt.rule.join(tt.cwd, tt.path); got != tt.want {
			t.Errorf("join(%q, %q) = %q, want %q", tt.cwd, tt.path, got, tt.want)
		}
	}
}

func TestPathRuleRefuse(t *testing.T) {
	for _, tt := range []struct {
		rule   pathRule
		path   string
		refuse bool
	}{
		{windowsRule, `D:x`, true},
		{windowsRule, `c:..\x`, true},
		{windowsRule, `\\?\C:\ws\a`, true},
		{windowsRule, `\\.\PhysicalDrive0`, true},
		{windowsRule, `//?/C:/x`, true},
		{windowsRule, `C:\ws\a`, false},
		{windowsRule, `C:`, true},
		{windowsRule, `a\b`, false},
		{windowsRule, `\\srv\share\x`, false},
		{windowsRule, `C:\ws\nul`, true},
		{windowsRule, `C:\ws\NUL.txt`, true},
		{windowsRule, `C:\ws\sub\Con .log`, true},
		{windowsRule, `C:/ws/com1`, true},
		{windowsRule, `lpt²`, true},
		{windowsRule, `conout$`, true},
		{windowsRule, `C:\ws\.env.`, true},
		{windowsRule, `C:\ws\.git \config`, true},
		{windowsRule, `C:\ws\notes.txt:hidden`, true},
		{windowsRule, `C:\ws\a.txt::$DATA`, true},
		{windowsRule, `sub\D:x`, true},
		{windowsRule, `C:\ws\console.log`, false},
		{windowsRule, `C:\ws\nul-ish\com10`, false},
		{windowsRule, `C:\ws\.\a\..\b`, false},
		{windowsRule, `C:\ws\..a`, false},
		{linuxRule, `/ws/nul`, false},
		{linuxRule, `/ws/a.`, false},
		{linuxRule, `/ws/a:b`, false},
		{macRule, `/ws/con`, false},
		{linuxRule, `D:x`, false},
		{linuxRule, `\\?\C:\x`, false},
	} {
		if got := tt.rule.refuse(tt.path) != ""; got != tt.refuse {
			t.Errorf("refuse(%q) = %v, want %v", tt.path, got, tt.refuse)
		}
	}
}
