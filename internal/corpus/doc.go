// Package corpus reads the shared test corpus in the module's testdata/
// directory: scripted model sessions (DSH_MODEL_SCRIPT files), the cases
// that drive them (testdata/cases.json) and the golden ACP transcripts. The
// Go tests, the end-to-end suite (e2e/corpus.test.mjs) and the editor
// extensions' tests run the same cases, so a defect found once stays fixed
// in every client.
//
//	cases, err := corpus.Load(corpus.Dir())
//	for _, c := range cases {
//		layout, err := c.Prepare(t.TempDir()) // the workspace, the outside directory
//		script := c.ScriptPath(corpus.Dir())
//		// … run the prompts against a server, then check c.Expect
//	}
//
// The layout of one case is a root directory holding ws/ (the session's
// cwd) and outside/ (a directory beside the workspace); in case text, $WS,
// $OUTSIDE and $ROOT stand for their absolute paths.
package corpus
