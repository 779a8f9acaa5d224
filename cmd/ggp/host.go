package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/gamemaster/host"
	"github.com/ggp-go/ggp/gamemaster/host/netguard"
	"github.com/ggp-go/ggp/gamemaster/host/store"
	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/player/players"
)

// hostExamples are the examples of ggp host -h.
const hostExamples = `ggp host --data hostdata --games ticTacToe,connectFour --startclock 10-20 --playclock 2-5

  On PostgreSQL, with workers on other machines (ggp worker --db ...):
  ggp host --db postgres://ggp@db.example.org/ggp --data /var/lib/ggp --listen :8080 --workers 0 --games ../shared/games

  Export every record into a folder:
  ggp host export --data hostdata --out records`

// operatorTokenEnv is the environment variable that may give the
// operator's token, which a flag would show in the process list.
const operatorTokenEnv = "GGP_OPERATOR_TOKEN"

// hostFlags are the flags of ggp host.
type hostFlags struct {
	q                       *queueFlags
	listen, games, operator *string
	start, play             *rangeFlag
	maxMatches              *int
	checkEvery              *time.Duration
}

// parseHostFlags parses the arguments of ggp host, which are flags alone.
func parseHostFlags(env *environment, args []string) (*hostFlags, error) {
	flags := newFlagSet(env, "host", "[--data DIR | --db postgres://...] [flags]", hostExamples)
	f := &hostFlags{q: addQueueFlags(flags, true)}
	f.listen = flags.String("listen", "127.0.0.1:8080", "address of the web pages and API; a host that listens on loopback alone calls players on loopback too")
	f.games = flags.String("games", "ticTacToe,connectFour,breakthrough", "games to draw matches from: bundled names, .kif files, game folders, or folders of game folders in the repository layout (such as ../shared/games)")
	f.start = &rangeFlag{r: host.Range{Min: 10 * time.Second, Max: 20 * time.Second}}
	f.play = &rangeFlag{r: host.Range{Min: 2 * time.Second, Max: 5 * time.Second}}
	flags.Var(f.start, "startclock", "range the start clock of a match is drawn from: MIN-MAX or one value, seconds or durations")
	flags.Var(f.play, "playclock", "range the play clock of a match is drawn from: MIN-MAX or one value, seconds or durations")
	f.maxMatches = flags.Int("max-matches", 0, "most matches queued or in play at once (0: as many as the players allow)")
	f.checkEvery = flags.Duration("check-every", host.DefaultCheckEvery, "time between two INFO checks of every player")
	f.operator = flags.String("operator-token", "", "the operator's token (better given in $"+operatorTokenEnv+"); without either, one is made and printed at the first start")
	rest, err := parseFlags(flags, args)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%w: unexpected arguments %q", errUsage, rest)
	}
	if *f.q.data == "" {
		return nil, fmt.Errorf("%w: --data is required: the folder of the database (without --db) and of the exported records", errUsage)
	}
	if *f.q.db == "" && *f.q.workers < 1 {
		return nil, fmt.Errorf("%w: a host on SQLite plays its matches itself: --workers must be at least 1 (workers elsewhere need --db)", errUsage)
	}
	return f, nil
}

// runHost runs a match host until interrupted, or exports its records.
func runHost(ctx context.Context, env *environment, args []string) error {
	if len(args) > 0 && args[0] == "export" {
		return runHostExport(ctx, env, args[1:])
	}
	f, err := parseHostFlags(env, args)
	if err != nil {
		return err
	}
	q, start, play, listen := f.q, f.start, f.play, f.listen
	gs, err := openGames(splitList(*f.games))
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	policy, err := q.policy(loopbackOnly(*listen))
	if err != nil {
		return err
	}
	longest := host.MatchLimit(start.r.Max, play.r.Max, 0)
	st, err := q.open(ctx, env, policy, longest)
	if err != nil {
		return err
	}
	defer st.Close()
	token := *f.operator
	if token == "" {
		token = os.Getenv(operatorTokenEnv)
	}
	made, err := host.SetupOperator(ctx, st, token)
	if err != nil {
		return err
	}
	if made != "" {
		fmt.Fprintf(env.stdout, "operator token (shown once; the host keeps only its hash): %s\n", made)
	}
	logf := func(format string, args ...any) { fmt.Fprintf(env.stderr, format+"\n", args...) }
	h, err := host.New(host.Config{
		Store: st, Games: gs, StartClock: start.r, PlayClock: play.r, MaxMatches: *f.maxMatches,
		Policy: policy, CheckEvery: *f.checkEvery, RecordsDir: filepath.Join(*q.data, "records"),
		Logf: logf,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: time.Minute}
	fmt.Fprintf(env.stdout, "host: http://%s/ (%d games; %d workers here)\n", ln.Addr(), len(gs), *q.workers)
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logf("ggp host: %v", err)
		}
	})
	err = h.Run(ctx)
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(shutdown)
	wg.Wait()
	return err
}

// runHostExport writes the records of a host's finished matches into a
// folder.
func runHostExport(ctx context.Context, env *environment, args []string) error {
	flags := newFlagSet(env, "host export", "[--data DIR | --db postgres://...] --out DIR", "ggp host export --data hostdata --out records")
	data := flags.String("data", "", "the host's data folder (its SQLite database)")
	db := flags.String("db", "", "the host's PostgreSQL database: postgres://...")
	out := flags.String("out", "", "folder to write the records into, as TOURNAMENT/MATCH.json")
	rest, err := parseFlags(flags, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 || *out == "" || (*data == "") == (*db == "") {
		return fmt.Errorf("%w: give --out, and --data or --db", errUsage)
	}
	st, err := store.Open(ctx, store.Config{DSN: *db, Dir: *data})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := host.Export(ctx, st, *out, time.Time{}); err != nil {
		return err
	}
	n, err := st.Matches(ctx, store.MatchFilter{Status: store.StatusDone})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "%d finished matches in %s\n", len(n), *out)
	return nil
}

// queueFlags are the flags of the commands that open a host's database
// and work its queue: ggp host and ggp worker.
type queueFlags struct {
	db, data, allow, backend *string
	workers, maxAttempts     *int
	allowAll                 *bool
	maxMatch, rescueAfter    *time.Duration
	retryDelay               *time.Duration
}

func addQueueFlags(flags *flag.FlagSet, withData bool) *queueFlags {
	q := &queueFlags{}
	q.db = flags.String("db", "", "PostgreSQL database shared with workers on other machines: postgres://USER:PASSWORD@HOST/DB (default: SQLite in --data)")
	if withData {
		q.data = flags.String("data", "", "data folder: the SQLite database (without --db) and the exported records")
	} else {
		q.data = new(string)
	}
	q.workers = flags.Int("workers", 1, "matches this process plays at once")
	q.allow = flags.String("allow", "", "player addresses allowed although private or loopback: prefixes, addresses or host names, comma-separated (such as 10.0.0.0/8)")
	q.allowAll = flags.Bool("allow-all", false, "allow every player address: for a private host whose players are all trusted")
	q.maxMatch = flags.Duration("max-match", 0, "longest a match may take before it is aborted (default: what the clocks allow, at most 1000 steps)")
	q.rescueAfter = flags.Duration("rescue-after", 0, "time after which a match whose worker died is played again from the start; must exceed --max-match (default: --max-match + 1m)")
	q.retryDelay = flags.Duration("retry-delay", time.Second, "wait before a match whose worker stopped is played again")
	q.maxAttempts = flags.Int("max-attempts", store.DefaultMaxAttempts, "times a match is started before it is given up, when its workers keep dying or stopping")
	q.backend = addBackendFlag(flags)
	return q
}

// loopbackOnly reports whether a listen address is on loopback alone.
func loopbackOnly(listen string) bool {
	h, _, err := net.SplitHostPort(listen)
	if err != nil {
		return false
	}
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// policy returns the network policy the flags give; a host on loopback
// alone also calls players on loopback.
func (q *queueFlags) policy(loopback bool) (*netguard.Policy, error) {
	allow := splitList(*q.allow)
	if loopback {
		allow = append(allow, "127.0.0.0/8", "::1")
	}
	p, err := netguard.New(netguard.Config{AllowAll: *q.allowAll, Allow: allow})
	if err != nil {
		return nil, fmt.Errorf("%w: --allow: %v", errUsage, err)
	}
	return p, nil
}

// open opens the store with this process's workers, whose matches take
// at most longest by their clocks unless --max-match says otherwise.
func (q *queueFlags) open(ctx context.Context, env *environment, policy *netguard.Policy, longest time.Duration) (*store.Store, error) {
	if *q.workers < 0 {
		return nil, fmt.Errorf("%w: --workers must not be negative", errUsage)
	}
	if *q.db == "" && *q.data == "" {
		return nil, fmt.Errorf("%w: --db is required", errUsage)
	}
	factory, err := newFactory(env, *q.backend, false)
	if err != nil {
		return nil, err
	}
	maxMatch := *q.maxMatch
	if maxMatch == 0 {
		maxMatch = longest
	}
	w := &host.Worker{Referee: &gamemaster.Referee{NewReasoner: factory}, NewPlayer: host.SeatPlayers(policy, factory)}
	cfg := store.Config{
		DSN: *q.db, Dir: *q.data, Workers: *q.workers, MaxMatch: maxMatch, RescueAfter: *q.rescueAfter,
		RetryDelay: *q.retryDelay, MaxAttempts: *q.maxAttempts,
		Logf: func(format string, args ...any) { fmt.Fprintf(env.stderr, format+"\n", args...) },
	}
	if *q.workers > 0 {
		cfg.Play = w.Play
	}
	st, err := store.Open(ctx, cfg)
	if err != nil {
		if strings.Contains(err.Error(), "rescue after") {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		return nil, err
	}
	return st, nil
}

// openGames opens the games of a list; a folder of game folders gives
// every game below it.
func openGames(list []string) ([]*games.Game, error) {
	var gs []*games.Game
	for _, arg := range list {
		if corpus, err := games.Corpus(arg); err == nil && !isGameFolder(arg) {
			for _, dir := range corpus {
				g, err := games.LoadFolder(dir)
				if err != nil {
					return nil, err
				}
				gs = append(gs, g)
			}
			continue
		}
		g, err := games.Open(arg)
		if err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// isGameFolder reports whether dir is one game's folder (with METADATA).
func isGameFolder(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "METADATA"))
	return err == nil
}

// rangeFlag is a flag of a range of durations: MIN-MAX or one value, each
// seconds or a duration.
type rangeFlag struct{ r host.Range }

func (f *rangeFlag) String() string {
	if f.r.Min == f.r.Max {
		return f.r.Min.String()
	}
	return f.r.Min.String() + "-" + f.r.Max.String()
}

func (f *rangeFlag) Set(s string) error {
	lo, hi, ok := strings.Cut(s, "-")
	if !ok {
		hi = lo
	}
	var a, b matchClock
	if err := a.Set(strings.TrimSpace(lo)); err != nil {
		return err
	}
	if err := b.Set(strings.TrimSpace(hi)); err != nil {
		return err
	}
	if b.d < a.d {
		return fmt.Errorf("range %s: the maximum is below the minimum", s)
	}
	f.r = host.Range{Min: a.d, Max: b.d}
	return nil
}

// queueTournament has t's matches played by the workers of the host
// database dsn, and returns what stops waiting for them.
func queueTournament(ctx context.Context, t *tournament.Tournament, dsn string) (func(), error) {
	if slices.Contains(t.Players, players.Human) {
		return nil, fmt.Errorf("%w: --db: a human player plays on this machine's viewer, not on a queue", errUsage)
	}
	st, err := store.Open(ctx, store.Config{DSN: dsn})
	if err != nil {
		return nil, err
	}
	q := host.NewQueued(st, 0)
	t.Runner = q.Run
	return func() {
		q.Close()
		st.Close()
	}, nil
}
