// Package server serves a player.Player over the GGP HTTP protocol,
// behaving toward a game master as ggp-base's player does (see Server): it
// parses each message, calls the player within the match's clocks, less a
// margin for the network, and answers in the protocol's syntax. It bounds
// what an untrusted game master can make it hold: connections, message
// sizes, and a match abandoned without STOP or ABORT.
//
// It plays GDL-II matches in both forms the public referees send: the
// Dresden GameController's final one, (PLAY ID TURN MYLASTMOVE
// (PERCEPT...)), and its older one, which the UWA fork still sends,
// (PLAY ID (PERCEPT...)), which has the shape of a GDL PLAY and is told
// from it by the match's rules (forms.go). A GDL-II PLAY or STOP is passed
// to a player.GDLIIPlayer's PlayTurn and StopTurn, its symbols, sent in
// upper case, read back in the spelling of the rules; a GDL one goes to
// Play and Stop. A player that is not a GDLIIPlayer answers a GDL-II PLAY
// with nil.
package server
