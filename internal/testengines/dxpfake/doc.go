// Command dxpfake is a DXP follower for tests: an engine that listens, accepts games,
// plays legal moves under rafle's rules (international draughts), and misbehaves on
// request.
//
// It listens on the address of -listen (127.0.0.1:0 by default: a free port) and prints
// "listening HOST:PORT" as the first line of its standard output. It serves one connection
// at a time, any number of games on each, and runs until it is killed. It plays the first
// legal move, or with -seed a random one. It answers GAMEEND with GAMEEND, ends a game
// that is over on its turn with GAMEEND (1 when it has no move, 2 for a draw), and ends
// the game with GAMEEND 0 when the initiator sends a move that is not legal.
//
// Flags:
//
//	-listen ADDR      address to listen on (default 127.0.0.1:0)
//	-name NAME        its name in GAMEACC (default dxpfake)
//	-seed S           play random legal moves drawn from seed S (0: the first legal move)
//	-refuse           answer every GAMEREQ with GAMEACC code 2 (refused)
//	-bad-version      answer every GAMEREQ with GAMEACC code 1 (version not as expected)
//	-crash-at N       exit (status 3) instead of sending its Nth move
//	-hang-at N        send nothing from its Nth move on (it reads until the connection closes)
//	-stall-at N       send nothing instead of its Nth move, until a GAMEEND ends the game; as
//	                  an engine started outside rafle, it keeps a game that no GAMEEND ended
//	                  across connections, and refuses (GAMEACC code 2) every GAMEREQ meanwhile
//	-signal-at N      kill itself with SIGTERM instead of sending its Nth move, as a Ctrl-C
//	                  to the process group, timeout(1) or Slurm would
//	-need-stdin       exit (status 5) when its standard input ends (it reads and ignores it),
//	                  as an engine that reads commands there does
//	-illegal-at N     send a move that is not legal as its Nth move
//	-garbage-at N     send a malformed MOVE message as its Nth move
//	-claim-win-at N   send GAMEEND "I win" instead of its Nth move
//	-backreq-at N     send BACKREQ before its Nth move, and exit (status 4) if it is accepted
//	-chat             send a CHAT before each move
//	-split            send every message in random pieces of 1 to 3 bytes, 1 ms apart
//	-merge            send GAMEACC and its first move in one write (when it moves first)
//
// N counts the moves it sends from its start, over all games and connections, from 1.
package main
