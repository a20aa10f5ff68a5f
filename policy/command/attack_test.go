package command_test

import (
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/policy/command"
)

// attackCases are the shapes an adversarial run found against the
// classifier (issue 16), each with the answer it must give now, and the
// commands near them that must keep running.
func attackCases() map[string][]evalCase {
	return map[string][]evalCase{
		"programs hidden in builtins (shape 1)": {
			{cmd: "jobs -x sh -c 'rm -rf ~'", want: command.Ask, reason: "sh -c runs a string"},
			{cmd: "jobs -x rm x", want: command.Ask, reason: `"rm" is not read-only`},
			{cmd: "jobs -lx rm x", want: command.Ask, reason: `"rm" is not read-only`},
			{cmd: "jobs -x rm x", want: command.Ask, reason: `"rm" is not read-only`, noEdit: true},
			{cmd: "jobs $opt rm x", want: command.Ask, reason: "cannot tell what jobs runs"},
			{cmd: "jobs -x shred x", want: command.Deny, reason: "rejected", ruled: true},
			{cmd: "jobs", want: command.Allow},
			{cmd: "jobs -l", want: command.Allow},
			{cmd: "test -v 'a[$(rm x)]'", want: command.Ask, reason: "evaluates a subscript"},
			{cmd: "[ -v 'a[$(rm x)]' ]", want: command.Ask, reason: "evaluates a subscript"},
			{cmd: "[ ! -v \"$x\" ]", want: command.Ask, reason: "evaluates a subscript"},
			{cmd: "test \"$op\" 'a[$(rm x)]'", want: command.Ask, reason: "evaluates a subscript"},
			{cmd: "[[ -v 'a[$(rm x)]' ]]", want: command.Ask, reason: "[[ -v ]]"},
			{cmd: "[[ -v $x ]]", want: command.Ask, reason: "[[ -v ]]"},
			{cmd: "x='a[$(rm y)]'; echo ${!x}", want: command.Ask, reason: "arithmetic on $x"},
			{cmd: "read x < f; echo ${!x}", want: command.Ask, reason: "arithmetic on $x"},
			{cmd: "printf -v \"$n\" x", want: command.Ask, reason: "subscript can run commands"},
			{cmd: "read -a 'a[$(rm x)]' < f", want: command.Ask, reason: "subscript can run commands"},
			{cmd: "declare 'a[$(rm x)]=1'", want: command.Ask, reason: "declare"},
			{cmd: "let 'a[$(rm x)]'", want: command.Ask, reason: "quoted expression"},
			{cmd: "(( 'a[$(rm x)]' ))", want: command.Ask, reason: "quoted expression"},
			{cmd: "test -v HOME", want: command.Allow},
			{cmd: "[ -n \"$x\" ] && [ \"$x\" = \"$y\" ]", want: command.Allow},
			{cmd: "test -f go.mod", want: command.Allow},
			{cmd: "echo ${!prefix*} ${!arr[@]}", want: command.Allow},
		},
	}
}

func TestAttacks(t *testing.T) {
	for group, list := range attackCases() {
		for _, c := range list {
			t.Run(group+"/"+c.cmd, func(t *testing.T) {
				env := command.Env{Inside: inside, Writes: !c.noEdit}
				if c.ruled {
					env.Rules = testRules()
				}
				got, reason := command.Evaluate(c.cmd, env)
				if got != c.want || !strings.Contains(reason, c.reason) {
					t.Errorf("Evaluate(%q) = %v, %q; want %v with %q", c.cmd, got, reason, c.want, c.reason)
				}
			})
		}
	}
}
