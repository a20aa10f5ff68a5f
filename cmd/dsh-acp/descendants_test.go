package main

import (
	"slices"
	"testing"
)

func TestProcTableBelow(t *testing.T) {
	// 10 is us; 11 and 12 our children, 13 a grandchild, 14 an orphan we
	// adopted; 20 and 21 belong to someone else; 30's parent is gone.
	table := procTable{
		1: {PPID: 0}, 10: {PPID: 1}, 11: {PPID: 10}, 12: {PPID: 10}, 13: {PPID: 12}, 14: {PPID: 10},
		20: {PPID: 1}, 21: {PPID: 20}, 30: {PPID: 99},
		// A loop (only a torn read can show one) ends the walk.
		40: {PPID: 41}, 41: {PPID: 40},
	}
	for _, tt := range []struct {
		root int
		want []int
	}{
		{10, []int{11, 12, 13, 14}},
		{12, []int{13}},
		{20, []int{21}},
		{13, nil},
		{99, []int{30}},
	} {
		got := table.below(tt.root)
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("below(%d) = %v, want %v", tt.root, got, tt.want)
		}
	}
}
