// Package hub speaks the Hub protocol, the engine protocol of Fabien Letouzey's draughts
// engine Scan, on both sides: a client that runs external engines ([Start], [Engine]) and
// a server that presents a rafle searcher as a Hub engine ([Serve]).
//
// # The protocol
//
// The reference is protocol.txt of Scan 3.1 ("Hub protocol for draughts, version 2 (used
// by Scan 3.1 and Hub 2.1)", 2019-07-06) and, where it is silent, what Scan's sources do.
// Every line has the form "<command> <arg>=<val> <arg>=<val> ...", values quoted with
// double quotes when they hold a space or '=' or are empty, flags without "=val" ([Parse],
// [Message]); both sides ignore commands and arguments they do not understand. A session:
//
//	hub                                  id name=Scan version=3.1 ...
//	                                     param name=variant value=normal type=enum values="..."
//	                                     wait
//	set-param name=variant value=frisian
//	init                                 ready
//	pos pos=Wbbb...www moves="32-28 19-23"
//	level move-time=1
//	go think                             info depth=12 score=0.05 pv="28x19x23 14x23x19"
//	                                     done move=28x19x23 ponder=14x23x19
//
// Positions are the side to move and one character per square ([FormatPosition]); moves
// are "from-to", or for a capture "from x to x captured x captured ..." with every captured
// square and no landing square ([FormatMove], [ParseMove]). Times are seconds. rafle writes
// every board this way, by PDN square number, although Hub was made for 10x10: the lines
// for english or canadian games are only understood by engines that play them. Variants
// are named as Scan names them where Scan plays them ([VariantName]).
//
// # Dialects
//
// The client speaks what Scan actually sends and reads:
//
//   - Scan 3.1: as protocol.txt. It offers the variants "normal killer bt frisian losing".
//     It takes "level nodes=". It reads a capture only with all its captured squares (a
//     move without them is "illegal move"). It answers a bad line with "error
//     message=...": "bad command" for an unknown command (although the text says to
//     ignore those), "bad position", "illegal move", "bad move", "missing name"; an error
//     message during a search fails it with ErrProtocol. It writes "init book", "init
//     eval" before "ready", and, for a forced move, only "info score=... pv=..." and
//     "done move=..." without ponder. "pos" takes the flag "start" as well as pos= and
//     moves= (the client always sends pos=), and resets the level, so "level" follows
//     "pos". With "level moves/time/inc" and no time= it assumes 30 s: the client always
//     sends time=. It keeps at most 1024 positions of a game (game.hpp): the client sends
//     the last 1000 moves of a longer game.
//   - Scan 3.0: the same version-2 protocol, but it offers only "normal killer bt" and
//     ignores "level nodes=" (a nodes-only level then searches until stopped).
//   - Scan 2.0 ("Hub-1"): another syntax, recognised by its answer to "hub": a banner
//     ("Scan 2.0 by Fabien Letouzey"), then "name Scan 2.0", "author ...", "country ...",
//     "wait", and no parameters. Parameters are "set <name> <value>", a new game is "new",
//     the position "pos <position>" with the side in lower case followed by one "move
//     <move>" per move, the limits "depth <plies>", "time <ms per move>" and "level <moves>
//     <ms> <increment ms>" (no node limit), and the search "go". It answers "info <depth>
//     <mean depth> <score in centi-men> <nodes> <seconds> <Mnps> <pv>" (the PV in short
//     notation) and "move <move> [<ponder>]", and echoes input during a search as "input
//     "<line>"". It plays international draughts only. Moves are written as in version 2.
//
// # Client
//
// [Start] runs an engine and does the handshake; [Engine.Think] sends the game (its start
// position and its moves, so that the engine sees repetitions and, in frisian, the king
// moves), the level and "go think", and returns the move once it has been checked against
// the legal moves. Failures are [*EngineError] values of four kinds, [ErrCrash],
// [ErrProtocol], [ErrStall] and [ErrIllegalMove], after which the engine must be closed.
// [Connect] does the same over any pair of streams (tests play the client against the
// server in one process that way).
//
// # Server
//
// [Serve] reads commands and writes answers, searching in a goroutine so that "ping" and
// "stop" are answered during a search.
package hub
