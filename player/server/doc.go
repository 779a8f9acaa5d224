// Package server serves a player.Player over the GGP HTTP protocol,
// behaving toward a game master as ggp-base's player does (see Server): it
// parses each message, calls the player within the match's clocks, less a
// margin for the network, and answers in the protocol's syntax. It bounds
// what an untrusted game master can make it hold: connections, message
// sizes, and a match abandoned without STOP or ABORT.
//
// It plays GDL-II matches as the Dresden GameController runs them: the
// five-element PLAY and STOP, (PLAY ID TURN MYLASTMOVE (PERCEPT...)), are
// passed to a player.GDLIIPlayer's PlayTurn and StopTurn, their symbols,
// sent in upper case, read back in the spelling of the rules; the
// three-element messages of GDL go to Play and Stop as before. A player
// that is not a GDLIIPlayer answers a GDL-II PLAY with nil.
package server
