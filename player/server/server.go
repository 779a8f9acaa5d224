package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/clock"
	"github.com/ggp-go/ggp/player/protocol"

	"github.com/gorilla/mux"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/reasoner"
)

// Defaults of Server.
const (
	// DefaultMargin is the time kept, by default, between the answer
	// to START or PLAY and the end of the clock: enough for a game master
	// on the same machine or network.
	DefaultMargin = 500 * time.Millisecond

	// DefaultMaxBodySize bounds, by default, the size of a message: the
	// rules of the largest public games are a few hundred kilobytes.
	DefaultMaxBodySize = gdl.MaxSize

	// DefaultAbandonClocks and DefaultAbandonMin say, by default, how
	// long after the deadline of its last message a silent match is given
	// up: ten play clocks, and at least two minutes. A game master that is
	// alive sends the next message within about one play clock of the last
	// deadline, once every player has answered or timed out.
	DefaultAbandonClocks = 10
	DefaultAbandonMin    = 2 * time.Minute
)

// Server serves one Player over the GGP HTTP protocol, behaving toward a
// game master as ggp-base's player does:
//
//   - A message arrives as the body of a POST (Content-Type text/acl; a
//     missing Content-Length is accepted) or URL-encoded as the path of a
//     GET. An OPTIONS request gets the CORS headers and an empty body.
//   - Every reply has status 200, Content-Type text/acl and the CORS
//     headers of ggp-base.
//   - (INFO) gets ((name NAME) (status available|busy) (species SPECIES)),
//     (PREVIEW RULES CLOCK) gets ready, (START ID ROLE (RULES...) START PLAY)
//     gets ready once the player is, or busy during another match,
//     (PLAY ID NIL|(MOVES...)) gets the move, (STOP ID MOVES) gets done and
//     (ABORT ID) gets aborted. PLAY, STOP and ABORT for a match other than
//     the current one get busy. A PLAY whose move could not be chosen gets
//     nil. The GDL-II forms of PLAY and STOP are read too (forms.go).
//   - A message that cannot be understood, or read as any referee's form,
//     or rules that cannot be loaded, get (error "REASON") and the reason
//     is logged.
//
// Messages are handled concurrently: INFO, STOP and ABORT are answered at
// once while the player thinks. Like ggp-base's player, a Server plays one
// match at a time.
//
// Set the exported fields before serving.
type Server struct {
	// Species is reported by INFO. Default "bot".
	Species string

	// Margin is subtracted from the start and play clocks, so that the
	// answer arrives in time. It is capped at a quarter of the clock.
	// Default DefaultMargin.
	Margin time.Duration

	// MaxBodySize bounds the size of a message. Default
	// DefaultMaxBodySize.
	MaxBodySize int64

	// ErrorLog receives a line for each request that cannot be served.
	// Nil means log.Default().
	ErrorLog *log.Logger

	// MaxConns bounds the connections Serve holds open. Default
	// DefaultMaxConns().
	MaxConns int

	// MaxBuffered bounds the bytes of large messages (over SmallMessage)
	// read and parsed at once; a large message waits for room until its
	// body timeout. It is at least MaxBodySize. Default DefaultMaxBuffered.
	MaxBuffered int64

	// AbandonClocks and AbandonMin say when a match whose game master has
	// gone is given up: once no message for it has arrived for
	// AbandonClocks play clocks, and at least AbandonMin, after the
	// deadline of its last message. A new START is then accepted, and
	// INFO reports available. Defaults DefaultAbandonClocks and
	// DefaultAbandonMin.
	AbandonClocks int
	AbandonMin    time.Duration

	// HeaderTimeout, BodyTimeout, IdleTimeout and WriteTimeout bound the
	// reading of a request's headers, the reading of its body (counted
	// from the end of the headers), the wait for the next request on a
	// keep-alive connection and the writing of a reply (counted from when
	// it is ready), so that a client that stalls cannot hold a connection.
	// None runs while the player thinks. Defaults DefaultHeaderTimeout,
	// DefaultBodyTimeout, DefaultIdleTimeout and DefaultWriteTimeout.
	HeaderTimeout time.Duration
	BodyTimeout   time.Duration
	IdleTimeout   time.Duration
	WriteTimeout  time.Duration

	player player.Player
	once   sync.Once
	router *mux.Router

	budgetOnce sync.Once
	budget     *byteBudget
	conns      atomic.Pointer[connLimiter] // of Serve

	mu      sync.Mutex
	match   *serverMatch  // the current match, or nil
	changed chan struct{} // closed and replaced when match changes
	// startWaiting is set while a START waits for the current match to end.
	startWaiting bool
	// abandonClock, if not nil, stands for time.Now when the server
	// reckons whether the current match is abandoned: a hook for the
	// tests, which move it past a silent match's end without waiting.
	abandonClock func() time.Time
	// startWaits, if not nil, is called, without s.mu, when a START
	// begins to wait for the current match to end: a hook for the tests,
	// which end that match once a START waits.
	startWaits func()
}

type serverMatch struct {
	id         string
	startClock time.Duration
	playClock  time.Duration
	due        time.Time // deadline of the last message; guarded by Server.mu
	host       string    // the sender of the last message; guarded by Server.mu
	// start is what the player was told at START, and its mode of play.
	start *player.Match

	// modeMu guards the fields below: the mode of the match is settled
	// by its first PLAY that shows one (settleMode), and the form of its
	// PLAYs by how they are read (read, in forms.go).
	modeMu  sync.Mutex
	settled bool
	// spell reads the symbols of a GDL-II PLAY or STOP, which the
	// Dresden GameController writes in upper case, in the rules' spelling.
	spell *protocol.Spelling
	form  form
	shape *shapes // of the rules, once a list needed reading
	// plays counts the PLAYs read, and answered is the move answered to
	// the last: the turn and the player's own move, which the older
	// GDL-II form leaves out.
	plays    int
	answered reasoner.Move
}

// New returns a server for p.
func New(p player.Player) *Server {
	return &Server{player: p}
}

// ServeHTTP answers one protocol request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.once.Do(func() {
		rt := mux.NewRouter()
		rt.SkipClean(true)
		rt.Methods(http.MethodOptions).HandlerFunc(s.serveOptions)
		rt.Methods(http.MethodPost).HandlerFunc(s.servePost)
		rt.Methods(http.MethodGet).HandlerFunc(s.serveGet)
		rt.MethodNotAllowedHandler = http.HandlerFunc(s.serveOptions)
		rt.NotFoundHandler = http.HandlerFunc(s.serveOptions)
		s.router = rt
	})
	s.router.ServeHTTP(w, r)
}

// setHeaders sets the headers of every reply.
func setHeaders(h http.Header) {
	h.Set("Content-Type", "text/acl")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "POST, GET, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type")
	h.Set("Access-Control-Allow-Age", "86400")
}

// reply writes body as the reply to a request. The writing has
// WriteTimeout counted from now, when the reply is ready: the player may
// have thought for the whole of a long clock before it.
func (s *Server) reply(w http.ResponseWriter, body string) {
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.timeouts().write))
	setHeaders(w.Header())
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, body)
}

// serveOptions answers OPTIONS, and requests of any other method, with an
// empty body, as ggp-base does.
func (s *Server) serveOptions(w http.ResponseWriter, r *http.Request) {
	s.reply(w, "")
}

func (s *Server) serveGet(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	raw := r.RequestURI
	if !strings.HasPrefix(raw, "/") {
		raw = r.URL.RequestURI()
	}
	msg, err := url.QueryUnescape(strings.TrimPrefix(raw, "/"))
	if err != nil {
		s.reply(w, s.fail("GET %s: %v", raw, err))
		return
	}
	msg = strings.ReplaceAll(msg, "\r", " ")
	defer serving(r.Context())()
	s.reply(w, s.handle(r.Context(), msg, received, senderHost(r.RemoteAddr)))
}

func (s *Server) servePost(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	if r.ContentLength == 0 && r.Header.Get("Content-Length") == "" && len(r.TransferEncoding) == 0 {
		if hj, ok := w.(http.Hijacker); ok {
			s.serveUnframed(r.Context(), hj, received)
			return
		}
	}
	// The body must arrive within BodyTimeout; once it has, the read
	// deadline is lifted, since net/http's watch for a closed connection
	// would otherwise cancel the request's context when it passes. No
	// deadline runs while the player thinks; the write deadline is set
	// when the reply is ready.
	bodyDeadline := received.Add(s.timeouts().body)
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(bodyDeadline)
	size := r.ContentLength
	if len(r.TransferEncoding) > 0 {
		size = -1
	}
	release, err := s.reserve(r.Context(), size, bodyDeadline)
	if err != nil {
		s.reply(w, s.fail("reading the message: %v", err))
		return
	}
	defer release()
	body, err := readBody(r.Body, size, s.maxBodySize())
	rc.SetReadDeadline(time.Time{})
	if err != nil {
		s.reply(w, s.fail("reading the message: %v", err))
		return
	}
	defer serving(r.Context())()
	s.reply(w, s.handle(r.Context(), string(body), received, senderHost(r.RemoteAddr)))
}

// readBody reads a body of size bytes, or of unknown size when size is
// negative, into one buffer allocated once when the size is known, and
// refuses one over limit.
func readBody(r io.Reader, size, limit int64) ([]byte, error) {
	if size > limit {
		return nil, fmt.Errorf("message of %d bytes, over the limit of %d", size, limit)
	}
	if size >= 0 {
		buf := make([]byte, size)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, fmt.Errorf("%d bytes announced: %w", size, err)
		}
		return buf, nil
	}
	buf, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(buf)) > limit {
		err = fmt.Errorf("message over the limit of %d bytes", limit)
	}
	return buf, err
}

// serveUnframed serves a POST without Content-Length: like ggp-base, it
// reads the body until the connection is closed, stopping early when a
// whole S-expression has arrived. net/http would read such a body as
// empty, so the connection is taken over and the reply written by hand.
// ctx is the request's, which stays valid, and cancelled at shutdown,
// after the connection is taken over: the player is called with it, and
// Serve waits for this handler and closes the connection at shutdown as
// it does the others (net/http's Shutdown no longer sees it).
func (s *Server) serveUnframed(ctx context.Context, hj http.Hijacker, received time.Time) {
	conn, rw, err := hj.Hijack()
	if err != nil {
		s.logf("POST without Content-Length: %v", err)
		return
	}
	defer conn.Close()
	bodyDeadline := received.Add(s.timeouts().body)
	conn.SetReadDeadline(bodyDeadline)
	release := func() {}
	large := func() (err error) {
		release, err = s.reserve(ctx, -1, bodyDeadline)
		return err
	}
	body, err := readUnframed(rw.Reader, s.maxBodySize(), large)
	conn.SetReadDeadline(time.Time{})
	var out string
	if err != nil {
		out = s.fail("reading the message: %v", err)
	} else {
		if c, ok := conn.(*limitedConn); ok {
			c.setPhase(phaseServing)
		}
		out = s.handle(ctx, string(body), received, senderHost(conn.RemoteAddr().String()))
	}
	release()
	var b bytes.Buffer
	b.WriteString("HTTP/1.0 200 OK\r\n")
	h := http.Header{}
	setHeaders(h)
	h.Set("Content-Length", strconv.Itoa(len(out)))
	h.Write(&b)
	b.WriteString("\r\n")
	b.WriteString(out)
	// As in reply, the write deadline counts from when the reply is ready.
	conn.SetWriteDeadline(time.Now().Add(s.timeouts().write))
	conn.Write(b.Bytes())
}

// readUnframed reads a message from r up to the end of the stream or to
// the end of the first complete S-expression, whichever comes first. It
// calls large, and stops if that fails, when the message grows past
// SmallMessage bytes.
func readUnframed(r *bufio.Reader, limit int64, large func() error) ([]byte, error) {
	var buf []byte
	depth, started, comment := 0, false, false
	for {
		c, err := r.ReadByte()
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && started && depth == 0 {
				return buf, nil
			}
			return nil, err
		}
		if int64(len(buf)) >= limit {
			return nil, fmt.Errorf("message larger than %d bytes", limit)
		}
		if len(buf) == SmallMessage {
			if err := large(); err != nil {
				return nil, err
			}
		}
		buf = append(buf, c)
		switch {
		case comment:
			comment = c != '\n'
		case c == ';':
			comment = true
		case c == '(':
			depth++
			started = true
		case c == ')':
			depth--
			if depth <= 0 && started {
				return buf, nil
			}
		}
	}
}

func (s *Server) maxBodySize() int64 {
	if s.MaxBodySize > 0 {
		return s.MaxBodySize
	}
	return DefaultMaxBodySize
}

func (s *Server) logf(format string, args ...any) {
	l := s.ErrorLog
	if l == nil {
		l = log.Default()
	}
	l.Printf(format, args...)
}

// fail logs the reason a request cannot be served and returns the reply
// that tells the game master: (error "REASON"), with the reason made safe
// to read as one S-expression.
func (s *Server) fail(format string, args ...any) string {
	reason := fmt.Sprintf(format, args...)
	s.logf("player: %s", reason)
	if len(reason) > 400 {
		reason = reason[:400] + "..."
	}
	safe := strings.Map(func(r rune) rune {
		switch {
		case r == '(':
			return '['
		case r == ')':
			return ']'
		case r == '"':
			return '\''
		case r < ' ' || r == 0x7f:
			return ' '
		}
		return r
	}, reason)
	return `(error "` + safe + `")`
}

// clockDeadline returns the deadline of an answer due clock after received.
func (s *Server) clockDeadline(received time.Time, clock time.Duration) time.Time {
	margin := s.Margin
	if margin <= 0 {
		margin = DefaultMargin
	}
	margin = min(margin, clock/4)
	return received.Add(clock - margin)
}

// senderHost returns the host of a remote address host:port.
func senderHost(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return host
}

// handle answers one message, received at received from the host from.
func (s *Server) handle(ctx context.Context, msg string, received time.Time, from string) string {
	m, err := protocol.Parse([]byte(msg))
	if err != nil && !errors.Is(err, protocol.ErrMoves) {
		return s.fail("%v", err)
	}
	// err is now about the joint move of PLAY or STOP alone, which
	// matters only for the current match.
	switch m.Type {
	case protocol.TypeInfo:
		return s.info()
	case protocol.TypePreview:
		return "ready"
	case protocol.TypeStart:
		return s.start(ctx, m, received, from)
	case protocol.TypePlay:
		return s.play(ctx, m, err, received, from)
	case protocol.TypeStop:
		return s.stop(ctx, m, err, received, from)
	default:
		return s.abort(ctx, m, received, from)
	}
}

func (s *Server) info() string {
	s.mu.Lock()
	status := "available"
	if s.match != nil && !s.abandoned(s.abandonNow()) {
		status = "busy"
	}
	s.mu.Unlock()
	species := s.Species
	if species == "" {
		species = "bot"
	}
	return protocol.Info{Name: s.player.Name(), Status: status, Species: species}.String()
}

func (s *Server) start(ctx context.Context, msg *protocol.Message, received time.Time, from string) string {
	id, startClock, playClock := msg.MatchID, msg.StartClock, msg.PlayClock
	m := &serverMatch{id: id, startClock: startClock, playClock: playClock, due: received.Add(startClock), host: from}
	// Told nothing of the seating, the player reads the rules as
	// ggp-base does; the first PLAY settles the mode (settleMode).
	m.start = &player.Match{ID: id, Role: msg.Role, Rules: msg.Rules, StartClock: startClock, PlayClock: playClock,
		GDLII: gdl.DecideMode(msg.Rules, gdl.RulesAlone) == gdl.GDLII}
	m.spell = protocol.NewSpelling(msg.Rules)
	old, busy := s.claim(ctx, m, received)
	if busy != nil {
		s.logf("player: START %s from %s while playing %s for %s: busy", id, from, busy.id, busy.host)
		return "busy"
	}
	if old != nil {
		s.logf("player: match %s abandoned: no message for %v after its deadline %s; aborting it for START %s",
			old.id, received.Sub(old.due).Round(time.Second), old.due.Format(time.RFC3339), id)
		if err := s.safely(func() error { return s.player.Abort(ctx, old.id) }); err != nil {
			s.logf("player: aborting abandoned match %s: %v", old.id, err)
		}
	}

	ctx, cancel := context.WithDeadline(ctx, s.clockDeadline(received, startClock))
	defer cancel()
	err := s.safely(func() error {
		return s.player.Start(ctx, m.start)
	})
	if err != nil {
		s.endMatch(m)
		return s.fail("START %s: %v", id, err)
	}
	return "ready"
}

// safely calls f, turning a panic into an error.
func (s *Server) safely(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}

// maxStartWait bounds the wait of a START for the end of the current
// match: a quarter of its start clock, and at most this.
const maxStartWait = 2 * time.Second

// claim makes m, received at received, the current match, and returns the
// match it replaced if that one was abandoned. When another match is
// current, it waits for that match to end, since a game master may send
// the START of its next match while the STOP of the last is on its way
// (ggp-base's game server publishes a match as over before it sends
// STOP), but for a quarter of m's start clock at most, and never for a
// START of the current match. It returns the match that kept it busy if
// none ended in time. One START waits at a time, so that a crowd of them
// cannot hold connections: another is answered busy at once.
func (s *Server) claim(ctx context.Context, m *serverMatch, received time.Time) (abandoned, busy *serverMatch) {
	wait := time.NewTimer(time.Until(received.Add(min(m.startClock/4, maxStartWait))))
	defer wait.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	waiting := false // whether this START holds s.startWaiting
	for waited := false; ; {
		old := s.match
		switch {
		case old == nil:
			s.setMatch(m)
			return nil, nil
		case s.abandoned(s.abandonNow()):
			s.setMatch(m)
			return old, nil
		case old.id == m.id || waited || (s.startWaiting && !waiting):
			return nil, old
		}
		began := !waiting
		if began {
			waiting, s.startWaiting = true, true
			defer func() { s.startWaiting = false }() // runs under s.mu
		}
		changed := s.changed
		s.mu.Unlock()
		if began && s.startWaits != nil {
			s.startWaits()
		}
		select {
		case <-changed:
		case <-wait.C:
			waited = true
		case <-ctx.Done():
			waited = true
		}
		s.mu.Lock()
	}
}

// setMatch makes m the current match and wakes the STARTs waiting for a
// change. s.mu must be held.
func (s *Server) setMatch(m *serverMatch) {
	s.match = m
	if s.changed != nil {
		close(s.changed)
	}
	s.changed = make(chan struct{})
}

// endMatch forgets m if it is still the current match.
func (s *Server) endMatch(m *serverMatch) {
	s.mu.Lock()
	if s.match == m {
		s.setMatch(nil)
	}
	s.mu.Unlock()
}

// current returns the current match if its id is id, and records that a
// message for it was received from the host from.
func (s *Server) current(id string, received time.Time, from string) *serverMatch {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.match == nil || s.match.id != id {
		return nil
	}
	s.match.due = received.Add(s.match.playClock)
	s.match.host = from
	return s.match
}

// abandoned reports whether the current match has had no message for long
// enough after the deadline of its last one for its game master to be
// taken as gone. s.mu must be held.
//
// ggp-base's player never gives a match up: after a game master crashed
// it answers busy to every START until restarted. Game masters (ggp-base's
// and the Dresden server) send every message of a match in sequence, the
// next within moments of the last deadline once all players answered or
// timed out, and end it with STOP or ABORT; so a long silence after a
// deadline means the game master is gone. The wait is a generous multiple
// of the play clock, so that a game master slowed by its own reasoning is
// not mistaken for a dead one; a message for the match after it is given
// up is answered busy.
func (s *Server) abandoned(now time.Time) bool {
	m := s.match
	if m == nil {
		return false
	}
	clocks, least := s.AbandonClocks, s.AbandonMin
	if clocks <= 0 {
		clocks = DefaultAbandonClocks
	}
	if least <= 0 {
		least = DefaultAbandonMin
	}
	return now.Sub(m.due) > max(time.Duration(clocks)*m.playClock, least)
}

// abandonNow is the time by which abandoned reckons.
func (s *Server) abandonNow() time.Time {
	if s.abandonClock != nil {
		return s.abandonClock()
	}
	return time.Now()
}

func (s *Server) play(ctx context.Context, msg *protocol.Message, movesErr error, received time.Time, from string) string {
	id := msg.MatchID
	m := s.current(id, received, from)
	if m == nil {
		s.logf("player: PLAY for %s, which is not the current match: busy", id)
		return "busy"
	}
	if movesErr != nil {
		return s.fail("%v", movesErr)
	}
	r, err := m.read(msg)
	if err != nil {
		m.answer("")
		return s.fail("PLAY %s cannot be read: %v", id, err)
	}
	ctx, cancel := context.WithDeadline(ctx, s.clockDeadline(received, m.playClock))
	defer cancel()
	if err := s.settleMode(ctx, m, r); err != nil {
		m.answer("")
		return s.fail("PLAY %s: %v", id, err)
	}
	var move reasoner.Move
	err = s.safely(func() (err error) {
		if r.gdlII {
			move, err = s.playTurn(ctx, r.turn, id)
			return err
		}
		move, err = s.player.Play(ctx, id, r.moves)
		return err
	})
	m.answer(move)
	if err != nil || move == "" {
		s.logf("player: PLAY %s: no move: %v", id, err)
		return "nil"
	}
	return string(move)
}

// answer records move as m's answer to its last PLAY; "" for none.
func (m *serverMatch) answer(move reasoner.Move) {
	m.modeMu.Lock()
	m.answered = move
	m.modeMu.Unlock()
}

func (s *Server) stop(ctx context.Context, msg *protocol.Message, movesErr error, received time.Time, from string) string {
	id := msg.MatchID
	m := s.current(id, received, from)
	if m == nil {
		s.logf("player: STOP for %s, which is not the current match: busy", id)
		return "busy"
	}
	s.endMatch(m)
	r, err := reading{}, movesErr
	if err == nil {
		r, err = m.read(msg)
	}
	if err != nil {
		s.logf("player: STOP %s cannot be read, the match is aborted: %v", id, err)
		if err := s.safely(func() error { return s.player.Abort(ctx, id) }); err != nil {
			s.logf("player: STOP %s: %v", id, err)
		}
		return "done"
	}
	if err := s.safely(func() error {
		if r.gdlII {
			p, ok := s.player.(player.GDLIIPlayer)
			if !ok || !m.playsGDLII() {
				return s.player.Abort(ctx, id)
			}
			return p.StopTurn(ctx, id, r.turn)
		}
		if m.playsGDLII() {
			return s.player.Abort(ctx, id)
		}
		return s.player.Stop(ctx, id, r.moves)
	}); err != nil {
		s.logf("player: STOP %s: %v", id, err)
	}
	return "done"
}

// settleMode settles the mode of m at its first PLAY that shows one,
// reading r: every PLAY but a first NIL (read, in forms.go). A match
// started in the other mode (a game master that seats nature in the role
// random of rules without sees rules, or one that knows no GDL-II and
// seats a player in it) is started again in the mode the PLAY shows, with
// half of the PLAY's time; the player's preparation in the wrong mode is
// lost. No step is missed: the only PLAY that settles nothing, a first
// NIL, tells none. A later PLAY in the other mode is an error.
func (s *Server) settleMode(ctx context.Context, m *serverMatch, r reading) error {
	m.modeMu.Lock()
	defer m.modeMu.Unlock()
	shows := r.form != formUnsettled
	if m.start.GDLII == r.gdlII {
		m.settled = m.settled || shows
		return nil
	}
	want := gdl.GDL
	if r.gdlII {
		want = gdl.GDLII
	}
	if m.settled {
		return fmt.Errorf("a PLAY of %v in a match played as %v", want, m.start.Mode())
	}
	m.settled = true
	s.logf("player: match %s: PLAY in %v in a match started as %v: starting it again as %v", m.id, r.form, m.start.Mode(), want)
	if err := s.safely(func() error { return s.player.Abort(ctx, m.id) }); err != nil {
		s.logf("player: match %s: aborting the start as %v: %v", m.id, m.start.Mode(), err)
	}
	restart := *m.start
	restart.GDLII = r.gdlII
	m.start = &restart
	sctx, cancel := clock.FromContext(ctx).Share(0.5).Context(ctx)
	defer cancel()
	return s.safely(func() error { return s.player.Start(sctx, m.start) })
}

// playsGDLII reports whether m is played as GDL-II.
func (m *serverMatch) playsGDLII() bool {
	m.modeMu.Lock()
	defer m.modeMu.Unlock()
	return m.start.GDLII
}

// playTurn passes a GDL-II PLAY of the match id, telling t, to the player.
func (s *Server) playTurn(ctx context.Context, t player.Turn, id string) (reasoner.Move, error) {
	p, ok := s.player.(player.GDLIIPlayer)
	if !ok {
		return "", fmt.Errorf("player %s does not play GDL-II", s.player.Name())
	}
	return p.PlayTurn(ctx, id, t)
}

func (s *Server) abort(ctx context.Context, msg *protocol.Message, received time.Time, from string) string {
	id := msg.MatchID
	m := s.current(id, received, from)
	if m == nil {
		s.logf("player: ABORT for %s, which is not the current match: busy", id)
		return "busy"
	}
	s.endMatch(m)
	if err := s.safely(func() error { return s.player.Abort(ctx, id) }); err != nil {
		s.logf("player: ABORT %s: %v", id, err)
	}
	return "aborted"
}
