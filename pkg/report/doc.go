// Package report writes reports that people read in a browser: a match (the results
// table, the Elo and SPRT curves, the pentanomial counts, the openings, how and when the
// games ended, the time and depth of external engines, and a viewer to step through every
// game), a tuning run, and a PDN archive's statistics.
//
// A report is a directory: index.html, one self-contained page (its style, script and
// plots are inline, and it loads nothing from the network), and a PNG file of each plot
// beside it. Plots are drawn with gonum's plot package; long series are thinned to
// maxPoints points.
//
// The game viewer draws positions that this package computed by replaying each game with
// package engine; the page's script applies no rule of the game. The games are stored in
// compressed chunks that the page decodes only when one of their games is picked, so that
// a report of many games opens fast.
package report
