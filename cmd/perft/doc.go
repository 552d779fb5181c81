// Command perft counts the leaf positions of the move tree (perft), splits the count by
// root move (divide), checks rafle against the published counts (verify), and finds where
// another engine's move generator disagrees with rafle's (diff).
package main
