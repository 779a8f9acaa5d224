// Package server serves a player.Player over the GGP HTTP protocol,
// behaving toward a game master as ggp-base's player does (see Server): it
// parses each message, calls the player within the match's clocks, less a
// margin for the network, and answers in the protocol's syntax. It bounds
// what an untrusted game master can make it hold: connections, message
// sizes, and a match abandoned without STOP or ABORT.
package server
