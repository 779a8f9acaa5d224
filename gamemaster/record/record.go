// Package record reads and writes match records: the JSON document that
// ggp-base's game server writes for a match (org.ggp.base.util.match.Match
// toJSON), extended with a few fields of its own so that a record is enough
// to replay the match.
//
// A record is written again after every step of a match with WriteFile,
// which replaces the file atomically: a reader, or a game master restarted
// after a crash, sees either the previous record or the new one, never a
// mix, and a match cut short is visible as one whose IsCompleted is false.
package record

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ggp-go/ggp/gamemaster/internal/atomicfile"
)

// Error codes recorded in Errors, as ggp-base writes them. An illegal move
// is recorded as ErrIllegal followed by a space and the move.
const (
	ErrTimeout    = "TO" // no answer within the clock
	ErrConnection = "CE" // the player could not be reached or failed
	ErrIllegal    = "IL" // an illegal or unparsable move: "IL (mark 1 1)"
)

// MaxSize bounds the size of a record read by Read and ReadFile.
const MaxSize = 256 << 20

// Record is one match. The fields down to Scrambled are those of ggp-base's
// match JSON, with its names and meaning; the rest are extensions, which
// ggp-base's reader ignores.
//
// States has one entry per state of the match, the initial state first, and
// Moves one entry per step, so len(States) == len(Moves)+1. StateTimes and
// Errors are parallel to States: Errors[0] holds the errors of the START
// request and Errors[i] those of the step that led to States[i].
type Record struct {
	MatchID     string `json:"matchId"`
	RandomToken string `json:"randomToken"`
	StartTime   int64  `json:"startTime"` // milliseconds since the Unix epoch
	GameMetaURL string `json:"gameMetaURL"`
	IsCompleted bool   `json:"isCompleted"`
	IsAborted   bool   `json:"isAborted"`

	// States are written as ggp-base writes them: each state is one string
	// holding the list of its facts, "((cell 1 1 b) (control xplayer))".
	// See FormatState.
	States     []string   `json:"states"`
	Moves      [][]string `json:"moves"`      // per step, one move per role in role order
	StateTimes []int64    `json:"stateTimes"` // milliseconds since the Unix epoch
	Errors     [][]string `json:"errors,omitempty"`
	GoalValues []int      `json:"goalValues,omitempty"` // per role, once completed

	PreviewClock int `json:"previewClock"` // seconds; -1: no preview
	StartClock   int `json:"startClock"`   // seconds
	PlayClock    int `json:"playClock"`    // seconds

	PlayerNamesFromHost    []string `json:"playerNamesFromHost,omitempty"`
	TournamentNameFromHost string   `json:"tournamentNameFromHost,omitempty"`
	Scrambled              bool     `json:"scrambled"`

	// GameRulesheetHash is the SHA-1 of GameRules in hexadecimal.
	GameRulesheetHash string `json:"gameRulesheetHash,omitempty"`

	// Extensions.
	GameKey     string   `json:"gameKey,omitempty"`     // short name of the game
	GameName    string   `json:"gameName,omitempty"`    // display name of the game
	GameRules   string   `json:"gameRules,omitempty"`   // the rulesheet, as read
	Roles       []string `json:"roles,omitempty"`       // the roles, in order
	AbortReason string   `json:"abortReason,omitempty"` // why IsAborted is set

	// GDL-II extensions. GDLII is set for a match played as GDL-II: each
	// role told only its own move and percepts. Nature names the role
	// whose moves the game master drew at random, if any (its moves are
	// in Moves, its player name is NatureName, its goal value is 0), and
	// Seed the seed of those draws, which plays them again. Percepts is
	// parallel to Moves: Percepts[i][r] holds the percepts of role r of
	// the step that led to States[i+1], sorted, none for nature.
	GDLII    bool         `json:"gdlII,omitempty"`
	Nature   string       `json:"nature,omitempty"`
	Seed     uint64       `json:"seed,omitempty"`
	Percepts [][][]string `json:"percepts,omitempty"`
}

// NatureName is the player name a record gives nature's role.
const NatureName = "nature"

// RulesheetHash returns the hash stored in GameRulesheetHash for rules.
func RulesheetHash(rules []byte) string {
	sum := sha1.Sum(rules)
	return hex.EncodeToString(sum[:])
}

// FormatState returns a state as a record stores it: its facts, each in
// compact KIF, in a list.
func FormatState[F ~string](facts []F) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, f := range facts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(f))
	}
	b.WriteByte(')')
	return b.String()
}

// Steps returns the number of steps played: len(Moves).
func (r *Record) Steps() int { return len(r.Moves) }

// Check reports the first inconsistency between the lengths of the
// record's lists: a record that fails Check cannot have been written by a
// game master.
func (r *Record) Check() error {
	switch {
	case r.MatchID == "":
		return errors.New("record has no matchId")
	case len(r.States) == 0:
		return fmt.Errorf("match %s: record has no states", r.MatchID)
	case len(r.States) != len(r.Moves)+1:
		return fmt.Errorf("match %s: record has %d states for %d moves, want one more state than moves", r.MatchID, len(r.States), len(r.Moves))
	case len(r.StateTimes) != len(r.States):
		return fmt.Errorf("match %s: record has %d state times for %d states", r.MatchID, len(r.StateTimes), len(r.States))
	case len(r.Errors) > len(r.States):
		return fmt.Errorf("match %s: record has %d error lists for %d states", r.MatchID, len(r.Errors), len(r.States))
	}
	n := len(r.Roles)
	if n == 0 && len(r.Moves) > 0 {
		n = len(r.Moves[0])
	}
	if n == 0 {
		return nil
	}
	for i, m := range r.Moves {
		if len(m) != n {
			return fmt.Errorf("match %s: step %d: %d moves for %d roles", r.MatchID, i+1, len(m), n)
		}
	}
	for i, e := range r.Errors {
		if len(e) != n {
			return fmt.Errorf("match %s: step %d: %d errors for %d roles", r.MatchID, i, len(e), n)
		}
	}
	if r.IsCompleted && len(r.GoalValues) != n {
		return fmt.Errorf("match %s: completed with %d goal values for %d roles", r.MatchID, len(r.GoalValues), n)
	}
	if r.GDLII && len(r.Percepts) != len(r.Moves) {
		return fmt.Errorf("match %s: record has percepts for %d steps of %d", r.MatchID, len(r.Percepts), len(r.Moves))
	}
	for i, p := range r.Percepts {
		if len(p) != n {
			return fmt.Errorf("match %s: step %d: percepts for %d roles of %d", r.MatchID, i+1, len(p), n)
		}
	}
	if r.PlayerNamesFromHost != nil && len(r.PlayerNamesFromHost) != n {
		return fmt.Errorf("match %s: %d player names for %d roles", r.MatchID, len(r.PlayerNamesFromHost), n)
	}
	return nil
}

// Marshal returns the record as JSON. Lists that ggp-base's reader requires
// are written as empty lists, never as null.
func (r *Record) Marshal() ([]byte, error) {
	c := *r
	if c.States == nil {
		c.States = []string{}
	}
	if c.Moves == nil {
		c.Moves = [][]string{}
	}
	if c.StateTimes == nil {
		c.StateTimes = []int64{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return nil, fmt.Errorf("match %s: %w", r.MatchID, err)
	}
	return buf.Bytes(), nil
}

// Read decodes a record from rd, reading at most MaxSize bytes.
func Read(rd io.Reader) (*Record, error) { return readLimited(rd, MaxSize) }

func readLimited(rd io.Reader, limit int64) (*Record, error) {
	data, err := io.ReadAll(io.LimitReader(rd, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("record larger than %d bytes", limit)
	}
	return Unmarshal(data)
}

// Unmarshal decodes a record from JSON.
func Unmarshal(data []byte) (*Record, error) {
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("reading match record: %w", err)
	}
	return &r, nil
}

// ReadFile reads the record in file name.
func ReadFile(name string) (*Record, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return r, nil
}

// WriteFile writes the record to file name atomically: it writes a
// temporary file in the same folder, flushes it to stable storage and
// renames it over name. A crash at any point leaves either the previous
// content of name or the new one.
func WriteFile(name string, r *Record) error {
	data, err := r.Marshal()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(name, data, TempPattern); err != nil {
		return fmt.Errorf("match %s: writing record: %w", r.MatchID, err)
	}
	return nil
}

// TempPattern is the pattern of the names of the temporary files WriteFile
// creates next to a record, as for os.CreateTemp. A process killed during
// WriteFile may leave such a file behind; RemoveTemp deletes them.
const TempPattern = ".record-*.tmp"

// RemoveTemp removes the temporary files that WriteFile calls cut short
// left in dir.
func RemoveTemp(dir string) error {
	names, err := filepath.Glob(filepath.Join(dir, TempPattern))
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range names {
		if err := os.Remove(n); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
