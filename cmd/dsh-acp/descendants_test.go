package main

import (
	"slices"
	"testing"
)

func TestProcTableBelow(t *testing.T) {
	// 10 is us; 11 and 12 our children, 13 a grandchild, 14 an orphan we
	// adopted; 20 and 21 belong to someone else; 30's parent is gone.
	table := procTable{
		1: {ppid: 0}, 10: {ppid: 1}, 11: {ppid: 10}, 12: {ppid: 10}, 13: {ppid: 12}, 14: {ppid: 10},
		20: {ppid: 1}, 21: {ppid: 20}, 30: {ppid: 99},
		// A loop (only a torn read can show one) ends the walk.
		40: {ppid: 41}, 41: {ppid: 40},
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
