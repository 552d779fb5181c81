// Package annotate analyses draughts games with a searcher and says where they were lost:
// every position of a game's main line is searched (Analyser: rafle's search, or an
// external Hub engine through pkg/match), each move is given the loss it caused
// against the best move, and the moves whose loss crosses a threshold are classed as
// inaccuracies, mistakes or blunders (Judgment). Annotate writes the analysis into the
// game as PDN: the score and depth of each move as [%eval score/depth] in a comment, the
// NAGs $6 (?!), $2 (?) and $4 (??), and the engine's best line as a variation where the
// move played was an error, keeping the game's own comments and variations. Summaries
// count the errors per game and per player.
//
// # The loss
//
// A score s (hundredths of a man, for the side to move) is turned into the side's
// expected score E(s) = 1/(1+exp(-s/100)), the logistic whose logit of one man is 1:
// fitting that scale to game results with rafle's own evaluation gives 0.96 on the Open
// Checkers Archive (docs/tuning.md, "K 0.9592 (fitted; logit of one man)"), so a man is
// worth about what it wins in practice. A win the search or a database proves is 1, a
// loss 0, a draw by the rules 1/2. The loss of a move is E(best) - E(after): the expected
// score of the position before it, as the search found it, minus that of the position
// the move led to (seen from the same side), never below 0, and 0 when the move played is
// the move the search chose. Measured this way, a move that throws a man away in a lost
// or a won position costs little, and one that does so in a balanced position costs much,
// so that a lost game does not rack up blunders.
//
// The thresholds are given in hundredths of a man, as lidraughts gives them (Thresholds:
// 50, 100 and 300 for an inaccuracy, a mistake and a blunder, lidraughts'
// modules/analyse/src/main/Advice.scala, CpAdvice.cpJudgments), and apply as the loss
// of expected score that a drop of that many hundredths costs in a balanced position:
// E(t) - E(0), 0.122, 0.231 and 0.453 for the defaults.
//
// # Endgame databases
//
// Where an endgame database (Options.EGDB) holds a position, its exact value replaces
// the search's: a win is 1, a draw 1/2, a loss 0. A move from a won position to one that
// is not won is "winning position thrown away", from a position not lost to a lost one
// "the loss became forced" (lidraughts' "Lost forced winning sequence" and "Win is now
// unavoidable"); both cost at least 1/2 and are blunders.
//
// # Reproducibility
//
// An Analyser is reset at the start of each game (its tables cleared, an external
// engine told of a new game) and searches the game's positions in order, so that with
// a node or depth limit the analysis of a game depends on the game alone: the same on
// every run, with any number of workers, and in shards (Run, Journal).
package annotate
