package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Player is a player registered with the host.
type Player struct {
	Name      string
	URL       string
	TokenHash string // the hash of the token that may change it
	Paused    bool
	// PauseReason says who paused it and why.
	PauseReason string
	Created     time.Time
	Checked     time.Time // last answer to INFO; zero if none
}

// Errors of the players' methods.
var (
	ErrNameTaken = errors.New("name taken")
	ErrNoPlayer  = errors.New("no such player")
)

// AddPlayer registers p; a player of the same name makes ErrNameTaken.
func (s *Store) AddPlayer(ctx context.Context, p Player) error {
	n, err := s.db.exec().exec(ctx, `INSERT INTO ggp_host_player (name, url, token_hash, paused, pause_reason, created_ms)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING`,
		p.Name, p.URL, p.TokenHash, p.Paused, p.PauseReason, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("store: player %s: %w", p.Name, err)
	}
	if n == 0 {
		return fmt.Errorf("player %s: %w", p.Name, ErrNameTaken)
	}
	return nil
}

// Players returns the registered players, by name.
func (s *Store) Players(ctx context.Context) ([]Player, error) {
	return s.players(ctx, "")
}

// Player returns the player of that name, or ErrNoPlayer.
func (s *Store) Player(ctx context.Context, name string) (Player, error) {
	ps, err := s.players(ctx, name)
	if err != nil {
		return Player{}, err
	}
	if len(ps) == 0 {
		return Player{}, fmt.Errorf("player %s: %w", name, ErrNoPlayer)
	}
	return ps[0], nil
}

func (s *Store) players(ctx context.Context, name string) ([]Player, error) {
	var ps []Player
	err := s.db.exec().query(ctx, `SELECT name, url, token_hash, paused, pause_reason, created_ms, checked_ms
		FROM ggp_host_player WHERE ? = '' OR name = ? ORDER BY name`, func(scan func(...any) error) error {
		var p Player
		var created, checked int64
		if err := scan(&p.Name, &p.URL, &p.TokenHash, &p.Paused, &p.PauseReason, &created, &checked); err != nil {
			return err
		}
		p.Created = time.UnixMilli(created)
		if checked > 0 {
			p.Checked = time.UnixMilli(checked)
		}
		ps = append(ps, p)
		return nil
	}, name, name)
	if err != nil {
		return nil, fmt.Errorf("store: players: %w", err)
	}
	return ps, nil
}

// UpdatePlayer stores the URL, token hash and pause of p, a registered
// player found by name.
func (s *Store) UpdatePlayer(ctx context.Context, p Player) error {
	n, err := s.db.exec().exec(ctx, `UPDATE ggp_host_player SET url = ?, token_hash = ?, paused = ?, pause_reason = ? WHERE name = ?`,
		p.URL, p.TokenHash, p.Paused, p.PauseReason, p.Name)
	if err != nil {
		return fmt.Errorf("store: player %s: %w", p.Name, err)
	}
	if n == 0 {
		return fmt.Errorf("player %s: %w", p.Name, ErrNoPlayer)
	}
	return nil
}

// Checked records that a player answered INFO at t.
func (s *Store) Checked(ctx context.Context, name string, t time.Time) error {
	_, err := s.db.exec().exec(ctx, `UPDATE ggp_host_player SET checked_ms = ? WHERE name = ?`, t.UnixMilli(), name)
	return err
}

// DeletePlayer removes a registered player; its matches stay.
func (s *Store) DeletePlayer(ctx context.Context, name string) error {
	n, err := s.db.exec().exec(ctx, `DELETE FROM ggp_host_player WHERE name = ?`, name)
	if err != nil {
		return fmt.Errorf("store: player %s: %w", name, err)
	}
	if n == 0 {
		return fmt.Errorf("player %s: %w", name, ErrNoPlayer)
	}
	return nil
}

// Setting returns a setting's value, "" if it has none.
func (s *Store) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.exec().query(ctx, `SELECT value FROM ggp_host_setting WHERE key = ?`, func(scan func(...any) error) error {
		return scan(&v)
	}, key)
	return v, err
}

// SetSettingOnce sets a setting that has no value yet and reports
// whether it did: of processes starting at once, one sets it.
func (s *Store) SetSettingOnce(ctx context.Context, key, value string) (bool, error) {
	n, err := s.db.exec().exec(ctx, `INSERT INTO ggp_host_setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, key, value)
	return n == 1, err
}

// SetSetting sets a setting.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	_, err := s.db.exec().exec(ctx, `INSERT INTO ggp_host_setting (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// HostPausePrefix starts the reason of a pause by the host (the player
// did not answer INFO), which the host lifts when the player answers
// again; a pause by the player's owner stays until the owner lifts it.
const HostPausePrefix = "host: "

// HostPaused reports whether p was paused by the host.
func HostPaused(p Player) bool { return p.Paused && strings.HasPrefix(p.PauseReason, HostPausePrefix) }

// HostPause pauses a player for the host, with reason, or resumes one the
// host paused; a player its owner paused is left alone.
func (s *Store) HostPause(ctx context.Context, name string, paused bool, reason string) error {
	if paused {
		reason = HostPausePrefix + reason
	}
	_, err := s.db.exec().exec(ctx, `UPDATE ggp_host_player SET paused = ?, pause_reason = ?
		WHERE name = ? AND (NOT paused OR pause_reason LIKE ?)`, paused, reason, name, HostPausePrefix+"%")
	return err
}
