// Command hubfake is a tiny Hub engine for tests: it speaks the Hub protocol (version 2,
// as Scan 3.x does, or Hub-1, as Scan 2.0 does, with -hub1), plays the first legal move
// (or a random one with -seed), and misbehaves on request. Tests build it with go build
// into a temporary directory.
//
// Usage:
//
//	hubfake [flags]
//
// The flags:
//
//	-variants list   the variants offered as the "variant" parameter, Hub names separated
//	                 by commas, the first the default (default "normal"; "" offers no
//	                 variant parameter)
//	-name name       the id name (default "hubfake")
//	-seed n          play a random legal move drawn from seed n (0: the first legal move)
//	-slow d          think for duration d before answering; "stop" ends the thinking
//	-split           write each reply in several small writes, a few bytes at a time
//	-hub1            speak Hub-1 (Scan 2.0's dialect; international only)
//	-serve           be rafle's own server (hub.Serve) with a searcher that plays as
//	                 above and honours -variants, -seed and -slow; the fault flags do not
//	                 apply
//	-no-hub          never answer the handshake ("hub")
//	-wrong-protocol  answer "hub" with a line of another protocol ("uciok")
//	-crash-at n      exit with status 3, after a line on standard error, at the nth search
//	-hang-at n       stop reading and answering at the nth search (only a kill ends it)
//	-illegal-at n    answer the nth search with a well-formed illegal move
//	-garbage-at n    answer the nth search with a malformed line instead of "done"
//	-error-at n      answer the nth search with "error message=..." instead of "done"
//	-ambiguous       when a legal capture shares its start and end squares with another,
//	                 play it and write it without its captured squares (ambiguous)
//	-signal-at n     kill itself with SIGTERM at the nth search, as a Ctrl-C sent to the
//	                 whole process group, timeout(1) or Slurm would
//	-busy d          search at least d before reading its input again, "stop" included (as
//	                 Scan 2.0 finishes depth 12 before it looks at the clock); then answer at
//	                 once if "stop" came meanwhile, else go on as -slow says
//	-pid-file path   write its process id to path at start
//
// Searches are counted from 1 over the whole run. Position errors are answered with
// "error message=..." as Scan 3.1 does. A well-behaved hubfake answers "ping" at any time,
// ignores unknown commands, and exits on "quit" or at the end of its input.
package main
