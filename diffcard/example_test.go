package diffcard_test

import (
	"fmt"

	"github.com/dsh-acp/dsh-acp/diffcard"
)

func ExampleHunks() {
	before := "a\nb\nc\nOLD\nd\ne\nf\ng\nh\n"
	after := "a\nb\nc\nNEW\nd\ne\nf\ng\nh\n"
	for _, d := range diffcard.Hunks("a.txt", before, after) {
		fmt.Printf("%s, first change on line %d:\n--old--\n%s--new--\n%s", d.Path, d.Line, *d.OldText, d.NewText)
	}
	fmt.Println(diffcard.Hunks("new.txt", "", "brand new\n")[0].OldText == nil)
	// Output:
	// a.txt, first change on line 4:
	// --old--
	// a
	// b
	// c
	// OLD
	// d
	// e
	// f
	// --new--
	// a
	// b
	// c
	// NEW
	// d
	// e
	// f
	// true
}

func ExampleUnified() {
	before := "one\ntwo\nthree"
	after := "one\n2\nthree\n"
	u, err := diffcard.Unified("a/n.txt", "b/n.txt", before, after)
	if err != nil {
		panic(err)
	}
	fmt.Print(u)
	got, err := diffcard.Apply(before, u)
	fmt.Println(got == after, err)
	// Output:
	// --- a/n.txt
	// +++ b/n.txt
	// @@ -1,3 +1,3 @@
	//  one
	// -two
	// -three
	// \ No newline at end of file
	// +2
	// +three
	// true <nil>
}

func ExampleEditHunks() {
	before := "x := 1\ny := 2\nz := 3\n"
	sites := []diffcard.Site{{Offset: 12, OldLen: 1, New: "20"}} // the "2"
	diffs, err := diffcard.EditHunks("v.go", before, sites)
	if err != nil {
		panic(err)
	}
	fmt.Println(diffcard.Meta(diffs))
	// Output:
	// {"diffs":[{"path":"v.go","oldText":"x := 1\ny := 2\nz := 3\n","newText":"x := 1\ny := 20\nz := 3\n","line":2}]}
}
