package bench

import "unsafe"

// TextArgs is a reusable argument list of text values for a driver's
// variadic ...any, for loops that pass a new row of generated strings on
// every call.
//
// Converting a string to an interface allocates (the interface points to a
// copy of the string header on the heap), so building a row's []any afresh
// costs one allocation per value inside the timed loop. A TextArgs builds
// its interfaces once, each pointing at a string slot of its own, and Set
// only rewrites the slot: the interfaces in List then hold the new strings
// and nothing is allocated. The price is that a value taken from List
// changes when its slot is set again, so List's values are valid for one
// call only. Drivers use the arguments during the call that receives them
// and keep none (database/sql requires as much of its drivers), which is
// the contract every bulk loop here relies on.
type TextArgs struct {
	slots []string
	args  []any
}

// eface is the layout of an interface value whose type has no methods: its
// dynamic type and a pointer to its data.
type eface struct {
	typ, data unsafe.Pointer
}

// NewTextArgs returns an argument list of n text values, all empty.
func NewTextArgs(n int) *TextArgs {
	a := &TextArgs{slots: make([]string, n), args: make([]any, n)}
	for i := range a.args {
		var v any = ""                                                  // the dynamic type string
		(*eface)(unsafe.Pointer(&v)).data = unsafe.Pointer(&a.slots[i]) // its data: slot i
		a.args[i] = v
	}
	return a
}

// Set makes argument i the string s.
func (a *TextArgs) Set(i int, s string) { a.slots[i] = s }

// SetRow sets g.Cols() arguments from at on to the values of generated row
// row.
func (a *TextArgs) SetRow(at, row int, g *RowGen) {
	g.Row(a.slots[at:at+g.cols], row)
}

// Len returns the number of arguments.
func (a *TextArgs) Len() int { return len(a.args) }

// List returns the arguments, valid until the next Set.
func (a *TextArgs) List() []any { return a.args }
