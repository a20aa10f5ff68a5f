// Package layers keeps the module's import rules (DESIGN.md, "Packages
// and the way data flows"): its test reads the import graph from `go
// list` and fails on an import that points up or sideways, on a package
// no layer names, and on a protocol library imported outside the one
// package that speaks it. It has no code of its own.
package layers
