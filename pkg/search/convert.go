package search

import (
	"unsafe"

	"github.com/rafle/rafle/pkg/engine"
	"github.com/rafle/rafle/pkg/internal/board"
	"github.com/rafle/rafle/pkg/search/internal/core"
)

// The search (internal/core) works on pkg/internal/board's types, which pkg/engine names
// for users with the same memory layout, field for field (engine's TestLayouts checks it;
// TestResultLayout here checks Result against core's): a pointer to one is a valid pointer
// to the other (rule 1 of unsafe.Pointer), and these conversions cost nothing.

func bvariant(v *engine.Variant) *board.Variant    { return (*board.Variant)(unsafe.Pointer(v)) }
func evariant(v *board.Variant) *engine.Variant    { return (*engine.Variant)(unsafe.Pointer(v)) }
func bposition(p *engine.Position) *board.Position { return (*board.Position)(unsafe.Pointer(p)) }
func eposition(p *board.Position) *engine.Position { return (*engine.Position)(unsafe.Pointer(p)) }
func bgame(g *engine.Game) *board.Game             { return (*board.Game)(unsafe.Pointer(g)) }
func result(r core.SearchResult) Result            { return *(*Result)(unsafe.Pointer(&r)) }
