// Package todo is the todo_write tool: the model keeps its plan for the
// turn as a list of items, and every call replaces the whole list. The
// session hears each new list (to show it as the editor's plan) through the
// callback the tool is built with:
//
//	tool, err := todo.Tool(func(items []todo.Item) { session.SetPlan(items) })
package todo
