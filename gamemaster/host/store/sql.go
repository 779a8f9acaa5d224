package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// dialect is the SQL language of a database. The host's queries are
// written once, with ? for their parameters, in the SQL both databases
// share; rebind turns them into the database's own.
type dialect int

const (
	sqliteDialect dialect = iota
	postgresDialect
)

// rebind returns q with its ? parameters as the dialect writes them.
func (d dialect) rebind(q string) string {
	if d != postgresDialect {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// execer runs queries in a transaction or outside one.
type execer interface {
	// exec runs q and returns the number of rows it changed.
	exec(ctx context.Context, q string, args ...any) (int64, error)
	// query runs q and calls scan for every row.
	query(ctx context.Context, q string, scan func(scan func(dest ...any) error) error, args ...any) error
}

// sqlQuerier is what *sql.DB and *sql.Tx share.
type sqlQuerier interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// sqlExec is an execer on database/sql.
type sqlExec struct {
	q sqlQuerier
	d dialect
}

func (e sqlExec) exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := e.q.ExecContext(ctx, e.d.rebind(q), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (e sqlExec) query(ctx context.Context, q string, scan func(func(...any) error) error, args ...any) error {
	rows, err := e.q.QueryContext(ctx, e.d.rebind(q), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return scanRows(rows, scan)
}

// rowScanner is what *sql.Rows and pgx.Rows share.
type rowScanner interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// scanRows calls scan for every row of rows.
func scanRows(rows rowScanner, scan func(func(...any) error) error) error {
	for rows.Next() {
		if err := scan(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// pgxQuerier is what *pgxpool.Pool and pgx.Tx share.
type pgxQuerier interface {
	Exec(ctx context.Context, q string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, q string, args ...any) (pgx.Rows, error)
}

// pgxExec is an execer on pgx.
type pgxExec struct{ q pgxQuerier }

func (e pgxExec) exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := e.q.Exec(ctx, postgresDialect.rebind(q), args...)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

func (e pgxExec) query(ctx context.Context, q string, scan func(func(...any) error) error, args ...any) error {
	rows, err := e.q.Query(ctx, postgresDialect.rebind(q), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return scanRows(rows, scan)
}

// migrations are the host's own tables, in order; the version reached is
// kept in ggp_host_setting. Times are milliseconds since 1970, and lists
// JSON text, in both databases.
var migrations = []string{
	`CREATE TABLE IF NOT EXISTS ggp_host_setting (
		key TEXT PRIMARY KEY,
		value TEXT NOT NULL
	);
	CREATE TABLE IF NOT EXISTS ggp_host_player (
		name TEXT PRIMARY KEY,
		url TEXT NOT NULL,
		token_hash TEXT NOT NULL,
		paused BOOLEAN NOT NULL DEFAULT FALSE,
		pause_reason TEXT NOT NULL DEFAULT '',
		created_ms BIGINT NOT NULL,
		checked_ms BIGINT NOT NULL DEFAULT 0
	);
	CREATE TABLE IF NOT EXISTS ggp_host_match (
		tournament TEXT NOT NULL,
		id TEXT NOT NULL,
		job_id BIGINT NOT NULL,
		game TEXT NOT NULL,
		players TEXT NOT NULL,
		status TEXT NOT NULL,
		completed BOOLEAN NOT NULL DEFAULT FALSE,
		goals TEXT NOT NULL DEFAULT '[]',
		error TEXT NOT NULL DEFAULT '',
		record TEXT NOT NULL DEFAULT '',
		created_ms BIGINT NOT NULL,
		finished_ms BIGINT NOT NULL DEFAULT 0,
		attempts INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (tournament, id)
	);
	CREATE INDEX IF NOT EXISTS ggp_host_match_status ON ggp_host_match (status, finished_ms)`,
}

const versionKey = "schema_version"

// migrate brings the host's tables to the last version.
func migrate(ctx context.Context, ex execer) error {
	if _, err := ex.exec(ctx, `CREATE TABLE IF NOT EXISTS ggp_host_setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("host tables: %w", err)
	}
	version := 0
	err := ex.query(ctx, `SELECT value FROM ggp_host_setting WHERE key = ?`, func(scan func(...any) error) error {
		var v string
		if err := scan(&v); err != nil {
			return err
		}
		var err error
		version, err = strconv.Atoi(v)
		return err
	}, versionKey)
	if err != nil {
		return fmt.Errorf("host tables: version: %w", err)
	}
	if version > len(migrations) {
		return fmt.Errorf("host tables: version %d is newer than this ggp's %d: use a newer ggp", version, len(migrations))
	}
	for i := version; i < len(migrations); i++ {
		for stmt := range strings.SplitSeq(migrations[i], ";") {
			if strings.TrimSpace(stmt) == "" {
				continue
			}
			if _, err := ex.exec(ctx, stmt); err != nil {
				return fmt.Errorf("host tables: migration %d: %w", i+1, err)
			}
		}
		if _, err := ex.exec(ctx, `INSERT INTO ggp_host_setting (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, versionKey, strconv.Itoa(i+1)); err != nil {
			return fmt.Errorf("host tables: migration %d: %w", i+1, err)
		}
	}
	return nil
}

// quietLogger is River's logger: warnings and errors only, on stderr.
func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
