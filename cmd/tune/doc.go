// Command tune fits the evaluation weights of the engine to the results of games (Texel's
// method): it reads PDN games or CSV position rows, keeps the quiet positions, fits the
// logistic scale K and then the weights with L-BFGS, reports the loss before and after on
// the training and held-out games, and writes a weights file that players load with
// weights=FILE.
package main
