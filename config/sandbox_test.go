package config

import (
	"reflect"
	"testing"
)

func TestSandboxTable(t *testing.T) {
	f, err := Parse("c.toml", []byte("[sandbox]\nnetwork = true\nwritable = ['~/.m2', '/opt/cache']\ndeny_read = ['~/.vault-token']\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Sandbox{Network: true, Writable: []string{"~/.m2", "/opt/cache"}, DenyRead: []string{"~/.vault-token"}}
	if !reflect.DeepEqual(f.Sandbox, want) {
		t.Errorf("sandbox = %+v, want %+v", f.Sandbox, want)
	}
	if f, err := Parse("c.toml", nil); err != nil || !reflect.DeepEqual(f.Sandbox, Sandbox{}) {
		t.Errorf("no table: %+v, %v", f.Sandbox, err)
	}
}
