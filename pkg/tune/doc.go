// Package tune fits the evaluation weights of the engine to game results (Texel's tuning
// method, Österlund 2014).
//
// # Data
//
// A Dataset holds labelled positions: the raw feature vector of each position
// (search.Features, from the side to move's point of view) and the result of the game it
// comes from, from the side to move's point of view (1 win, 0.5 draw, 0 loss). ReadPDN
// replays PDN games (the variant from the GameType tag, or the one given) and ReadCSV reads
// one position per row. Both keep only the positions a Filter accepts: past the opening
// plies, not the final position, and quiet (by default: the side to move has no capture,
// which the forced-capture rule makes the draughts test of a resolved position). Identical
// games (same start and moves, as deterministic self-play produces) are kept once.
//
// PDN results are read with the first number as the score of the side that moves first in
// the variant (Black in English draughts, White in international), as match.WritePDN
// writes them: 1-0 and 2-0 are first-mover wins, 1/2-1/2 and 1-1 draws, 0-1 and 0-2 losses.
// Games without a result ("*") are skipped.
//
// # Model
//
// The evaluation is linear, q = Σ w·f in hundredths of a man, and the predicted score of the
// side to move is the logistic σ(K·q/100): K is the logit of one man. The loss is the mean
// cross-entropy of the game results (LossLogistic) or the mean squared error of the
// prediction (LossSquared, Texel's original E), plus optional L2 regularisation
// L2·Σ (w/100)² over the tuned weights.
//
// Fit first fits K alone, with the starting weights (a golden-section search on log K), then
// keeps K fixed and minimises the loss over the tuned weights with L-BFGS
// (gonum.org/v1/gonum/optimize) and the analytic gradient. The loss and its gradient are
// computed in parallel over chunks of positions. The man weight is the unit and stays at
// 100 (it cannot be tuned), so K keeps its meaning and the search its scale.
//
// A held-out share of the games (not of the positions: positions of one game are not
// independent) is left out of the fit, chosen by a seeded shuffle, to measure the loss on
// games the fit has not seen.
package tune
