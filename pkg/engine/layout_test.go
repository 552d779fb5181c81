package engine

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/rafle/rafle/pkg/internal/board"
)

// TestLayouts checks that each type of this package has the memory layout of the board
// type it names, field for field (offsets, sizes, kinds, and the same for the fields'
// own types), which the conversions of convert.go (and pkg/search's) rely on. A field
// added to a board type must be added here at the same place: Rules' fields for a new
// rule, for instance.
func TestLayouts(t *testing.T) {
	pairs := []struct{ ours, theirs any }{
		{Variant{}, board.Variant{}},
		{Rules{}, board.Rules{}},
		{Position{}, board.Position{}},
		{Move{}, board.Move{}},
		{SquarePair{}, board.SquarePair{}},
		{Outcome{}, board.Outcome{}},
		{Game{}, board.Game{}},
		{KingRun{}, board.KingRun{}},
		{PerftOptions{}, board.PerftOptions{}},
		{PerftTable{}, board.PerftTable{}},
		{DivideEntry{}, board.DivideEntry{}},
		{PerftCase{}, board.PerftCase{}},
		{FENError{}, board.FENError{}},
		{MoveError{}, board.MoveError{}},
		{Material{}, board.Material{}},
		{CaptureSummary{}, board.CaptureSummary{}},
		{Index(0), board.Index(0)},
		{Square(0), board.Square(0)},
		{Color(0), board.Color(0)},
		{Duplicates(0), board.Duplicates(0)},
		{Promotion(0), board.Promotion(0)},
	}
	for _, p := range pairs {
		a, b := reflect.TypeOf(p.ours), reflect.TypeOf(p.theirs)
		if err := sameLayout(a, b, map[[2]reflect.Type]bool{}); err != "" {
			t.Errorf("%v and %v: %s", a, b, err)
		}
	}
	// The values of the enumerations.
	if White != Color(board.White) || Black != Color(board.Black) ||
		Unique != Duplicates(board.Unique) || Keep != Duplicates(board.Keep) || Paths != Duplicates(board.Paths) ||
		PromoteAtEnd != Promotion(board.PromoteAtEnd) || PromoteAndStop != Promotion(board.PromoteAndStop) ||
		PromoteAndContinue != Promotion(board.PromoteAndContinue) {
		t.Error("an enumeration's values differ from board's")
	}
}

// sameLayout returns "" when a and b have the same memory layout, or what differs.
// Named types of this package are compared with board's by structure; the fields of a
// struct by offset, size and type (names aside: a Variant's tables are one field here).
func sameLayout(a, b reflect.Type, seen map[[2]reflect.Type]bool) string {
	if seen[[2]reflect.Type{a, b}] {
		return ""
	}
	seen[[2]reflect.Type{a, b}] = true
	if a.Kind() != b.Kind() || a.Size() != b.Size() || a.Align() != b.Align() {
		return a.String() + " is " + a.Kind().String() + " of " + itoa(a.Size()) + " bytes, " +
			b.String() + " " + b.Kind().String() + " of " + itoa(b.Size())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Array && a.Len() != b.Len() {
			return a.String() + " and " + b.String() + ": lengths differ"
		}
		return sameLayout(a.Elem(), b.Elem(), seen)
	case reflect.Func:
		if a.NumIn() != b.NumIn() || a.NumOut() != b.NumOut() || a.IsVariadic() != b.IsVariadic() {
			return a.String() + " and " + b.String() + ": signatures differ"
		}
		for i := range a.NumIn() {
			if d := sameLayout(a.In(i), b.In(i), seen); d != "" {
				return d
			}
		}
		for i := range a.NumOut() {
			if d := sameLayout(a.Out(i), b.Out(i), seen); d != "" {
				return d
			}
		}
	case reflect.Struct:
		fa, fb := fieldsOf(a), fieldsOf(b)
		if len(fa) != len(fb) {
			return a.String() + " has " + itoa(uintptr(len(fa))) + " fields, " + b.String() + " " + itoa(uintptr(len(fb)))
		}
		for i := range fa {
			x, y := fa[i], fb[i]
			if x.Offset != y.Offset {
				return a.String() + "." + x.Name + " and " + b.String() + "." + y.Name + ": offsets differ"
			}
			if x.IsExported() != y.IsExported() || x.IsExported() && x.Name != y.Name {
				return a.String() + "." + x.Name + " and " + b.String() + "." + y.Name + ": names differ"
			}
			if d := sameLayout(x.Type, y.Type, seen); d != "" {
				return d
			}
		}
	}
	return ""
}

// fieldsOf returns t's fields, with the fields of a struct that is one opaque field here
// (Variant's tables, Game's state) and the embedded struct there flattened alike.
func fieldsOf(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Struct && f.Type.PkgPath() == reflect.TypeOf(board.Tables{}).PkgPath() &&
			(f.Anonymous && f.Type.Name() != "Rules" || !f.IsExported()) {
			for _, g := range fieldsOf(f.Type) {
				g.Offset += f.Offset
				out = append(out, g)
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

func itoa(n uintptr) string { return strconv.FormatUint(uint64(n), 10) }
