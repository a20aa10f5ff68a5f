package main

// demoScript is the model's side of the demo, one JSON object per model
// request (the DSH_MODEL_SCRIPT format).
const demoScript = `{"text":"I'll write a small greeting script, adjust it, run it, and keep a plan as I go.","tool_calls":[{"name":"todo_write","arguments":{"todos":[{"content":"Write greet.sh","status":"in_progress"},{"content":"Greet the editor by name","status":"pending"},{"content":"Run the script","status":"pending"}]}},{"name":"write","arguments":{"file_path":"greet.sh","content":"#!/bin/sh\n# Print a greeting.\nname=world\necho \"hello, $name\"\n"}}]}
{"text":"Now I'll greet the editor instead of the world.","tool_calls":[{"name":"edit","arguments":{"file_path":"greet.sh","old_string":"name=world","new_string":"name=editor"}}]}
{"text":"Let me run it.","tool_calls":[{"name":"bash","arguments":{"command":"sh greet.sh && echo \"lines: $(wc -l < greet.sh)\"","description":"Run the greeting script"}}]}
{"tool_calls":[{"name":"todo_write","arguments":{"todos":[{"content":"Write greet.sh","status":"completed"},{"content":"Greet the editor by name","status":"completed"},{"content":"Run the script","status":"completed"}]}}]}
{"text":"Done: greet.sh prints \"hello, editor\"."}
`

// demoPrompt is what the demo's user asks.
const demoPrompt = "Write a shell script that greets the editor, then run it."

// demoExpected is greet.sh after the demo.
const demoExpected = "#!/bin/sh\n# Print a greeting.\nname=editor\necho \"hello, $name\"\n"
