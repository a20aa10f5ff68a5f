// Package lsp makes dsh-acp a client of the project's language servers
// (gopls, typescript-language-server, pyright, rust-analyzer, clangd).
//
// A Manager starts a server lazily, per workspace root and file type, the
// first time a file of that type is read or written. It keeps the server in
// sync with the file tools (didOpen on first touch, didChange with the full
// text, didSave), reports the errors an edit introduced right in the edit's
// result (AfterWrite), and offers read-only tools: diagnostics, definition,
// references and symbols.
//
// A server that is missing, slow or crashing never fails a turn: every wait
// is bounded (Options.StartTimeout, Options.Settle; a write waits at most
// Options.Settle, the server's start included, while the start goes on in
// the background), a missing server is reported once as a note, and a
// server that dies is restarted once before the Manager gives up on it
// with a one-line note.
//
// A server still loading its workspace is waited for, not failed: servers
// say what they are busy with through work-done progress ($/progress;
// gopls reports "Setting up workspace" until its packages are loaded), and
// while work is in progress a tool's Options.CallTimeout (Settle for the
// diagnostics tool) does not run. A request the server refused, or
// answered with nothing, while it loaded is asked again once the load has
// ended. The wait for a load is bounded by Options.LoadTimeout, and the
// whole call by the tool's timeout and cancellation; a tool that gave up
// on a server still loading says so in its result, naming what the server
// was doing.
//
// A server runs in a process group of its own, with the agent's
// environment minus its secrets (secrets.ServerEnviron: the model keys
// never, other secret-looking names only through Options.EnvAllow) and
// its ServerConfig.Env on top; stopping it stops the whole group (SIGTERM,
// then SIGKILL after a grace).
//
// Positions: the model speaks 1-based lines and columns counted in Unicode
// characters; LSP speaks 0-based lines and UTF-16 code units. The
// conversion happens here and nowhere else.
package lsp
