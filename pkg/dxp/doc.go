// Package dxp speaks DXP, the DamExchange protocol by which two international (10x10)
// draughts programs play each other, as specified at http://www.mesander.nl/damexchange/
// (layer 1: edxplg1.htm and esocket.htm; layer 2: edxplg2.htm and one page per message).
//
// # The protocol
//
// Two programs connect over TCP (port 27531 by default). The initiator connects to the
// follower, which listens. Each message is 1 to 127 ASCII characters, sent followed by a
// NUL; its first character names it:
//
//	R GAMEREQ  initiator: version "01", its name (32), the follower's colour (W or Z),
//	           thinking time in minutes (3), number of moves (3, "000": no limit), and
//	           'A' (the normal start) or 'B' with the colour to move and 50 squares
//	A GAMEACC  follower: its name (32) and the acceptance code (0 accepted; 1 version;
//	           2 not this game; 3 no game at all)
//	M MOVE     time used in seconds (4), from (2), to (2), number captured (2) and the
//	           captured squares (2 each)
//	E GAMEEND  reason (0 none, 1 I give up, 2 draw, 3 I win) and stop code (1: no further
//	           game); sent instead of a move, and answered with a GAMEEND
//	C CHAT     free text, at any time
//	B BACKREQ  move number (3) and colour to move: a request to take moves back
//	K BACKACC  the answer (0 accepted, 1 not supported, 2 refused)
//
// After GAMEREQ and GAMEACC the two sides exchange MOVE messages strictly alternately,
// forced moves included, until one sends GAMEEND instead of a move.
//
// # This package
//
// [Parse] and [Format] read and write messages, strictly: a field of the wrong width or
// value is an error naming the message and the field. [Reader] splits a stream into
// messages however the bytes arrive. [FormatPosition], [ParsePosition], [MoveOf] and
// [NewMove] convert between DXP and the engine's positions and moves.
//
// [Client] is the initiator, with which rafle plays an engine that listens: rafle is the
// referee, so every move is checked against the legal moves, take-backs are refused, and
// the engine's claims in GAMEEND are reported but not believed. Its failures are [*Error]
// values of a few kinds ([ErrIllegalMove], [ErrProtocol], [ErrCrash], [ErrStall],
// [ErrGameEnd], [ErrRefused]). [Serve] is the follower, with which rafle plays any DXP
// initiator (Moby Dam's matchmaker, Kingsrow, Damage) through a [Searcher].
package dxp
