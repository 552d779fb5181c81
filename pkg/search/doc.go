// Package search is rafle's computer player over the rules of pkg/engine: an
// iterative-deepening alpha-beta search with a transposition table and a quiescence
// search over captures, limited by depth, nodes or time (New, Searcher, Limits, Result);
// its evaluation, a weighted sum of named features (FeatureNames, Features, Evaluate)
// plus, on 8x8 and 10x10 boards, a pattern term (Patterns, PatternIndices: a weight for
// every configuration of 4x4 windows), with Weights loaded from JSON (the defaults are
// embedded: DefaultWeights, HandWeights, docs/evaluation.md); the computer levels and
// players built on them (Levels, Level, ParsePlayer, PlayerSpec, Player); and the use of an
// endgame database of pkg/egdb (Searcher.SetEGDB: perfect play where it holds the position,
// exact scores below the root).
//
// A Searcher is made for one variant and picks the implementation for its board's width
// once, as engine.NewVariant does: the 64-bit code, or its generated 128-bit instance for
// a board of more than 64 bits (canadian).
package search
