// Package remote is the client side of the GGP HTTP protocol, the other
// half of package player/server, as net/http keeps its client beside its
// server: a Client is a player.Player whose calls are requests to a player
// served over HTTP, sent exactly as ggp-base's game server sends them. The
// game master plays remote players through it. A player is found at an
// address, HOST:PORT or an http or https URL, which ParseAddress checks.
//
// Each call is one POST request whose body is a message, written by
// package player/protocol as ggp-base writes it, such as
//
//	( INFO )
//	( START m1 xplayer ((role xplayer) ...) 10 2)
//	( PLAY m1 NIL )
//	( PLAY m1 ((mark 1 1) noop) )
//	( STOP m1 ((mark 3 3) noop) )
//	( ABORT m1 )
//
// with Content-Type text/acl. The deadline of a call is the deadline of its
// context; a Client adds no clock of its own.
//
// The messages of a GDL-II match (player.Match.GDLII) are sent as the
// Dresden GameController sends them: every symbol but the match id in
// upper case, PLAY and STOP with the turn, the receiver's own last move
// and its percepts (PlayTurn, StopTurn),
//
//	(START m1 CANDIDATE ((ROLE CANDIDATE) ...) 10 2)
//	(PLAY m1 0 NIL NIL)
//	(PLAY m1 2 NOOP ((DOES CANDIDATE NOOP) (OPEN_DOOR 3) ))
//	(STOP m1 3 SWITCH ((DOES CANDIDATE SWITCH) ))
//
// each over HTTP/1.0, the answer read until the player closes the
// connection, when the URL is http.
package remote

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/protocol"
	"github.com/ggp-go/ggp/reasoner"
)

// DefaultMaxResponseSize bounds the body of a player's response when
// Client.MaxResponseSize is zero. A move is a few dozen bytes.
const DefaultMaxResponseSize = 64 << 10

// ConnectTimeout bounds the time to open a connection with the default
// HTTP client, as ggp-base's game server does.
const ConnectTimeout = 5 * time.Second

// defaultHTTPClient is used when Client.HTTPClient is nil. It is never
// modified. Connections are not kept alive: game players commonly close
// them after every response.
var defaultHTTPClient = &http.Client{
	Transport: &http.Transport{
		Proxy:                  http.ProxyFromEnvironment,
		DialContext:            (&net.Dialer{Timeout: ConnectTimeout}).DialContext,
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: 64 << 10,
	},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// A Client is a remote player. Its zero value is not usable: set URL, or
// use New. A Client may be used by several goroutines at once.
type Client struct {
	// URL is where messages are posted, such as "http://127.0.0.1:9147/".
	URL string

	// PlayerName is what Name returns, and is sent in the Receiver header.
	// New sets it to the address it was given.
	PlayerName string

	// HTTPClient sends the requests. If nil, a client is used that opens
	// a new connection for every request, with ConnectTimeout.
	HTTPClient *http.Client

	// MaxResponseSize bounds the size of a response body. If zero,
	// DefaultMaxResponseSize applies.
	MaxResponseSize int64

	// DialContext opens the connections of GDL-II messages, which are
	// posted as the Dresden GameController posts them, on a connection of
	// their own rather than through HTTPClient. If nil, a net.Dialer with
	// ConnectTimeout is used. A caller that restricts where HTTPClient
	// may connect sets the same restriction here.
	DialContext func(ctx context.Context, network, address string) (net.Conn, error)
}

var _ player.GDLIIPlayer = (*Client)(nil)

// New returns a client for the player at addr, an address as
// ParseAddress takes it.
func New(addr string) (*Client, error) {
	u, err := ParseAddress(addr)
	if err != nil {
		return nil, err
	}
	return &Client{URL: u, PlayerName: addr}, nil
}

// MaxAddressLength bounds the length of an address ParseAddress takes.
const MaxAddressLength = 2048

// ParseAddress returns the URL that messages to the player at addr are
// posted to. An address is either
//
//	HOST:PORT            posted to http://HOST:PORT/
//	http://HOST[:PORT][/PATH]
//	https://HOST[:PORT][/PATH]
//
// where HOST is a name or an IP address (an IPv6 address in brackets, as
// [::1]:9147) and PORT a number from 1 to 65535. A URL without a path is
// posted to /. An address takes no user, query or fragment. The error
// names what is wrong: the scheme, a missing host or port, or a port out
// of range.
func ParseAddress(addr string) (string, error) {
	fail := func(format string, args ...any) (string, error) {
		return "", fmt.Errorf("remote player %q: %s (want HOST:PORT or an http or https URL)", addr, fmt.Sprintf(format, args...))
	}
	if len(addr) > MaxAddressLength {
		return fail("longer than %d bytes", MaxAddressLength)
	}
	scheme, rest, isURL := strings.Cut(addr, "://")
	if !isURL {
		host, port, err := net.SplitHostPort(addr)
		switch {
		case err != nil:
			return fail("not HOST:PORT: %v", cause(err))
		case host == "":
			return fail("no host before the port")
		}
		if err := checkPort(port); err != nil {
			return fail("%v", err)
		}
		return "http://" + net.JoinHostPort(host, port) + "/", nil
	}
	if scheme != "http" && scheme != "https" {
		return fail("scheme %q", scheme)
	}
	u, err := url.Parse(addr)
	if err != nil {
		return fail("%v", cause(err))
	}
	switch {
	case u.Hostname() == "":
		return fail("no host after %s://", scheme)
	case u.User != nil:
		return fail("a user name")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(rest, "#"):
		return fail("a query or fragment")
	}
	if port := u.Port(); port != "" || strings.HasSuffix(u.Host, ":") {
		if err := checkPort(port); err != nil {
			return fail("%v", err)
		}
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String(), nil
}

// cause returns what a net or url error says went wrong, without the
// address it repeats.
func cause(err error) error {
	var addrErr *net.AddrError
	if errors.As(err, &addrErr) {
		return errors.New(addrErr.Err)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return urlErr.Err
	}
	return err
}

// checkPort reports a port that is not a number from 1 to 65535.
func checkPort(port string) error {
	if port == "" {
		return fmt.Errorf("no port after the colon")
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 || port[0] == '+' {
		return fmt.Errorf("port %q: want a number from 1 to 65535", port)
	}
	return nil
}

// Name returns PlayerName, or URL if PlayerName is empty.
func (c *Client) Name() string {
	if c.PlayerName != "" {
		return c.PlayerName
	}
	return c.URL
}

// Info is what a player says of itself in answer to INFO.
type Info = protocol.Info

// MaxNameLength bounds the name Info takes from a player's answer.
const MaxNameLength = protocol.MaxNameLength

// Info sends INFO and reads the answer (see protocol.ParseInfo). An answer
// that cannot be read is a *ResponseError.
func (c *Client) Info(ctx context.Context) (Info, error) {
	resp, err := c.send(ctx, "INFO", (&protocol.Message{Type: protocol.TypeInfo}).String())
	if err != nil {
		return Info{}, err
	}
	info, err := protocol.ParseInfo(resp)
	if err != nil {
		return Info{}, &ResponseError{Player: c.Name(), Response: resp, Err: err}
	}
	return info, nil
}

// readyPoll is the pause between two INFOs of WaitReady.
const readyPoll = time.Second

// WaitReady sends INFO, once a second, until the player answers with a
// status other than busy, and returns nil then. When ctx is done first
// it returns an error that says what the last INFO got: an error, or a
// busy player.
func (c *Client) WaitReady(ctx context.Context) error {
	for {
		info, err := c.Info(ctx)
		if err == nil && !strings.EqualFold(info.Status, "busy") {
			return nil
		}
		if err == nil {
			err = errors.New("it answers INFO busy")
		}
		t := time.NewTimer(readyPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("not ready: %w", err)
		case <-t.C:
		}
	}
}

// Start sends START with the rules and the clocks, which players are told
// in whole seconds, rounded up. Like ggp-base's game server, it does not
// look at the content of the response.
func (c *Client) Start(ctx context.Context, m *player.Match) error {
	msg := (&protocol.Message{
		Type: protocol.TypeStart, MatchID: m.ID, Role: m.Role, Rules: m.Rules,
		StartClock: m.StartClock, PlayClock: m.PlayClock, Upper: m.GDLII,
	}).String()
	var err error
	if m.GDLII {
		_, err = c.sendDresden(ctx, "START", msg)
	} else {
		_, err = c.send(ctx, "START", msg)
	}
	return err
}

// PlayTurn sends the PLAY of a GDL-II match and returns the move of the
// response in compact KIF, as written: a player that was sent the rules
// in upper case answers in upper case, and the game master reads moves
// whatever their case.
func (c *Client) PlayTurn(ctx context.Context, matchID string, t player.Turn) (reasoner.Move, error) {
	resp, err := c.sendDresden(ctx, "PLAY", turnMessage(protocol.TypePlay, matchID, t).String())
	if err != nil {
		return "", err
	}
	return c.move(resp)
}

// StopTurn sends the STOP of a GDL-II match.
func (c *Client) StopTurn(ctx context.Context, matchID string, t player.Turn) error {
	_, err := c.sendDresden(ctx, "STOP", turnMessage(protocol.TypeStop, matchID, t).String())
	return err
}

func turnMessage(typ protocol.Type, matchID string, t player.Turn) *protocol.Message {
	return &protocol.Message{Type: typ, MatchID: matchID, GDLII: true, Upper: true, Turn: t.Number, LastMove: t.Move, Percepts: t.Percepts}
}

// Play sends PLAY and returns the move of the response in compact KIF. A
// response that is not one S-expression is reported as a *ResponseError.
func (c *Client) Play(ctx context.Context, matchID string, last []reasoner.Move) (reasoner.Move, error) {
	resp, err := c.send(ctx, "PLAY", (&protocol.Message{Type: protocol.TypePlay, MatchID: matchID, Moves: last}).String())
	if err != nil {
		return "", err
	}
	return c.move(resp)
}

// move reads the move of a response to PLAY; a response that is not one
// S-expression is a *ResponseError.
func (c *Client) move(resp string) (reasoner.Move, error) {
	move, err := protocol.ParseMove(resp)
	if err != nil {
		return "", &ResponseError{Player: c.Name(), Response: resp, Err: err}
	}
	return move, nil
}

// Stop sends STOP with the last joint move.
func (c *Client) Stop(ctx context.Context, matchID string, last []reasoner.Move) error {
	_, err := c.send(ctx, "STOP", (&protocol.Message{Type: protocol.TypeStop, MatchID: matchID, Moves: last}).String())
	return err
}

// Abort sends ABORT.
func (c *Client) Abort(ctx context.Context, matchID string) error {
	_, err := c.send(ctx, "ABORT", (&protocol.Message{Type: protocol.TypeAbort, MatchID: matchID}).String())
	return err
}

// sendDresden posts msg as the Dresden GameController does, over HTTP/1.0
// on a connection of its own, reading the answer until the player closes
// it; an https URL is posted as send does.
func (c *Client) sendDresden(ctx context.Context, verb, msg string) (string, error) {
	u, err := url.Parse(c.URL)
	if err != nil || u.Scheme != "http" {
		return c.send(ctx, verb, msg)
	}
	fail := func(err error) (string, error) {
		return "", fmt.Errorf("remote player %s: %s: %w", c.Name(), verb, err)
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "80")
	}
	dial := c.DialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: ConnectTimeout}).DialContext
	}
	conn, err := dial(ctx, "tcp", host)
	if err != nil {
		return fail(err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	req := fmt.Sprintf("POST %s HTTP/1.0\r\nHost: %s\r\nAccept: text/delim\r\nSender: GAMEMASTER\r\nReceiver: %s\r\nContent-Type: text/acl\r\nContent-Length: %d\r\n\r\n%s",
		u.RequestURI(), u.Host, strings.Map(headerSafe, c.Name()), len(msg), msg)
	if _, err := io.WriteString(conn, req); err != nil {
		return fail(ctxErr(ctx, err))
	}
	resp, err := http.ReadResponse(bufio.NewReader(io.LimitReader(conn, 64<<10+c.limit())), nil)
	if err != nil {
		return fail(ctxErr(ctx, err))
	}
	defer resp.Body.Close()
	return c.readBody(verb, resp)
}

// headerSafe keeps a header value on one line.
func headerSafe(r rune) rune {
	if r < ' ' || r == 0x7f {
		return '_'
	}
	return r
}

// ctxErr returns the error of ctx, if it is done, else err: a connection
// cut at the deadline is a timeout.
func ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w (%v)", ctx.Err(), err)
	}
	return err
}

func (c *Client) limit() int64 {
	if c.MaxResponseSize <= 0 {
		return DefaultMaxResponseSize
	}
	return c.MaxResponseSize
}

// send posts msg and returns the response body without surrounding space.
func (c *Client) send(ctx context.Context, verb, msg string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, strings.NewReader(msg))
	if err != nil {
		return "", fmt.Errorf("remote player %s: %s: %w", c.Name(), verb, err)
	}
	req.Header.Set("Content-Type", "text/acl")
	req.Header.Set("Accept", "text/delim")
	req.Header.Set("Sender", "GAMESERVER")
	req.Header.Set("Receiver", c.Name())
	req.Close = true
	hc := c.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("remote player %s: %s: %w", c.Name(), verb, err)
	}
	defer resp.Body.Close()
	return c.readBody(verb, resp)
}

// readBody reads the body of a response, within MaxResponseSize.
func (c *Client) readBody(verb string, resp *http.Response) (string, error) {
	limit := c.limit()
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return "", fmt.Errorf("remote player %s: %s: reading response: %w", c.Name(), verb, err)
	}
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("remote player %s: %s: HTTP status %s", c.Name(), verb, resp.Status)
	}
	if int64(len(body)) > limit {
		return "", &ResponseError{Player: c.Name(), Response: string(body[:limit]), Err: fmt.Errorf("response larger than %d bytes", limit)}
	}
	return strings.TrimSpace(string(body)), nil
}

// A ResponseError reports a response that arrived but could not be read
// as what was asked for (see protocol.ResponseError).
type ResponseError = protocol.ResponseError

// TakesGrace reports that a remote player's requests may take the game
// master's grace as well as the clock, for the network.
func (c *Client) TakesGrace() bool { return true }
