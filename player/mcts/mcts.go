// Package mcts is a Monte Carlo tree search over a reasoner.Reasoner, for
// games of any number of roles with simultaneous moves.
//
// The search keeps statistics per role and move (decoupled UCT), with goal
// values normalised to [0,1] and UCB1 selection. Nodes are states, shared
// through a transposition table, so the tree is a graph; it is kept from
// one turn to the next, re-rooted by Advance, and bounded in memory. Where
// a single role moves in a node (turn-taking games) the search proves
// values (MCTS-Solver) and a proven win ends the search at once.
//
// In single-player games the search also remembers the best complete line
// it has seen, and runs a breadth-first search of the state graph, with
// step counters abstracted away, to find the shortest lines to goals that
// random playouts rarely reach: from the current state and, when the rules
// name the state that scores the most and moves can be undone, back from
// that state too. A line that reaches the highest goal is played at once.
//
// The search learns about the game as it plays (mast.go, nst.go,
// grave.go): move averages over all iterations steer the playouts (MAST),
// together with the averages of short sequences of moves (NST), and the values
// of moves played later in an iteration inform the selection of moves not
// yet visited often (GRAVE). Playouts can also take a move that wins at
// once, reading from the rules the moves that win wherever they are
// played, or where a few facts of the state hold, and then take back a
// move that lets another role play one (wins, winfacts). Each is a
// setting, on or off: Config.Settings is their table, the one place that
// holds which are on by default (ggp play -h prints it), and
// docs/strength.md says why.
//
// Run searches until its context is done; Decide, for the player's own
// move, also stops once the decision is settled.
//
// Several workers search in parallel, each with its own reasoner instance
// (Fork), sharing the tree: they select and back up without a lock,
// updating the statistics atomically, and take the tree's lock, never
// while the reasoner runs, only to change the graph (tree.go).
//
// The search owns every goroutine it starts. A Run's workers, and its
// learning of a heuristic, stop when its context is done and Run returns
// only once they have; the one goroutine New may leave behind, probing
// the game for GRAVE, is waited for by Close, which also ends a Run under
// way in another goroutine (Search.Close).
package mcts

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ggp-go/ggp/gdl"
	"github.com/ggp-go/ggp/player/internal/group"
	"github.com/ggp-go/ggp/player/mcts/puzzle"
	"github.com/ggp-go/ggp/reasoner"
)

// Defaults of the fields of Config that are not settings (Config.Settings
// holds the defaults of those that are).
const (
	DefaultMaxNodes        = 2_000_000
	DefaultMaxBytes        = 512 << 20
	DefaultHeapShare       = 0.5 // of the memory limit, for Config.MaxHeap
	DefaultMaxPlayoutDepth = 2000
	DefaultPuzzleShare     = 0.8
	DefaultGRAVEBias       = 1e-5
	DefaultLearnMax        = 3 * time.Second
)

// Config tunes a Search. The zero value selects the defaults: those of
// the settings, the fields a player specification sets, are in the
// table of Settings, with their keys and the values they take; the
// others are documented here.
type Config struct {
	// Workers is the number of goroutines that search, each with its own
	// reasoner instance.
	Workers int
	// Exploration is the UCB1 exploration constant, for goal values
	// normalised to [0,1], of a search without GRAVE (GRAVEExploration
	// with it).
	Exploration float64
	// MaxNodes bounds the number of states kept. When it is reached the
	// search goes on without adding states, until Advance frees the ones
	// no longer reachable. Default DefaultMaxNodes.
	MaxNodes int
	// MaxBytes bounds the estimated memory held by the kept states, in the
	// same way. The heap grows by about 1.5 times the estimate, reasoner
	// instances included. Default DefaultMaxBytes.
	MaxBytes int64
	// MaxHeap bounds, in the same way, the live heap of the whole process
	// as the runtime measured it at its last collection. A heap held near
	// the process's memory limit (debug.SetMemoryLimit) makes the
	// collector run without pause, taking up to half the CPU and holding
	// up answers: a checkers search at a 30 s play clock, its states
	// within MaxBytes, kept 780 MB live under ggp play's 768 MiB limit
	// and spent 44% of the CPU collecting. Default DefaultHeapShare of the
	// memory limit; no bound when the process has none.
	MaxHeap int64
	// MaxPlayoutDepth bounds the length of one random playout; a playout
	// cut short scores the goals of the state it stopped in.
	// Default DefaultMaxPlayoutDepth.
	MaxPlayoutDepth int
	// LearnMax bounds the time Heuristic's learning samples random games,
	// whatever share of the first search's time it would take. Default
	// DefaultLearnMax; a test on a slow machine raises it with the time
	// it gives the search.
	LearnMax time.Duration
	// PuzzleShare is the share of the search time given to breadth-first
	// search in single-player games, while that search has states left to
	// explore. Default DefaultPuzzleShare; a negative value disables the
	// breadth-first search.
	PuzzleShare float64
	// MAST switches move-average sampling in playouts: a playout plays
	// the move whose mean value, over the iterations it was played in,
	// is highest with probability 1-MASTEpsilon, and a random move
	// otherwise. See mast.go.
	MAST Switch
	// NST switches N-gram selection: with MAST on, the greedy playout
	// choice also weighs the averages of the pairs and triples of moves
	// ending in each move. See nst.go.
	NST Switch
	// MASTEpsilon is the probability of a random move in a MAST playout.
	MASTEpsilon float64
	// MASTDecay scales the move averages down at every turn, so that the
	// current phase of the game counts most; 1 keeps them whole.
	MASTDecay float64
	// Wins switches, in policy playouts, playing a move the rules show
	// to win at once wherever it is played whenever one is legal
	// (breakthrough's steps onto the far row), and taking back a move
	// after which another role has one, to play another: a look-up per
	// choice, and a next state per move taken back. A game without such
	// moves plays as with it off. See reasoner.WinReader.
	Wins Switch
	// WinFacts switches, in policy playouts, playing a move the rules
	// show to win at once in the states where a few facts hold whenever
	// one is legal and its facts hold (connect four's disc completing a
	// line), and taking back a move after which another role has one, as
	// Wins does for moves that win wherever they are played: a few bit
	// tests per legal move per choice, and a next state per move taken
	// back. A game without such moves plays as with it off.
	WinFacts Switch
	// ProveLeaves switches proving, the first time the tree grows below a
	// state where one role moves (its second visit), that the role wins
	// at once if one of its moves ends the game with its highest goal;
	// the proof climbs the tree, so the other role's moves that allow
	// such a win are proven losses. See expand.go.
	ProveLeaves Switch
	// PolicyPlayouts switches playing playouts through the reasoner's
	// own PolicyPlayout when it is a reasoner.PolicyPlayouter: the same
	// choices, without building a state and move lists at every step.
	// Single-player searches play through Legal and Next whatever the
	// switch.
	PolicyPlayouts Switch
	// GRAVE switches generalized rapid action value estimation in tree
	// selection: a move's mean is blended with its all-moves-as-first
	// value, the mean of the iterations in which the role played it at
	// any later point, taken from the closest ancestor with more than
	// GRAVERef visits. See grave.go. Auto, its default, turns it on in
	// placement games of more than one role, where random playouts show
	// a move open until played and never after (hex, tic-tac-toe), and
	// off elsewhere, where it lost more matches than it won
	// (placement.go, docs/strength.md).
	GRAVE Switch
	// GRAVEFirst switches GRAVE's values for the moves of a node not yet
	// visited: each is valued as if visited once with its AMAF mean,
	// rather than tried before every visited move. In hex it won 11 of
	// 16 against GRAVE off, GRAVE without it 6 of 10 (docs/strength.md).
	GRAVEFirst Switch
	// GRAVERef is the number of visits a node needs before its
	// all-moves-as-first values are used.
	GRAVERef int
	// GRAVEBias sets how fast a move's own mean takes over from its
	// all-moves-as-first value as its visits grow. Default
	// DefaultGRAVEBias.
	GRAVEBias float64
	// GRAVEExploration is the UCB1 exploration constant of a search
	// with GRAVE, in place of Exploration: the all-moves-as-first values
	// already bring the moves worth trying forward, and the exploration
	// term spreads the visits over every move of a board (RAVE and
	// GRAVE were proposed with little or none). In hex 0.15 won 13 of 16
	// against 0.5, and 0.05 22 of 32 against 0.15 (docs/strength.md).
	GRAVEExploration float64
	// Heuristic switches heuristics learned from the rules: before its
	// first search the search plays random games, fits an evaluation of
	// states over features of their facts and the roles' mobility to the
	// goals they ended with, and if the fit predicts held-out goals
	// (HeuristicQuality), uses it as HeuristicPrior and HeuristicCut
	// say; a game where none does is played as without it. See
	// heuristic.go.
	Heuristic Switch
	// HeuristicDepth is the number of moves a playout plays before the
	// heuristic scores it, with HeuristicCut.
	HeuristicDepth int
	// HeuristicCut switches cutting playouts short with the heuristic,
	// when Heuristic finds one: they stop after HeuristicDepth moves and
	// score the state reached by it.
	HeuristicCut Switch
	// HeuristicPrior switches the heuristic's prior, when Heuristic finds
	// a heuristic: the first time the tree grows below a state where one
	// role moves, each move of that role gets HeuristicPriorVisits visits
	// valued at the heuristic's score of the state it reaches (its goals
	// if terminal), which steer selection until the move's own visits
	// outweigh them.
	HeuristicPrior       Switch
	HeuristicPriorVisits int
	// Material switches looking for the roles' pieces in a game of two
	// roles where Heuristic fits nothing, and, with HeuristicPrior, a
	// prior on the moves that capture or lose them (material.go).
	Material Switch
	// Minimax switches, with Material, mixing in selection a move's mean
	// with the minimax value of the material in the tree below it
	// (implicit minimax backups, minimax.go).
	Minimax Switch
	// Chains switches valuing a run of moves by one role as that role
	// plays it: where a role moves and then moves again (amazons' queen
	// move and its arrow, a box of dots and boxes, a jump that goes on),
	// an iteration through the first move credits it with the mean of
	// the role's most visited move in the state it reaches, not its own
	// playout's result, so that the first move is worth the best
	// continuation the tree has found rather than the mean of every one
	// tried. See chain.go.
	Chains Switch
	// Factor switches searching apart the factors of a game that falls
	// into several, each with the moves of its own: a player reads it
	// and plays by NewFactored where the reasoner finds factors
	// (factor.go). A Search itself ignores it.
	Factor Switch
	// HeuristicQuality is the correlation with held-out goals a fitted
	// heuristic needs to be kept; below it the game is played as without
	// one. Fits of 0.15 to 0.3 (breakthrough's pieces per row, reversi's
	// corners) lost more matches than they won, as a cut or a prior;
	// checkers' 0.35 to 0.55 and skirmish's 0.5 won (docs/strength.md).
	HeuristicQuality float64
	// Resist switches playing on in a lost position: when the current
	// state is proven lost for the role to move, Best answers the move
	// the search visited most, the one that held out longest against the
	// replies it found, rather than the first move proven lost, which may
	// lose at once to an opponent that has not found its win.
	Resist Switch
	// Rules, when set, are read for the state that scores the most in a
	// single-player game, which the puzzle search then also searches back
	// from. Optional.
	Rules *gdl.Description
	// Seed seeds the random choices; 0 picks a random seed.
	Seed uint64
	// Log receives a line for each unexpected failure, such as a panic in
	// the reasoner. Nil discards them.
	Log *log.Logger
}

// check reports a setting whose field holds a value its setting does not
// take.
func (c Config) check() error {
	for _, s := range c.Settings() {
		if err := s.Check(); err != nil {
			return fmt.Errorf("mcts: %w", err)
		}
	}
	return nil
}

// withDefaults returns c with every field left at its zero value set to
// its default: the settings' from their table, a switch to On or Off or,
// where the search decides, Auto.
func (c Config) withDefaults() Config {
	for _, s := range c.Settings() {
		s.SetDefault()
	}
	if c.Workers == 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.MaxNodes <= 0 {
		c.MaxNodes = DefaultMaxNodes
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.MaxHeap <= 0 {
		if limit := debug.SetMemoryLimit(-1); limit < math.MaxInt64 {
			c.MaxHeap = int64(float64(limit) * DefaultHeapShare)
		}
	}
	if c.MaxPlayoutDepth <= 0 {
		c.MaxPlayoutDepth = DefaultMaxPlayoutDepth
	}
	if c.LearnMax <= 0 {
		c.LearnMax = DefaultLearnMax
	}
	if c.PuzzleShare == 0 {
		c.PuzzleShare = DefaultPuzzleShare
	}
	if c.PuzzleShare > 1 {
		c.PuzzleShare = 1
	}
	if c.GRAVEBias <= 0 {
		c.GRAVEBias = DefaultGRAVEBias
	}
	if c.Seed == 0 {
		c.Seed = rand.Uint64()
	}
	return c
}

// Stats describes the search so far.
type Stats struct {
	Iterations  int64 // tree iterations since New, across all workers
	Expansions  int64 // breadth-first expansions since New
	Nodes       int   // states in the tree
	PuzzleNodes int   // states in the breadth-first graph
	Bytes       int64 // estimated memory of the kept states
	Full        bool  // a memory bound has been reached
	RootVisits  int64 // iterations through the current root
	Solved      bool  // the value of the current root is proven
	// Value is each role's proven value when Solved and otherwise its
	// mean value at the root, in [0,1].
	Value []float64
	// BestLine is the length of the best complete line known from the
	// root in a single-player game, and BestScore its goal in [0,1];
	// BestScore is -1 when no line is known.
	BestLine  int
	BestScore float64
	// Heuristic describes the heuristic learned from the rules, or why
	// none was kept; empty before learning or with Config.Heuristic off.
	Heuristic string
	// GRAVE is whether selection uses all-moves-as-first values: set so,
	// or by default where random playouts showed a placement game.
	GRAVE  bool
	Panics int64 // panics recovered in workers
	Errors int64 // reasoner errors met in workers
}

// Search is a Monte Carlo tree search of one game from a current state.
//
// Run, Advance, Best and Close are meant to be called from one goroutine
// at a time, with one exception: Close may be called while a Run or
// Decide is under way in another goroutine, and ends it. Stats, Legal,
// TryBest and TryLegal may be called at any time.
type Search struct {
	cfg   Config
	roles []string
	main  reasoner.Reasoner // used by the caller's goroutine only

	forkMu sync.Mutex
	tmpl   reasoner.Reasoner // forked from, under forkMu
	pool   chan reasoner.Reasoner
	forks  atomic.Int32

	runs atomic.Uint64 // number of Run calls, for seeding workers

	// life is cancelled by Close, which ends a Run under way; owned
	// counts the Runs under way and the goroutines the search starts
	// outside them, which Close waits for, at most closeWait.
	life      context.Context
	endLife   context.CancelFunc
	owned     group.Group
	closeWait time.Duration

	// The transposition table (table.go), under its own locks, and the
	// memory it holds.
	shards [tableShards]shard
	nodes  atomic.Int64 // states in the table
	bytes  atomic.Int64 // estimated memory of the states in the table
	full   atomic.Bool  // a memory bound is reached
	// heapFull reports that the live heap reached Config.MaxHeap at the
	// last look (checkHeap).
	heapFull atomic.Bool

	// mu guards everything below but the atomic fields, and the nodes as
	// tree.go says.
	mu   sync.Mutex
	gen  uint64 // incremented when the root changes
	root *node
	// view publishes root and gen for the workers, which select without
	// the lock; set under mu whenever they change.
	view   atomic.Pointer[view]
	mark   uint64 // stamp for graph walks
	best   []reasoner.Move
	bscore float64        // goal of best, or -1
	puz    *puzzle.Search // nil unless the game has one role

	mast  []*mastTable // one per worker id; nil when MAST is off
	grave bool         // GRAVE is on
	// chains: a move before another of the same role is credited with
	// that role's best continuation (Config.Chains, chain.go).
	chains bool
	// graveFirst: GRAVE values the moves not yet visited (GRAVEFirst).
	graveFirst bool
	fast       bool // playouts go through the reasoner's PolicyPlayout
	// playWins holds the wins the reasoner read from the rules, of the
	// kinds Config.Wins and Config.WinFacts switch on, read once in New
	// and given to every policy playout, which then plays them and keeps
	// from handing them over (reasoner.WinReader); winPlay reports that
	// some role has one. wins holds, per role, playWins' decisive moves
	// as bits over the PolicyPlayouter's numbering, which Choose plays;
	// nil for a role without any.
	playWins reasoner.Wins
	winPlay  bool
	wins     [][]uint64
	// heur is the heuristic learned from the rules, nil without one;
	// learned is set once the search has tried (heuristic.go).
	heur atomic.Pointer[heuristic]
	// material is the roles' pieces found where no heuristic fits, nil
	// without them (material.go).
	material atomic.Pointer[material]
	learned  bool // guarded by the Run caller
	heurWhy  atomic.Pointer[string]
	resist   bool // Config.Resist
	// simultaneous is set once the search meets a state in which several
	// roles have a choice; playouts are then uniform: in the simultaneous
	// connect four MAST's and NST's policy lost to uniform playouts in
	// every measurement (docs/strength.md).
	simultaneous atomic.Bool

	// rootLegal is the current state and every role's legal moves in it,
	// published whenever the root changes, so that a caller that cannot
	// wait for the search reads them without a lock (TryLegal).
	rootLegal atomic.Pointer[rootLegal]
	// advice is every role's best move in the current state as Best
	// would choose it, published by the goroutine that runs the search
	// every settleCheck and when Run returns, and when the root changes,
	// so that a caller that cannot wait reads it without a lock
	// (TryBest). The workers never publish it: their loop takes no more
	// locks and allocates nothing for it.
	advice atomic.Pointer[rootAdvice]
	// advised, if not nil, is called by the goroutine that runs the
	// search after each advice it publishes, every settleCheck and when
	// Run returns: a hook for the tests, which wait for it rather than
	// poll TryBest.
	advised func()

	iterations atomic.Int64
	expansions atomic.Int64
	panics     atomic.Int64
	errs       atomic.Int64
	closed     atomic.Bool
	exclusive  atomic.Bool // the puzzle search has a goal state: give it all the time
}

// ErrTerminal is returned by Best and Advance when the current state ends
// the game.
var ErrTerminal = errors.New("the game is over")

// New returns a search of the game of r from its initial state. The search
// uses r from the caller's goroutine and forks it for its workers.
func New(ctx context.Context, r reasoner.Reasoner, cfg Config) (*Search, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	s := &Search{
		cfg:        cfg,
		roles:      r.Roles(),
		main:       r,
		pool:       make(chan reasoner.Reasoner, 2*cfg.Workers+1),
		closeWait:  CloseTimeout,
		bscore:     -1,
		grave:      cfg.GRAVE == On,
		chains:     cfg.Chains == On,
		graveFirst: cfg.GRAVEFirst == On,
	}
	s.life, s.endLife = context.WithCancel(context.Background())
	if len(s.roles) == 0 {
		return nil, errors.New("mcts: the game has no roles")
	}
	tmpl, err := r.Fork()
	if err != nil {
		return nil, fmt.Errorf("mcts: forking the reasoner: %w", err)
	}
	s.tmpl = tmpl
	init, err := r.Initial(ctx)
	if err != nil {
		return nil, fmt.Errorf("mcts: initial state: %w", err)
	}
	root, err := s.makeNode(ctx, r, init)
	if err != nil {
		return nil, fmt.Errorf("mcts: initial state: %w", err)
	}
	s.clearTable(0)
	s.root = root
	s.insert(root)
	s.publishView()
	s.publishRoot(root)
	s.publishAdvice()
	pp, canFast := r.(reasoner.PolicyPlayouter)
	if cfg.MAST == On {
		var known func(int) []reasoner.Move
		if canFast {
			known = pp.Moves
		}
		s.mast = make([]*mastTable, cfg.Workers)
		for i := range s.mast {
			s.mast[i] = newMASTTable(len(s.roles), known)
		}
	}
	if len(s.roles) == 1 && cfg.PuzzleShare > 0 {
		s.puz = puzzle.New(searchHost{s}, puzzle.GoalFacts(cfg.Rules), root.state, s.gen, cfg.MaxNodes, cfg.MaxBytes)
	}
	// Policy playouts choose as playout does but cannot record a
	// single-player line.
	s.resist = cfg.Resist == On
	s.fast = canFast && cfg.PolicyPlayouts == On && s.puz == nil
	if wr, ok := r.(reasoner.WinReader); ok && s.fast {
		if cfg.Wins == On {
			s.playWins.Decisive = wr.DecisiveMoves()
			s.wins = decisiveBits(s.playWins.Decisive, pp)
		}
		if cfg.WinFacts == On {
			s.playWins.OnFacts = wr.WinConditions()
		}
		s.winPlay = s.playWins.Any()
	}
	if cfg.GRAVE == Auto && len(s.roles) > 1 {
		s.grave = s.probePlacement(ctx, init)
	}
	return s, nil
}

// Roles returns the roles of the game.
func (s *Search) Roles() []string { return slices.Clone(s.roles) }

// State returns the current state.
func (s *Search) State() *reasoner.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.root.state
}

// Legal returns the legal moves of role in the current state, as the
// reasoner listed them, or nil in a terminal state.
func (s *Search) Legal(role int) []reasoner.Move {
	s.mu.Lock()
	defer s.mu.Unlock()
	if role < 0 || role >= len(s.root.moves) {
		return nil
	}
	return slices.Clone(s.root.moves[role])
}

// finished reports whether searching more cannot change the choice: the
// game is over, the root is proven, or a single-player line reaches the
// highest score. s.mu must be held.
func (s *Search) finished() bool {
	return s.root.solved.Load() || s.bscore >= 1
}

// Run searches until ctx is done or searching more is useless: the value
// of the current state is proven, or in a single-player game a line to the
// highest goal is known. Run returns once its workers have stopped. Each
// checks ctx between reasoner calls, and between the steps of a playout,
// and passes it to the reasoner, so Run returns within one reasoner call
// of the deadline: a reasoner's calls either are short (one evaluation of
// a network) or heed ctx. A call that does neither holds Run up until it
// returns; a caller that must answer at a deadline whatever the reasoner
// does reads TryBest rather than wait for Run. Close ends a Run as a done
// ctx does.
func (s *Search) Run(ctx context.Context) error {
	_, err := s.run(ctx, -1)
	return err
}

// Decide is Run for a search whose purpose is the move of role: it also
// returns once the decision is settled, when at the rate the search has
// run so far no other move of role can overtake the most visited one
// before the deadline of ctx. The move Best then returns is the one it
// would have returned at the deadline, bar a proof found in the time
// saved. settled reports whether Decide returned for that reason.
func (s *Search) Decide(ctx context.Context, role int) (settled bool, err error) {
	if role < 0 || role >= len(s.roles) {
		return false, fmt.Errorf("mcts: no role %d", role)
	}
	return s.run(ctx, role)
}

// settleCheck is how often Decide looks at the root's statistics.
const settleCheck = 10 * time.Millisecond

// The rate Decide settles by is measured over a window of the run that
// starts once the run has done settleWarmup iterations, and is trusted
// once the window holds settleSample. The first iterations of a run pay
// for the turn's one-off work (decaying the playout statistics, expanding
// a new root), which took up to half a second in cephalopodMicro: a rate
// measured from the run's start then read one iteration in 450 ms as the
// search's speed, and the decision settled with most of the clock left.
const (
	settleWarmup = 16
	settleSample = 64
)

// settled reports whether the most visited move of role at the root leads
// the next one by more than the iterations left until deadline, at the
// rate of iters iterations since start, which must be at least
// settleSample. Single-player games are never settled this way: their
// search also looks for lines to the best goal.
func (s *Search) settled(role int, start time.Time, iters int64, deadline time.Time) bool {
	elapsed, left := time.Since(start), time.Until(deadline)
	if elapsed <= 0 || iters < settleSample || len(s.roles) == 1 {
		return false
	}
	remaining := float64(iters) / elapsed.Seconds() * left.Seconds()
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.root
	if n.terminal || len(n.moves[role]) < 2 {
		// Nothing to decide: the search goes on for the turns to come.
		return false
	}
	off := int(n.off[role])
	first, second := 0.0, 0.0
	for i := range n.moves[role] {
		switch v := n.n[off+i].Load(); {
		case v > first:
			first, second = v, first
		case v > second:
			second = v
		}
	}
	return first-second > remaining
}

// errClosed is returned by Run and Decide once Close has been called.
var errClosed = errors.New("mcts: search closed")

func (s *Search) run(ctx context.Context, role int) (settled bool, err error) {
	if !s.owned.Enter() {
		return false, errClosed
	}
	defer s.owned.Leave()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	s.mu.Lock()
	done := s.finished()
	s.mu.Unlock()
	if done || ctx.Err() != nil {
		return false, nil
	}
	if !s.learned && s.cfg.learnsHeuristic() && len(s.roles) > 1 {
		// Learning plays random games in this goroutine, for a share of
		// the time to the deadline, and stops when ctx is done, as the
		// workers do; the search then starts with what it found.
		s.learned = true
		s.learn(ctx)
		if ctx.Err() != nil {
			return false, nil
		}
	}
	heap := []metrics.Sample{{Name: liveHeapMetric}}
	s.checkHeap(heap)
	run := s.runs.Add(1)
	var active atomic.Int32
	active.Store(int32(s.cfg.Workers))
	allDone := make(chan struct{})
	var workers sync.WaitGroup
	for i := range s.cfg.Workers {
		workers.Go(func() {
			s.work(ctx, cancel, run, i)
			if active.Add(-1) == 0 {
				close(allDone)
			}
		})
	}
	// The workers are told to stop and waited for before the run
	// returns; the advice is published after them, so that TryBest
	// answers with all the run found.
	defer func() {
		cancel()
		workers.Wait()
		s.advise()
	}()
	deadline, hasDeadline := ctx.Deadline()
	decide := role >= 0 && hasDeadline
	tick := time.NewTicker(settleCheck)
	defer tick.Stop()
	// The window of the rate: from the tick at which the run has done
	// settleWarmup iterations (zero start until then).
	first := s.iterations.Load()
	var start time.Time
	var base int64
	for {
		select {
		case <-ctx.Done():
			return false, nil
		case <-allDone:
			return false, nil
		case <-tick.C:
			s.checkHeap(heap)
			s.advise()
			if !decide {
				continue
			}
			switch n := s.iterations.Load(); {
			case start.IsZero():
				if n-first >= settleWarmup {
					start, base = time.Now(), n
				}
			case s.settled(role, start, n-base, deadline):
				return true, nil
			}
		}
	}
}

// advise publishes every role's best move in the current state for
// TryBest.
func (s *Search) advise() {
	s.mu.Lock()
	s.publishAdvice()
	s.mu.Unlock()
	if s.advised != nil {
		s.advised()
	}
}

// acquire returns a reasoner instance for a worker: one from the pool, or a
// new fork while fewer than twice the workers exist. It returns nil when
// ctx is done first.
func (s *Search) acquire(ctx context.Context) reasoner.Reasoner {
	select {
	case r := <-s.pool:
		return r
	default:
	}
	if int(s.forks.Load()) < 2*s.cfg.Workers {
		if r, err := s.fork(); err == nil {
			return r
		} else {
			s.logf("mcts: forking the reasoner: %v", err)
		}
	}
	select {
	case r := <-s.pool:
		return r
	case <-ctx.Done():
		return nil
	}
}

func (s *Search) fork() (r reasoner.Reasoner, err error) {
	s.forkMu.Lock()
	defer s.forkMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	r, err = s.tmpl.Fork()
	if err == nil {
		s.forks.Add(1)
	}
	return r, err
}

// release returns r to the pool, or drops it after a panic.
func (s *Search) release(r reasoner.Reasoner, broken bool) {
	if broken || s.closed.Load() {
		s.forks.Add(-1)
		return
	}
	select {
	case s.pool <- r:
	default:
		s.forks.Add(-1)
	}
}

// releaseRecovered is deferred by a goroutine that plays r, acquired
// for a job outside the workers (what): it recovers a panic, counting and
// logging it, and gives r back to the pool unless it panicked.
func (s *Search) releaseRecovered(r reasoner.Reasoner, what string) {
	broken := false
	if p := recover(); p != nil {
		broken = true
		s.panics.Add(1)
		s.logf("mcts: %s: panic: %v", what, p)
	}
	s.release(r, broken)
}

func (s *Search) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		s.cfg.Log.Printf(format, args...)
	}
}

// maxPanics is the number of panics after which a worker gives up for the
// rest of a Run.
const maxPanics = 8

// work is one worker's loop for one Run.
func (s *Search) work(ctx context.Context, stop context.CancelFunc, run uint64, id int) {
	w := newWorker(s, run, id)
	panics := 0
	for ctx.Err() == nil {
		r := s.acquire(ctx)
		if r == nil {
			return
		}
		broken := false
		for ctx.Err() == nil {
			finished, err := w.safeStep(ctx, r)
			if err != nil {
				broken = true
				panics++
				s.panics.Add(1)
				s.logf("mcts: worker %d: %v", id, err)
				break
			}
			if finished {
				stop()
				break
			}
		}
		s.release(r, broken)
		if panics >= maxPanics {
			return
		}
	}
}

// errPanic marks a recovered panic.
var errPanic = errors.New("panic")

// safeStep runs one step of the search, turning a panic into an error.
func (w *worker) safeStep(ctx context.Context, r reasoner.Reasoner) (finished bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			w.abandon()
			finished, err = false, fmt.Errorf("%w: %v", errPanic, p)
		}
	}()
	return w.step(ctx, r), nil
}

// step runs one iteration of the tree search or one expansion of the
// breadth-first search, and reports whether the search is finished.
func (w *worker) step(ctx context.Context, r reasoner.Reasoner) bool {
	s := w.s
	if s.puz != nil && w.puzzleTurn() {
		start := time.Now()
		did := s.puz.Step(ctx, r, w.rng)
		w.puzzleTime += time.Since(start)
		if did {
			return s.isFinished()
		}
		if s.exclusive.Load() {
			// Other workers are finishing a level of the puzzle search.
			time.Sleep(time.Millisecond)
			return false
		}
	}
	start := time.Now()
	w.iterate(ctx, r)
	w.treeTime += time.Since(start)
	return s.isFinished()
}

func (s *Search) isFinished() bool {
	if s.puz == nil {
		// Without the puzzle search there is no best line: the root's
		// proof alone finishes the search, and needs no lock.
		return s.view.Load().root.solved.Load()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.finished()
}

// puzzleTurn reports whether the worker should give its next step to the
// puzzle search, keeping the configured share of time, or all of it while
// that search runs toward a known goal state.
func (w *worker) puzzleTurn() bool {
	share := w.s.cfg.PuzzleShare
	if share >= 1 || w.s.exclusive.Load() {
		return true
	}
	return float64(w.puzzleTime)*(1-share) <= float64(w.treeTime)*share
}

// Advance moves the root to the state reached when every role plays its
// move of joint, given in role order, keeping the part of the tree below
// it and freeing the rest.
func (s *Search) Advance(ctx context.Context, joint []reasoner.Move) error {
	if len(joint) != len(s.roles) {
		return fmt.Errorf("mcts: joint move of %d moves for %d roles", len(joint), len(s.roles))
	}
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if root.terminal {
		return ErrTerminal
	}
	idx := make([]int32, len(joint))
	var j int64
	stride := int64(1)
	for r, m := range joint {
		i := slices.Index(root.moves[r], m)
		if i < 0 {
			return fmt.Errorf("mcts: %s is not a legal move of %s", m, s.roles[r])
		}
		idx[r] = int32(i)
		j += int64(i) * stride
		stride *= int64(len(root.moves[r]))
	}
	s.mu.Lock()
	child := root.child(j)
	s.mu.Unlock()
	if child == nil {
		st, err := s.main.Next(ctx, root.state, joint)
		if err != nil {
			return fmt.Errorf("mcts: next state: %w", err)
		}
		s.mu.Lock()
		child = s.lookup(st)
		s.mu.Unlock()
		if child == nil {
			if child, err = s.makeNode(ctx, s.main, st); err != nil {
				return fmt.Errorf("mcts: next state: %w", err)
			}
		}
	}
	s.publishRoot(child)
	s.mu.Lock()
	s.gen++
	s.root = child
	s.publishView()
	s.prune()
	if len(s.best) > 0 && s.best[0] == joint[0] {
		s.best = s.best[1:]
	} else {
		s.best, s.bscore = nil, -1
	}
	if child.terminal {
		s.best, s.bscore = nil, -1
	}
	s.publishAdvice()
	gen := s.gen
	s.mu.Unlock()
	if s.puz != nil {
		// Lines that the breadth-first graph already knows from the new root.
		s.puz.Reroot(ctx, s.main, child.state, gen)
	}
	return nil
}

// Focus makes every selection at the root take move for role, until the
// root changes: a player that has answered move searches on, while it
// waits for the others' moves, only where the game will go. It reports
// whether move is one of role's moves in the current state.
func (s *Search) Focus(role int, move reasoner.Move) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if role < 0 || role >= len(s.roles) || s.root.terminal {
		return false
	}
	i := slices.Index(s.root.moves[role], move)
	if i < 0 {
		return false
	}
	s.view.Store(&view{root: s.root, gen: s.gen, focusRole: role, focusMove: int32(i)})
	return true
}

// Best returns the move to play for role in the current state: a proven
// best move if there is one, in a single-player game the first move of the
// best line found, and otherwise the move most visited, ties broken by
// mean value. Without any statistics it returns a random legal move.
func (s *Search) Best(role int) (reasoner.Move, error) {
	if role < 0 || role >= len(s.roles) {
		return "", fmt.Errorf("mcts: no role %d", role)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.choose(role)
}

// choose is Best with s.mu held.
func (s *Search) choose(role int) (reasoner.Move, error) {
	if s.root.terminal {
		return "", ErrTerminal
	}
	if m, ok := s.bestMove(role); ok {
		return m, nil
	}
	moves := s.root.moves[role]
	return moves[rand.IntN(len(moves))], nil
}

// bestMove is choose without the random choice: false when the search has
// no statistics to choose by, or in a terminal state. s.mu must be held.
func (s *Search) bestMove(role int) (reasoner.Move, bool) {
	n := s.root
	if n.terminal {
		return "", false
	}
	moves := n.moves[role]
	if len(moves) == 1 {
		return moves[0], true
	}
	if len(s.best) > 0 && s.bscore >= 0 {
		if !n.solved.Load() || s.bscore >= n.value[0] {
			return s.best[0], true
		}
	}
	if n.mover == role && !(s.resist && n.solved.Load() && n.value[role] <= 0) {
		if i := s.provenChoice(n, role); i >= 0 {
			return moves[i], true
		}
	}
	if i := s.robustChoice(n, role); i >= 0 {
		return moves[i], true
	}
	return "", false
}

// MoveStat is what the search knows of one move of a role at the root.
type MoveStat struct {
	Visits float64 // iterations that chose the move
	Mean   float64 // the role's mean value over them, in [0,1]
	// Proven means Mean is the move's proven value: the role alone moves
	// and the state the move reaches is solved.
	Proven bool
}

// RootMove returns the statistics of role's move m at the root; false
// when m is not a legal move of role there.
func (s *Search) RootMove(role int, m reasoner.Move) (MoveStat, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.root
	if role < 0 || role >= len(s.roles) || n.terminal {
		return MoveStat{}, false
	}
	i := slices.Index(n.moves[role], m)
	if i < 0 {
		return MoveStat{}, false
	}
	off := int(n.off[role])
	st := MoveStat{Visits: n.n[off+i].Load()}
	if st.Visits > 0 {
		st.Mean = n.w[off+i].Load() / st.Visits
	}
	if n.mover == role {
		if c := n.child(int64(i)); c != nil && c.solved.Load() {
			st.Mean, st.Proven = c.value[role], true
		}
	}
	return st, true
}

// TryBest is Best for a caller that cannot wait: it returns the move Best
// chose for role when the search last published it (at most settleCheck
// ago while the search runs, and when it stopped), without a lock, so it
// answers the same whatever the search is doing. It returns false when the
// current state is not st, the state the caller is in, or when the search
// had no statistics to choose by.
func (s *Search) TryBest(role int, st *reasoner.State) (reasoner.Move, bool) {
	a := s.advice.Load()
	if a == nil || role < 0 || role >= len(a.moves) || a.moves[role] == "" || !a.state.Equal(st) {
		return "", false
	}
	return a.moves[role], true
}

// rootAdvice is a state and every role's best move in it, "" for none. It
// is never modified once published.
type rootAdvice struct {
	state *reasoner.State
	moves []reasoner.Move
}

// publishAdvice publishes every role's best move at the root for TryBest.
// s.mu must be held.
func (s *Search) publishAdvice() {
	a := &rootAdvice{state: s.root.state, moves: make([]reasoner.Move, len(s.roles))}
	for role := range a.moves {
		a.moves[role], _ = s.bestMove(role)
	}
	s.advice.Store(a)
}

// TryLegal returns the legal moves of role in st if st is the search's
// current state, as the search listed them, for a caller that cannot wait
// for the search: it reads what the search published when its root last
// changed, without a lock, so it answers the same whatever the search is
// doing.
func (s *Search) TryLegal(role int, st *reasoner.State) ([]reasoner.Move, bool) {
	rl := s.rootLegal.Load()
	if rl == nil || role < 0 || role >= len(rl.moves) || len(rl.moves[role]) == 0 || !rl.state.Equal(st) {
		return nil, false
	}
	return slices.Clone(rl.moves[role]), true
}

// rootLegal is a state and every role's legal moves in it; nil moves in a
// terminal state. It is never modified once published.
type rootLegal struct {
	state *reasoner.State
	moves [][]reasoner.Move
}

// publishRoot publishes n, the new root, for TryLegal. A node's state and
// moves do not change once it is made.
func (s *Search) publishRoot(n *node) {
	s.rootLegal.Store(&rootLegal{state: n.state, moves: n.moves})
}

// provenChoice returns the move of the mover role that reaches the proven
// value of a solved node, the soonest where that is a win (sooner), or -1.
func (s *Search) provenChoice(n *node, role int) int {
	if !n.solved.Load() {
		return -1
	}
	best := -1
	var bc *node
	for i := range n.moves[role] {
		if c := n.child(int64(i)); c != nil && c.solved.Load() && c.value[role] == n.value[role] && (bc == nil || sooner(c, bc, role)) {
			best, bc = i, c
		}
	}
	return best
}

// robustChoice returns the most visited move of role, ties broken by mean
// value, leaving out moves proven worse than another proven move, and
// preferring the best proven move to an unproven one of no higher mean;
// -1 when no move has been visited.
func (s *Search) robustChoice(n *node, role int) int {
	off := int(n.off[role])
	k := len(n.moves[role])
	proven, bestProven := -1, -1.0
	if n.mover == role {
		for i := range k {
			if c := n.child(int64(i)); c != nil && c.solved.Load() && c.value[role] > bestProven {
				proven, bestProven = i, c.value[role]
			}
		}
	}
	best, bestN, bestV, bestSolved := -1, 0.0, -1.0, false
	for i := range k {
		visits := n.n[off+i].Load()
		v := 0.0
		if visits > 0 {
			v = n.w[off+i].Load() / visits
		}
		solved := false
		if n.mover == role {
			if c := n.child(int64(i)); c != nil && c.solved.Load() {
				if c.value[role] < bestProven {
					continue
				}
				v, solved = c.value[role], true
			}
		}
		if visits > bestN || (visits == bestN && v > bestV) {
			best, bestN, bestV, bestSolved = i, visits, v, solved
		}
	}
	if proven >= 0 && !bestSolved && bestProven >= bestV {
		return proven
	}
	if bestN == 0 && proven < 0 {
		return -1
	}
	return best
}

// Stats returns statistics of the search.
func (s *Search) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Stats{
		Iterations: s.iterations.Load(),
		Expansions: s.expansions.Load(),
		Nodes:      int(s.nodes.Load()),
		Bytes:      s.bytes.Load(),
		Full:       s.full.Load(),
		RootVisits: int64(s.root.visits.Load()),
		Solved:     s.root.solved.Load(),
		Value:      make([]float64, len(s.roles)),
		BestLine:   len(s.best),
		BestScore:  s.bscore,
		Panics:     s.panics.Load(),
		Heuristic:  s.heuristicSummary(),
		GRAVE:      s.grave,
		Errors:     s.errs.Load(),
	}
	if s.puz != nil {
		st.PuzzleNodes, _ = s.puz.Size()
	}
	n := s.root
	for r := range st.Value {
		switch {
		case n.solved.Load():
			st.Value[r] = n.value[r]
		default:
			var visits, sum float64
			off := int(n.off[r])
			for i := range n.moves[r] {
				visits += n.n[off+i].Load()
				sum += n.w[off+i].Load()
			}
			if visits > 0 {
				st.Value[r] = sum / visits
			}
		}
	}
	return st
}

// CloseTimeout bounds the time Close waits for a Run under way, and for
// the goroutines the search started, to stop.
const CloseTimeout = 2 * time.Second

// Close ends the search: it stops a Run or Decide under way in another
// goroutine, waits for it and for every goroutine the search started to
// end, and releases the tree and the reasoner instances. Runs and Decides
// after Close fail.
//
// A Run stops within one reasoner call, as it does at its deadline (Run).
// Close waits for it at most CloseTimeout, so that a reasoner call that
// never returns cannot hold it forever. Past the bound it releases the
// tree all the same and returns an error that says what it left running:
// a worker in such a call finds the search closed when the call returns,
// drops its reasoner instance and ends, and its Run then returns.
func (s *Search) Close() error {
	s.closed.Store(true)
	s.endLife()
	ctx, cancel := context.WithTimeout(context.Background(), s.closeWait)
	left := s.owned.Close(ctx)
	cancel()
	s.exclusive.Store(false)
	s.mu.Lock()
	s.gen++
	s.lockTable()
	s.clearTable(0)
	s.unlockTable()
	old := s.root
	s.root = &node{state: old.state, terminal: old.terminal, value: old.value,
		mover: old.mover, moves: old.moves, off: old.off,
		n: make([]afloat, len(old.n)), w: make([]afloat, len(old.w))}
	s.root.solved.Store(old.solved.Load())
	s.publishView()
	s.best = nil
	s.mu.Unlock()
	if s.puz != nil {
		s.puz.Close()
	}
	for {
		select {
		case <-s.pool:
			s.forks.Add(-1)
		default:
			if left > 0 {
				return fmt.Errorf("mcts: closed with %d of its goroutines still in reasoner calls after %v; they end when the calls return", left, s.closeWait)
			}
			return nil
		}
	}
}
