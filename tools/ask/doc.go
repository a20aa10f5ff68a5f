// Package ask is the ask_user tool: the model asks the user one to four
// questions — free text, or a choice among options (one or several) that
// the user may also answer in their own words — and reads the answers as
// the tool's result. How the questions reach the user is the Asker's
// business (the bridge shows them as the editor's form, or as a
// permission prompt whose options are the choices); the tool checks the
// questions, shows the call, and tells the model what came back:
//
//	tool, err := ask.Tool(asker) // asker implements ask.Asker
//	reg.Register(scope, tool)
//
// An Asker that cannot ask returns Unavailable, and the model is told to
// end its turn with the question in its answer; one the user declines
// returns Declined; a cancelled turn ends the call with ctx's error.
package ask
