// Command selfplay plays matches between computer players (levels or custom search specs),
// in game pairs with colours reversed, and reports Elo, LOS, pentanomial counts, an SPRT
// and, for three or more players, maximum-likelihood ratings.
package main
