package server_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ggp-go/ggp/gamemaster"
	"github.com/ggp-go/ggp/games"
	"github.com/ggp-go/ggp/games/gamestest"
	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player"
	"github.com/ggp-go/ggp/player/baseline"
	"github.com/ggp-go/ggp/player/mctsplayer"
	"github.com/ggp-go/ggp/player/remote"
	"github.com/ggp-go/ggp/player/server"
	"github.com/ggp-go/ggp/reasoner"
	"github.com/ggp-go/ggp/reasoner/backend"
)

// modeRecorder records how a player is asked to play: the mode of each
// START, and which calls tell it of a step, Play (GDL, the ordinary
// search of the mcts player) or PlayTurn (GDL-II, its information-set
// search).
type modeRecorder struct {
	player.GDLIIPlayer
	mu     sync.Mutex
	starts []bool // Match.GDLII of each Start
	plays  int    // calls of Play since the last Start
	turns  int    // calls of PlayTurn since the last Start
}

func (p *modeRecorder) Start(ctx context.Context, m *player.Match) error {
	p.mu.Lock()
	p.starts = append(p.starts, m.GDLII)
	p.plays, p.turns = 0, 0
	p.mu.Unlock()
	return p.GDLIIPlayer.Start(ctx, m)
}

func (p *modeRecorder) Play(ctx context.Context, id string, last []reasoner.Move) (reasoner.Move, error) {
	p.mu.Lock()
	p.plays++
	p.mu.Unlock()
	return p.GDLIIPlayer.Play(ctx, id, last)
}

func (p *modeRecorder) PlayTurn(ctx context.Context, id string, t player.Turn) (reasoner.Move, error) {
	p.mu.Lock()
	p.turns++
	p.mu.Unlock()
	return p.GDLIIPlayer.PlayTurn(ctx, id, t)
}

// played is how the player played once its mode was settled: the mode of
// its last START, and whether it was asked with Play and with PlayTurn.
type played struct {
	gdlII, play, playTurn bool
}

func (p *modeRecorder) played() played {
	p.mu.Lock()
	defer p.mu.Unlock()
	return played{gdlII: len(p.starts) > 0 && p.starts[len(p.starts)-1], play: p.plays > 0, playTurn: p.turns > 0}
}

// TestModeOverHTTPAndInProcess plays games that name a role random without
// sees rules, the mcts player in the other role, in process and over
// HTTP, and checks that the player plays them the same way: beatMania,
// whose random is a player, as GDL with the ordinary search, and
// guessSix, whose random the referee seats nature in, as GDL-II, though
// over HTTP the server, told nothing but the rules at START, reads them
// as GDL until the first PLAY.
func TestModeOverHTTPAndInProcess(t *testing.T) {
	tests := []struct {
		name   string
		game   func(t *testing.T) *games.Game
		nature bool // nature plays random
		want   played
	}{
		{"beatMania", func(t *testing.T) *games.Game {
			dir := filepath.Join(gamestest.Games(), "beatMania")
			if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
				t.Skipf("no game at %s", dir)
			}
			g, err := games.LoadFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}, false, played{gdlII: false, play: true}},
		{"guessSix", func(t *testing.T) *games.Game {
			file, _ := gamestest.ReadGameII(t, "guessSix")
			g, err := games.LoadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}, true, played{gdlII: true, playTurn: true}},
	}
	f, err := backend.New(backend.Auto, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	newMCTS := func() *modeRecorder {
		p, err := mctsplayer.New("mcts:workers=1", mctsplayer.Options{NewReasoner: f, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return &modeRecorder{GDLIIPlayer: p.(player.GDLIIPlayer)}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.game(t)
			roles := gamemaster.PlayerRoles(mustParse(t, g), tt.nature)
			mcts := slices.Index(roles, "player")
			if mcts < 0 {
				t.Fatalf("roles %v: no role player", roles)
			}
			// The match is cut short after a few steps: how the
			// player plays is settled by then.
			ref := &gamemaster.Referee{NewReasoner: f, MaxSteps: 3}
			play := func(p player.Player) {
				players := make([]player.Player, len(roles))
				for i := range players {
					other := baseline.Random(baseline.Options{NewReasoner: f, Seed: 2})
					players[i] = other
				}
				players[mcts] = p
				m := &gamemaster.Match{ID: "mode-" + tt.name, Game: g, Players: players, Seed: 3,
					StartClock: time.Second, PlayClock: time.Second}
				_, err := ref.Run(context.Background(), m)
				var e *gamemaster.Error
				if err != nil && !(errors.As(err, &e) && e.Step == ref.MaxSteps+1) {
					t.Fatalf("match: %v", err)
				}
			}

			inProcess := newMCTS()
			play(inProcess)

			overHTTP := newMCTS()
			srv := httptest.NewServer(server.New(overHTTP))
			defer srv.Close()
			c, err := remote.New(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			play(c)

			if got := inProcess.played(); got != tt.want {
				t.Errorf("in process: played %+v, want %+v", got, tt.want)
			}
			if got := overHTTP.played(); got != tt.want {
				t.Errorf("over HTTP: played %+v, want %+v", got, tt.want)
			}
		})
	}
}

func mustParse(t *testing.T, g *games.Game) *gdl.Description {
	t.Helper()
	d, err := gdl.ParseFile(g.Filename, g.Rules)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
