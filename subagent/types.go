package subagent

import (
	"fmt"
	"slices"
	"strings"
)

// The built-in subagent types' names.
const (
	Explore = "explore"
	General = "general"
)

// TaskTool is the name of the tool that starts a child agent.
const TaskTool = "task"

// Type is a kind of child agent: which of its parent's tools it sees, the
// model it asks and how it is told to work.
type Type struct {
	// Name is what task's subagent_type says to start one.
	Name string
	// Description tells the parent's model what the type is for; the task
	// tool's description lists it.
	Description string
	// Tools, when non-nil, is an allow list: the child inherits only
	// these of its parent's tools (an empty, non-nil list: none). Nil
	// inherits every tool Deny does not name.
	Tools []string
	// Deny lists tools of its parent the child never sees.
	Deny []string
	// Model names the model the child asks; "" is the parent's.
	Model string
	// Instructions are how the child is told to work, in place of the
	// parent's own (its tools, the workspace and the project's
	// instructions are told as well).
	Instructions string
	// ReadOnly limits the child to reading: its permission preset is
	// read-only at most, and a command the policy would ask about is
	// refused instead (a read-only child runs only read-only commands).
	ReadOnly bool
	// Parallel says several tasks of the type may run at once.
	Parallel bool
	// Source is where the type was defined: "built in" or its file.
	Source string
}

// readTools are the tools that only read: a type that sees no other is
// read-only and may run in parallel.
var readTools = []string{"read", "grep", "glob", "diagnostics", "definition", "references", "symbols"}

// exploreInstructions is how an explore child is told to work.
const exploreInstructions = "You are an explore subagent of dsh, a coding agent: another agent handed you one question about the workspace. " +
	"Answer it by reading: search with grep and glob, read the files involved, use the language-server tools where they help, " +
	"and run only read-only commands (anything else is refused). You cannot change anything. " +
	"Work quickly, in parallel where the steps are independent. " +
	"When you know the answer, reply with it alone: concise, specific, with path:line references — your reply is all the other agent sees."

// generalInstructions is how a general child is told to work.
const generalInstructions = "You are a subagent of dsh, a coding agent: another agent handed you one task in the workspace. " +
	"Do it completely, with the tools you have, the way a careful engineer does in someone else's repository: understand before you change, " +
	"follow the project's conventions, check your work. The user reviews your changes and approves your commands as they do the other agent's. " +
	"When you are done, reply with what you did and found, concisely, with path:line references — your reply is all the other agent sees."

// Builtins returns the built-in types: explore, which only reads and runs
// in parallel, and general, which has every tool of its parent but task.
func Builtins() []Type {
	return []Type{
		{
			Name:         Explore,
			Description:  "Answers a question about the code by reading only: read, grep, glob, the language-server tools and read-only commands. Several run in parallel; use it to search widely without filling your own context.",
			Tools:        append(slices.Clone(readTools), "bash"),
			Instructions: exploreInstructions,
			ReadOnly:     true,
			Parallel:     true,
			Source:       "built in",
		},
		{
			Name:         General,
			Description:  "Carries out a self-contained task with every tool you have but task: edits (the user reviews them) and commands (they ask as yours do). Runs alone.",
			Instructions: generalInstructions,
			Source:       "built in",
		},
	}
}

// onlyReads reports whether names, an allow list, holds read tools only.
func onlyReads(names []string) bool {
	return !slices.ContainsFunc(names, func(n string) bool { return !slices.Contains(readTools, n) })
}

// typeNames lists the names of types, for messages.
func typeNames(types []Type) string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// find returns the type named name among types.
func find(types []Type, name string) (Type, error) {
	for _, t := range types {
		if t.Name == name {
			return t, nil
		}
	}
	return Type{}, fmt.Errorf("unknown subagent_type %q: the types are %s", name, typeNames(types))
}

// admits reports whether t's tool filter lets a tool called name
// through.
func (t Type) admits(name string) bool {
	return (t.Tools == nil || slices.Contains(t.Tools, name)) && !slices.Contains(t.Deny, name)
}
