// Package perftdiff finds where another engine's move generator disagrees with rafle's:
// Search compares the divides (the perft count below each move) of two Dividers, rafle's
// (Rafle) and another program's (Engine, whose output ReadDivide reads), and descends into
// a miscounted move until the move lists themselves differ, which names the position and
// the missing, extra or miscounted moves. perft diff is this package with flags.
//
// It is a package of its own, not part of pkg/engine, because pkg/engine holds the rules
// only, on the standard library alone, and a diff runs another program (in a process
// group of its own: internal/procgroup) and reads its output.
package perftdiff
