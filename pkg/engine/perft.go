package engine

import ()

// Clear empties t, so that the next run starts as with a new table (and may be of another
// variant or duplicate convention), without allocating one: a command that counts several
// times keeps one table and its memory. No run may use t meanwhile.
func (t *PerftTable) Clear() {
	(&t.t).Clear()
}

// Conventions returns the duplicate conventions the count holds for.
func (c PerftCase) Conventions() []Duplicates {
	return edups(bcase(c).Conventions())
}
