package engine

import (
	"context"
)

// inlineBodies calls every exported method of the types this package aliases. It is never
// called: its calls put the inline bodies of board's methods into this package's export
// data, so that the packages that import engine (and not pkg/internal/board, which they
// cannot) inline them as before. Without it the compiler leaves every call to them a call
// (golang/go#74783): pdn validate ran 3.4% more instructions. TestAliasesComplete
// checks that the list is complete; regenerate it when a method is added.
func inlineBodies() {
	(*new(Color)).Other()
	_ = (*new(Color)).String()
	_ = (*new(Duplicates)).String()
	(*new(KingRun)).Next(*new(*Position), *new(Move))
	(*new(Material)).Pieces(*new(Color))
	(*new(Move)).CaptureCount()
	(*new(Move)).Captured()
	(*new(Move)).IsCapture()
	(*new(Move)).Promotes()
	_ = (*new(Outcome)).String()
	(*new(PerftCase)).Conventions()
	(*new(Position)).Play(*new(Move))
	_ = new(FENError).Error()
	new(FENError).Unwrap()
	new(Game).Legal()
	new(Game).Moves()
	new(Game).Outcome()
	new(Game).Play(*new(Move))
	new(Game).PlayText(*new(string))
	new(Game).Ply()
	new(Game).Position()
	new(Game).Positions()
	new(Game).Start()
	new(Game).Variant()
	_ = new(MoveError).Error()
	new(MoveError).Unwrap()
	new(PerftTable).Clear()
	new(Position).At(*new(Index))
	new(Position).ComputeHash()
	new(Position).Equal(*new(*Position))
	new(Position).Material()
	new(Rules).KingCanReverse()
	new(Variant).AlgebraicName(*new(Square))
	new(Variant).CheckKingRun(*new(KingRun), *new(*Position), *new(Move))
	new(Variant).Count(*new(*Position), *new(Duplicates), *new([]Move))
	new(Variant).Divide(*new(context.Context), *new(Position), *new(int), *new(PerftOptions))
	new(Variant).FEN(*new(Position))
	new(Variant).FormatMove(*new(*Position), *new(Move), *new(bool))
	new(Variant).FormatPath(*new([]Square))
	new(Variant).Generate(*new([]Move), *new(*Position))
	new(Variant).GenerateDup(*new([]Move), *new(*Position), *new(Duplicates))
	new(Variant).HasCapture(*new(*Position))
	new(Variant).HasMoves(*new(*Position))
	new(Variant).Index(*new(Square))
	new(Variant).ParseFEN(*new(string))
	new(Variant).ParseMove(*new(*Position), *new(string))
	new(Variant).ParseSquare(*new(string))
	new(Variant).Paths(*new(*Position), *new(Move))
	new(Variant).Perft(*new(context.Context), *new(Position), *new(int), *new(PerftOptions))
	new(Variant).PositionOutcome(*new(*Position))
	new(Variant).QuietMove(*new(*Position), *new(Index), *new(Index))
	new(Variant).Square(*new(Index))
	new(Variant).SquareName(*new(Square))
	new(Variant).Squares()
	new(Variant).Start()
}
