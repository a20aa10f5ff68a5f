package acptest

import (
	"fmt"
	"os"
)

// RequireSchema is for a TestMain of a package whose tests validate
// messages against the schema: when the schema is not installed, it
// prints why and how to install it ("run `make deps` first") and exits
// with status 1 before any test runs, instead of letting every test fail
// on its own. It only checks that the schema file is there; tests load it
// with LoadSchema or OpenSchema.
//
//	func TestMain(m *testing.M) {
//		acptest.RequireSchema()
//		goleak.VerifyTestMain(m)
//	}
func RequireSchema() {
	if _, err := schemaFile(); err != nil {
		fmt.Fprintf(os.Stderr, "acptest: %v\n", err)
		os.Exit(1)
	}
}
