// Package match plays self-play matches between draughts players and counts the results.
//
// # Schedule
//
// Every pair of players that Config.Tournament pairs (a pairing; one for two players, a
// round robin or a gauntlet for more: Pairings; a Swiss or knockout tournament's rounds,
// each paired from the results of the rounds before once they are finished) plays
// the openings in game pairs: both games of a pair start from the same opening, and the
// players swap colours in the second. Games are numbered 0, 1, 2, ...; pair k holds games
// 2k and 2k+1. Pair k belongs to round k / P and pairing k mod P, where P is the number of
// pairings (of the tournament's round, for a Swiss or knockout), so a match stopped early
// has played every pairing about equally. All pairings of a round play the same opening.
// The openings are dealt by OpeningOrder: a block of one shuffle of the suite chosen by the
// seed, so that no opening is played twice in a match and matches whose seeds differ
// modulo OpeningBlocks share none (with fewer openings than rounds, a shuffle from the seed,
// reshuffled each time all have been used).
//
// A game is fully determined by the seed and its index: the opening comes from the round,
// and each player is created for that game alone with a seed derived from the match seed,
// the game index and its colour. A match played with one worker or many, or interrupted
// and resumed, plays the same games (as long as the players themselves are deterministic;
// a player with a time limit is not).
//
// # Journal
//
// With a journal, each finished game is appended to it as one JSON line and synced to disk
// before it counts. The first line holds the match settings. Resuming reads the journal
// back, drops a torn last line (from a crash during the write), checks that the settings
// are the same, replays every recorded game with the rules (its players, colours and
// opening from the schedule, every move legal, its ending the one its moves give: a record
// that is not refuses the resume, naming its line: ErrBadRecord), rewrites the PDN file
// from the journal, and plays only the missing games. No finished game is lost and none is
// played twice. Merge replays the shards' records the same way.
//
// The PDN file is locked as the journal is (ErrPDNLocked), and a PDN file that holds data
// is written over only by a match that resumes a journal holding games (ErrPDNExists).
//
// # Statistics
//
// Results are counted per pairing from the first-named player's point of view, as a
// [stats.WDL] over games and a [stats.Penta] over complete pairs; the Elo estimate and
// LOS use the pentanomial counts. With an SPRT, pairs are added in index order (not in
// the order they finish), and the match stops at the first pair after which the LLR is
// outside the bounds; games beyond that pair are not counted, so the decision does not
// depend on the number of workers. With three or more players, ratings are fitted by
// maximum likelihood ([stats.Rate]) with one player anchored.
package match
