// Package fs is the session's file tools: read, write and edit, with the
// exact names and arguments the model is shown (DESIGN.md), their card
// presenters, and errors that tell the model what to do next.
//
// The tools are bound to one session's workspace. They resolve paths
// against its working directory and read and write only through its
// FileSystem, so the same tools work on the local disk and on an editor's
// buffers:
//
//	ws, err := workspace.New("/home/me/project", nil, workspace.Local{})
//	tools, err := fs.Tools(ws, fs.Options{})
//	reg := registry.New()
//	for _, t := range tools {
//		reg.Register(nil, t)
//	}
//	p := pipeline.New(reg, pipeline.Options{})
//	res := p.Execute(ctx, pipeline.Input{CallID: "c1", Name: "edit",
//		Arguments: `{"file_path":"main.go","old_string":"Hello","new_string":"Hi"}`})
//	// res.Content: "Edited main.go: replaced 1 occurrence."
//	// res.Meta:    {"diffs":[{"path":"main.go","oldText":…,"newText":…,"line":…}]}
//
// What callers may rely on:
//
//   - read is parallel-safe; write and edit are exclusive. Every tool's
//     Paths is the file_path exactly as the model wrote it: checking it
//     against the workspace is a policy's job, not the tools'.
//   - A file_path with a NUL byte is refused (INVALID_ARGS) before anything
//     touches a file system.
//   - The tools work on regular files only: a named pipe, socket or device
//     (or a link to one) is refused with CodeNotRegular, and is never
//     opened in a way that could block.
//   - Whether a file exists is what the FileSystem's Stat (the disk) says;
//     the content of one that exists is what its ReadFile gives (an
//     editor's buffer, unsaved edits included, when the session reads
//     through the editor). A path the disk does not have is never read:
//     write and edit with an empty old_string create it, read and other
//     edits say it does not exist.
//   - read shows a window of lines, numbered like cat -n, inside the envelope
//     <path>…</path>\n<type>file</type>\n<content>\n…\n</content>. Binary
//     and non-UTF-8 files, directories and files over Options.MaxFileBytes
//     are refused with a coded error.
//   - write replaces the whole file with content exactly as given (line
//     endings and final newline included), atomically, keeping the mode of
//     the file it replaces and creating missing parent directories.
//   - edit replaces exact text. A file that uses CRLF throughout keeps CRLF
//     whatever endings old_string and new_string use, an LF file stays LF,
//     and a file mixing both is matched byte for byte. A missing final
//     newline stays missing and a present one stays present. Non-UTF-8 files
//     are refused. An empty old_string creates a missing file or fills an
//     empty one, and is refused for a file that has content.
//   - write and edit refuse a file without any write permission bit (a
//     read-only file), since an atomic rename would otherwise replace it.
//   - The values of write and edit (WriteResult, EditResult) record a change
//     as its applied hunks (Hunk), never as the whole file, so a small edit
//     to a large file stays small in the session log; the presentation meta
//     is {"diffs":[…]} built from those hunks. edit's hunks come from the
//     replacement sites, not from diffing the whole file. A hunk holds
//     whole lines, each with its line break as the file has it (CRLF
//     included), and the line of its first change; the completed cards
//     are located there.
//   - The pending cards show the arguments (the replacement as asked, the
//     whole content). When a call asks for approval, its card
//     (registry.Spec.PresentApproval) is the hunks the call would apply to
//     the file as it is at that moment, read through the same FileSystem,
//     with their context and located at the first changed line; it writes
//     nothing, and falls back to the pending card for a create by write, a
//     previous file that is not text, or a call that would fail.
//   - Failures the tools report carry one of the Code… constants.
package fs
