package jsonvalue

import "iter"

// Value is an immutable JSON value whose object members keep document order.
//
// Values are small and meant to be passed by value; copies share their
// read-only storage, and no method hands out anything through which that
// storage could change. A Value parsed from text may keep substrings of that
// text alive.
//
// The zero Value is invalid: its Kind is [KindInvalid], it has no canonical
// text, and every accessor returns the zero result for its type. [Parse]
// never returns it.
type Value struct {
	kind    Kind
	boolean bool
	number  float64
	text    string
	// items holds the elements of an array (with empty keys) or the members
	// of an object in document order, in one backing slice per container.
	items []Member
	// index maps keys to positions in items for large objects; nil otherwise.
	index map[string]int
}

// Member is one object member: a key and its value.
type Member struct {
	Key   string
	Value Value
}

// Kind reports the JSON type of v; [KindInvalid] for the zero Value.
func (v Value) Kind() Kind { return v.kind }

// Bool returns the boolean v holds, or false when v is not a boolean.
func (v Value) Bool() bool { return v.kind == KindBool && v.boolean }

// Float returns the number v holds, or 0 when v is not a number. A parsed
// number is always finite and never negative zero.
func (v Value) Float() float64 {
	if v.kind != KindNumber {
		return 0
	}
	return v.number
}

// Text returns the (unescaped) string v holds, or "" when v is not a string.
// The text is always valid UTF-8.
func (v Value) Text() string {
	if v.kind != KindString {
		return ""
	}
	return v.text
}

// Len returns the number of elements of an array or members of an object,
// and 0 for every other kind.
func (v Value) Len() int {
	if v.kind != KindArray && v.kind != KindObject {
		return 0
	}
	return len(v.items)
}

// Index returns element i of an array. It panics when v is not an array or i
// is out of range, like indexing a slice.
func (v Value) Index(i int) Value {
	if v.kind != KindArray {
		panic("jsonvalue: Index of non-array " + v.kind.String())
	}
	return v.items[i].Value
}

// Member returns member i of an object, in document order: the order in
// which keys first appear, each holding the value of its last occurrence. It
// panics when v is not an object or i is out of range.
func (v Value) Member(i int) Member {
	if v.kind != KindObject {
		panic("jsonvalue: Member of non-object " + v.kind.String())
	}
	return v.items[i]
}

// Lookup returns the value of the member named key and whether it exists. It
// reports false when v is not an object.
func (v Value) Lookup(key string) (Value, bool) {
	if v.kind != KindObject {
		return Value{}, false
	}
	if v.index != nil {
		i, ok := v.index[key]
		if !ok {
			return Value{}, false
		}
		return v.items[i].Value, true
	}
	for i := range v.items {
		if v.items[i].Key == key {
			return v.items[i].Value, true
		}
	}
	return Value{}, false
}

// Elements iterates over the index and value of each element of an array; it
// yields nothing when v is not an array.
func (v Value) Elements() iter.Seq2[int, Value] {
	return func(yield func(int, Value) bool) {
		if v.kind != KindArray {
			return
		}
		for i := range v.items {
			if !yield(i, v.items[i].Value) {
				return
			}
		}
	}
}

// Members iterates over the key and value of each member of an object in
// document order; it yields nothing when v is not an object.
func (v Value) Members() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		if v.kind != KindObject {
			return
		}
		for i := range v.items {
			if !yield(v.items[i].Key, v.items[i].Value) {
				return
			}
		}
	}
}
