// Package store keeps what a match host holds — its players, its matches
// with their records and results, its settings — in one database, next to
// the queue of matches to play, which is River's (github.com/riverqueue/river)
// in the same database.
//
// Two databases are supported: one SQLite file (pure Go, nothing to
// install), for a host on one machine, and PostgreSQL, which worker
// processes on other machines share. A match is a River job; the worker
// that plays it writes its record and result in the transaction that
// completes the job (river.JobCompleteTx), and a match's row accepts its
// result once, so that a match played twice — its worker was killed, the
// job rescued and played again — is counted once.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	_ "modernc.org/sqlite" // the SQLite driver, pure Go
)

// SQLiteFile is the name of the database file in a host's data folder.
const SQLiteFile = "host.db"

// Config says which database to open and how the queue's jobs are worked.
type Config struct {
	// DSN is a PostgreSQL connection string (postgres://...). If empty,
	// the database is the SQLite file SQLiteFile in Dir.
	DSN string
	Dir string

	// Workers is the number of matches this process plays at once; zero
	// makes a process that only puts matches on the queue and reads
	// results.
	Workers int

	// Play plays a match for a worker. Required when Workers > 0.
	Play PlayFunc

	// MaxMatch bounds the time a match may take: a match still running
	// after it is cancelled, recorded as aborted. RescueAfter is the time
	// after which River takes a running job for stuck (its worker died)
	// and plays it again from the start; it must exceed MaxMatch, so that
	// no match still being played is rescued.
	MaxMatch, RescueAfter time.Duration

	// RetryDelay is the wait before a match whose worker stopped (or
	// died, once rescued) is played again. Zero means one second.
	RetryDelay time.Duration

	// MaxAttempts bounds how many times a match is started: a match whose
	// workers die so often is discarded. Zero means 5.
	MaxAttempts int

	// OnFinish, if not nil, is called after a worker of this process
	// stored the outcome of a match: counted is false when the match's
	// outcome was stored before (it was played twice) and was kept.
	OnFinish func(args MatchArgs, counted bool)

	// Logf, if not nil, is told of the queue's events.
	Logf func(format string, args ...any)
}

// Defaults of Config.
const (
	DefaultMaxMatch    = time.Hour
	DefaultMaxAttempts = 5
)

// PlayFunc plays the match args describes. live, which it may call after
// every step, stores the record of the match in play so that pages can
// show it. It returns the outcome to store, or an error when the match
// must be played again from the start, as when ctx is cancelled because
// the worker stops.
type PlayFunc func(ctx context.Context, args MatchArgs, live func(record []byte)) (Outcome, error)

// Store is an open database with its queue. Its methods may be called
// from any goroutine.
type Store struct {
	cfg Config
	db  backend
}

// backend is what differs between the databases: River's driver and the
// transactions. It is implemented by riverBackend for both.
type backend interface {
	// tx runs f in a transaction, committed if f returns nil.
	tx(ctx context.Context, f func(execer) error) error
	// exec returns an execer outside any transaction.
	exec() execer
	// enqueue puts args on the queue and runs f with its job id in the
	// transaction that inserts the job.
	enqueue(ctx context.Context, args MatchArgs, f func(execer, int64) error) error
	// jobState returns the state of a job.
	jobState(ctx context.Context, id int64) (rivertype.JobState, error)
	start(ctx context.Context) error
	stop(ctx context.Context) error
	close()
	dialect() dialect
}

// Open opens the database of cfg, creating its tables (River's with
// River's migrations, the host's with its own), and starts working the
// queue if cfg.Workers > 0. Close releases it.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if err := checkConfig(&cfg); err != nil {
		return nil, err
	}
	s := &Store{cfg: cfg}
	var err error
	if cfg.DSN != "" {
		s.db, err = openPostgres(ctx, s)
	} else {
		s.db, err = openSQLite(ctx, s)
	}
	if err != nil {
		return nil, err
	}
	if cfg.Workers > 0 {
		if err := s.db.start(ctx); err != nil {
			s.db.close()
			return nil, fmt.Errorf("store: starting the queue: %w", err)
		}
	}
	return s, nil
}

func checkConfig(cfg *Config) error {
	if cfg.DSN == "" && cfg.Dir == "" {
		return errors.New("store: neither a database nor a data folder")
	}
	if cfg.DSN != "" && !strings.HasPrefix(cfg.DSN, "postgres://") && !strings.HasPrefix(cfg.DSN, "postgresql://") {
		return fmt.Errorf("store: database %q: want postgres://...", redact(cfg.DSN))
	}
	if cfg.Workers > 0 && cfg.Play == nil {
		return errors.New("store: workers without a PlayFunc")
	}
	cfg.MaxMatch = cmpOr(cfg.MaxMatch, DefaultMaxMatch)
	if cfg.RescueAfter == 0 {
		cfg.RescueAfter = cfg.MaxMatch + time.Minute
	}
	if cfg.RescueAfter <= cfg.MaxMatch {
		return fmt.Errorf("store: rescue after %v must be longer than the longest match, %v", cfg.RescueAfter, cfg.MaxMatch)
	}
	cfg.RetryDelay = cmpOr(cfg.RetryDelay, time.Second)
	cfg.MaxAttempts = cmpOr(cfg.MaxAttempts, DefaultMaxAttempts)
	return nil
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// redact hides the password of a connection string in messages.
func redact(dsn string) string {
	at := strings.LastIndex(dsn, "@")
	scheme := strings.Index(dsn, "://")
	if at < 0 || scheme < 0 {
		return dsn
	}
	userinfo := dsn[scheme+3 : at]
	if i := strings.Index(userinfo, ":"); i >= 0 {
		return dsn[:scheme+3] + userinfo[:i] + ":xxx" + dsn[at:]
	}
	return dsn
}

// Close stops working the queue, letting the matches in play be played
// again by another worker, and closes the database.
func (s *Store) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := s.db.stop(ctx)
	s.db.close()
	return err
}

func (s *Store) logf(format string, args ...any) {
	if s.cfg.Logf != nil {
		s.cfg.Logf(format, args...)
	}
}

// openSQLite opens the SQLite file of s's data folder with one
// connection, as River's SQLite driver advises.
func openSQLite(ctx context.Context, s *Store) (backend, error) {
	if err := os.MkdirAll(s.cfg.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	name := filepath.Join(s.cfg.Dir, SQLiteFile)
	db, err := sql.Open("sqlite", "file:"+name+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", name, err)
	}
	db.SetMaxOpenConns(1)
	b := &riverBackend[*riversqlite.Driver, *sql.Tx]{
		s: s, driver: riversqlite.New(db), sql: sqliteDialect,
		begin: func(ctx context.Context) (*sql.Tx, execer, error) {
			tx, err := db.BeginTx(ctx, nil)
			return tx, sqlExec{tx, sqliteDialect}, err
		},
		commit:   func(_ context.Context, tx *sql.Tx) error { return tx.Commit() },
		rollback: func(_ context.Context, tx *sql.Tx) { tx.Rollback() },
		plain:    sqlExec{db, sqliteDialect},
		closeDB:  func() { db.Close() },
	}
	if err := b.init(ctx, func(ctx context.Context, f func() error) error { return f() }); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", name, err)
	}
	return b, nil
}

// openPostgres connects to the PostgreSQL database of s.
func openPostgres(ctx context.Context, s *Store) (backend, error) {
	pool, err := pgxpool.New(ctx, s.cfg.DSN)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", redact(s.cfg.DSN), err)
	}
	b := &riverBackend[*riverpgxv5.Driver, pgx.Tx]{
		s: s, driver: riverpgxv5.New(pool), sql: postgresDialect,
		begin: func(ctx context.Context) (pgx.Tx, execer, error) {
			tx, err := pool.Begin(ctx)
			return tx, pgxExec{tx}, err
		},
		commit:   func(ctx context.Context, tx pgx.Tx) error { return tx.Commit(ctx) },
		rollback: func(ctx context.Context, tx pgx.Tx) { tx.Rollback(context.WithoutCancel(ctx)) },
		plain:    pgxExec{pool},
		closeDB:  pool.Close,
	}
	// Processes starting at once migrate one after the other.
	serial := func(ctx context.Context, f func() error) error {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer conn.Release()
		const lockID = 0x67677068 // "ggph"
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockID); err != nil {
			return err
		}
		defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", lockID)
		return f()
	}
	if err := b.init(ctx, serial); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: %s: %w", redact(s.cfg.DSN), err)
	}
	return b, nil
}

// riverBackend is a backend on River's driver TDriver, whose transactions
// are TTx.
type riverBackend[TDriver riverdriver.Driver[TTx], TTx any] struct {
	s        *Store
	driver   TDriver
	sql      dialect
	begin    func(context.Context) (TTx, execer, error)
	commit   func(context.Context, TTx) error
	rollback func(context.Context, TTx)
	plain    execer
	closeDB  func()
	client   *river.Client[TTx]
}

// init migrates the database, one process at a time as serial runs it,
// and makes the River client.
func (b *riverBackend[TDriver, TTx]) init(ctx context.Context, serial func(context.Context, func() error) error) error {
	err := serial(ctx, func() error {
		m, err := rivermigrate.New[TTx](b.driver, nil)
		if err != nil {
			return err
		}
		if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
			return fmt.Errorf("river's migrations: %w", err)
		}
		return migrate(ctx, b.plain)
	})
	if err != nil {
		return err
	}
	cfg := &river.Config{
		RescueStuckJobsAfter: b.s.cfg.RescueAfter,
		JobTimeout:           b.s.cfg.MaxMatch,
		MaxAttempts:          b.s.cfg.MaxAttempts,
		RetryPolicy:          fixedRetry(b.s.cfg.RetryDelay),
		FetchPollInterval:    200 * time.Millisecond,
		Logger:               quietLogger(),
	}
	if b.s.cfg.Workers > 0 {
		workers := river.NewWorkers()
		river.AddWorker(workers, &matchWorker[TDriver, TTx]{b: b})
		cfg.Workers = workers
		cfg.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: b.s.cfg.Workers}}
	}
	b.client, err = river.NewClient[TTx](b.driver, cfg)
	return err
}

func (b *riverBackend[TDriver, TTx]) dialect() dialect { return b.sql }
func (b *riverBackend[TDriver, TTx]) exec() execer     { return b.plain }
func (b *riverBackend[TDriver, TTx]) close()           { b.closeDB() }

func (b *riverBackend[TDriver, TTx]) start(ctx context.Context) error {
	return b.client.Start(ctx)
}

func (b *riverBackend[TDriver, TTx]) stop(ctx context.Context) error {
	if b.s.cfg.Workers == 0 {
		return nil
	}
	// The matches in play are cancelled: their jobs go back on the queue
	// and are played again from the start, here or elsewhere.
	return b.client.StopAndCancel(ctx)
}

func (b *riverBackend[TDriver, TTx]) tx(ctx context.Context, f func(execer) error) error {
	tx, ex, err := b.begin(ctx)
	if err != nil {
		return err
	}
	defer b.rollback(ctx, tx)
	if err := f(ex); err != nil {
		return err
	}
	return b.commit(ctx, tx)
}

func (b *riverBackend[TDriver, TTx]) enqueue(ctx context.Context, args MatchArgs, f func(execer, int64) error) error {
	tx, ex, err := b.begin(ctx)
	if err != nil {
		return err
	}
	defer b.rollback(ctx, tx)
	res, err := b.client.InsertTx(ctx, tx, args, nil)
	if err != nil {
		return fmt.Errorf("match %s: queueing: %w", args.ID, err)
	}
	if err := f(ex, res.Job.ID); err != nil {
		return err
	}
	return b.commit(ctx, tx)
}

func (b *riverBackend[TDriver, TTx]) jobState(ctx context.Context, id int64) (rivertype.JobState, error) {
	j, err := b.client.JobGet(ctx, id)
	if err != nil {
		return "", err
	}
	return j.State, nil
}

// matchWorker plays the matches of the queue.
type matchWorker[TDriver riverdriver.Driver[TTx], TTx any] struct {
	river.WorkerDefaults[MatchArgs]
	b *riverBackend[TDriver, TTx]
}

// Timeout bounds a match by its own clocks, within the store's MaxMatch.
func (w *matchWorker[TDriver, TTx]) Timeout(job *river.Job[MatchArgs]) time.Duration {
	limit := w.b.s.cfg.MaxMatch
	if l := time.Duration(job.Args.LimitMS) * time.Millisecond; l > 0 && l < limit {
		limit = l
	}
	return limit
}

// Work plays the match and completes its job in the transaction that
// stores the outcome.
func (w *matchWorker[TDriver, TTx]) Work(ctx context.Context, job *river.Job[MatchArgs]) error {
	s := w.b.s
	a := job.Args
	s.logf("match %s/%s: attempt %d", a.Tournament, a.ID, job.Attempt)
	if err := s.started(ctx, a, job.ID, job.Attempt); err != nil {
		return err
	}
	out, err := s.cfg.Play(ctx, a, func(rec []byte) {
		if err := s.saveLive(context.WithoutCancel(ctx), a, job.ID, rec); err != nil {
			s.logf("match %s: storing the record in play: %v", a.ID, err)
		}
	})
	if err != nil {
		s.logf("match %s/%s: to be played again: %v", a.Tournament, a.ID, err)
		return err
	}
	// The outcome is stored even when the match was cancelled at its time
	// limit, which ends ctx: the store's own context does not end.
	fin := context.WithoutCancel(ctx)
	tx, ex, err := w.b.begin(fin)
	if err != nil {
		return err
	}
	defer w.b.rollback(fin, tx)
	counted, err := s.finish(fin, ex, a, job.ID, out)
	if err != nil {
		return err
	}
	if _, err := river.JobCompleteTx[TDriver](fin, tx, job); err != nil {
		return fmt.Errorf("match %s: completing its job: %w", a.ID, err)
	}
	if err := w.b.commit(fin, tx); err != nil {
		return fmt.Errorf("match %s: committing: %w", a.ID, err)
	}
	if !counted {
		s.logf("match %s/%s: played again after its result was stored: not counted again", a.Tournament, a.ID)
	}
	if s.cfg.OnFinish != nil {
		s.cfg.OnFinish(a, counted)
	}
	return nil
}

// fixedRetry plays a match whose worker stopped or died again after d.
type fixedRetry time.Duration

func (d fixedRetry) NextRetry(*rivertype.JobRow) time.Time {
	return time.Now().Add(time.Duration(d))
}
