package sandbox

import (
	"io/fs"
	"reflect"
	"testing"
	"testing/fstest"
)

func TestCover(t *testing.T) {
	tree := fstest.MapFS{
		"home/me/.ssh/id_ed25519":  {Data: []byte("key")},
		"home/me/.config/gh/hosts": {Data: []byte("token")},
		"home/me/.config/git/x":    {},
		"home/me/notes.txt":        {},
		"home/me/link":             {Mode: fs.ModeSymlink},
		"home/other/x":             {},
		"usr/bin/sh":               {},
	}
	list := func(dir string) ([]fs.DirEntry, error) {
		if dir == "/" {
			return tree.ReadDir(".")
		}
		return tree.ReadDir(dir[1:])
	}
	tests := []struct {
		name          string
		root          string
		excluded      []string
		wantGrants    []grant
		wantAncestors []string
	}{
		{"nothing excluded", "/", nil, []grant{{"/", true}}, nil},
		{"excluded elsewhere", "/usr", []string{"/home/me/.ssh"}, []grant{{"/usr", true}}, nil},
		{"the root excluded", "/home/me/.ssh/keys", []string{"/home/me/.ssh"}, nil, nil},
		{
			"siblings granted along the path, links and excluded paths not",
			"/", []string{"/home/me/.ssh", "/home/me/.config/gh"},
			[]grant{{"/home/me/.config/git", true}, {"/home/me/notes.txt", false}, {"/home/other", true}, {"/usr", true}},
			[]string{"/", "/home", "/home/me", "/home/me/.config"},
		},
		{
			"a write root around a credential location",
			"/home/me", []string{"/home/me/.ssh"},
			[]grant{{"/home/me/.config", true}, {"/home/me/notes.txt", false}},
			[]string{"/home/me"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			grants, ancestors := cover(tt.root, tt.excluded, list)
			if !reflect.DeepEqual(grants, tt.wantGrants) {
				t.Errorf("grants = %v, want %v", grants, tt.wantGrants)
			}
			if !reflect.DeepEqual(ancestors, tt.wantAncestors) {
				t.Errorf("ancestors = %v, want %v", ancestors, tt.wantAncestors)
			}
		})
	}
}
