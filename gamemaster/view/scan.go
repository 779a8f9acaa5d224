package view

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ggp-go/ggp/gamemaster/record"
	"github.com/ggp-go/ggp/gamemaster/tournament"
	"github.com/ggp-go/ggp/player/seat"
)

// maxDepth bounds how deep below a folder of Options.Dirs records are
// looked for: a tournament folder's records are two levels down.
const maxDepth = 4

// maxFiles bounds the number of files read for one index.
const maxFiles = 100_000

// Index is what the index page shows.
type Index struct {
	Folders     []string         `json:"folders"`
	Live        []MatchSummary   `json:"live"`
	Matches     []MatchSummary   `json:"matches"` // newest first
	Tournaments []TournamentInfo `json:"tournaments"`
	Seats       []seatSummary    `json:"seats"`
	Errors      []string         `json:"errors,omitempty"` // folders that could not be read
}

// MatchSummary is one line of the index: a match, or a file that should
// have been one.
type MatchSummary struct {
	Source     string   `json:"source"` // for /match?src=
	File       string   `json:"file,omitempty"`
	MatchID    string   `json:"matchId,omitempty"`
	Game       string   `json:"game,omitempty"`
	GameName   string   `json:"gameName,omitempty"`
	Tournament string   `json:"tournament,omitempty"`
	Roles      []string `json:"roles,omitempty"`
	Players    []string `json:"players,omitempty"`
	StartTime  int64    `json:"startTime,omitempty"` // ms since 1970
	Steps      int      `json:"steps"`
	Completed  bool     `json:"completed"`
	Aborted    bool     `json:"aborted"`
	Goals      []int    `json:"goals,omitempty"`
	// Result says how the match ended, each goal with its role and
	// player: "xplayer (random) 100, oplayer (random) 0".
	Result string `json:"result,omitempty"`
	// Errors counts the errors of each role: timeouts, connection errors
	// and illegal moves.
	Errors []tournament.ErrorCounts `json:"errors,omitempty"`
	// Error says why the file is not a valid record, or why the match was
	// aborted.
	Error string `json:"error,omitempty"`
}

// TournamentInfo is one tournament of the index.
type TournamentInfo struct {
	Source  string              `json:"source"` // for /api/plot?src=
	Dir     string              `json:"dir"`
	Results *tournament.Results `json:"results,omitempty"`
	Error   string              `json:"error,omitempty"`
}

type seatSummary struct {
	Path    string      `json:"path"` // of its page
	Name    string      `json:"name"`
	MatchID string      `json:"matchId,omitempty"`
	Role    string      `json:"role,omitempty"`
	Status  seat.Status `json:"status"`
}

// summarize returns the index line of a record.
func summarize(r *record.Record, src string) MatchSummary {
	m := MatchSummary{
		Source: src, MatchID: r.MatchID, Game: r.GameKey, GameName: r.GameName,
		Tournament: r.TournamentNameFromHost, Roles: r.Roles, Players: r.PlayerNamesFromHost,
		StartTime: r.StartTime, Steps: r.Steps(), Completed: r.IsCompleted, Aborted: r.IsAborted,
		Goals: r.GoalValues, Error: r.AbortReason,
	}
	if len(r.Errors) > 0 {
		m.Errors = tournament.CountErrors(r.Errors, len(r.Errors[0]))
	}
	if r.IsCompleted {
		var parts []string
		for i, g := range r.GoalValues {
			who := fmt.Sprintf("role %d", i+1)
			if i < len(r.Roles) {
				who = r.Roles[i]
			}
			if r.GDLII && r.Nature != "" && who == r.Nature {
				continue // nature plays to no end: it is not scored
			}
			if i < len(r.PlayerNamesFromHost) && r.PlayerNamesFromHost[i] != "" {
				who += " (" + r.PlayerNamesFromHost[i] + ")"
			}
			parts = append(parts, fmt.Sprintf("%s %d", who, g))
		}
		m.Result = strings.Join(parts, ", ")
	}
	return m
}

// indexCache keeps the summary of every record file read, so that an index
// of a large folder reads only the files that changed since the last one.
type indexCache struct {
	roots []string

	mu      sync.Mutex
	entries map[string]cacheEntry // by file name
}

type cacheEntry struct {
	v   version
	sum MatchSummary
}

func newIndexCache(roots []string) *indexCache {
	return &indexCache{roots: roots, entries: map[string]cacheEntry{}}
}

func statVersion(name string) (version, error) {
	st, err := os.Stat(name)
	if err != nil {
		return version{notFound: errors.Is(err, fs.ErrNotExist)}, err
	}
	return version{mtime: st.ModTime().UnixNano(), size: st.Size()}, nil
}

// found is a file seen by a scan.
type found struct {
	name string // file name
	src  string // source
	v    version
}

// scan reads the folders and returns the index, matches newest first.
func (c *indexCache) scan(ctx context.Context) *Index {
	// Every list is a list, even empty: the index of a viewer without
	// folders (ggp match without --out) has live matches alone.
	idx := &Index{Folders: slices.Concat([]string{}, c.roots), Live: []MatchSummary{}, Matches: []MatchSummary{}, Tournaments: []TournamentInfo{}, Seats: []seatSummary{}}
	var files []found
	for i, root := range c.roots {
		err := walk(root, func(rel string, d fs.DirEntry) {
			name := filepath.Join(root, filepath.FromSlash(rel))
			src := strconv.Itoa(i) + "/" + rel
			if path.Base(rel) == tournament.ResultsFile {
				idx.Tournaments = append(idx.Tournaments, readTournament(name, src))
				return
			}
			if len(files) >= maxFiles {
				return
			}
			info, err := d.Info()
			if err != nil {
				return
			}
			files = append(files, found{name, src, version{mtime: info.ModTime().UnixNano(), size: info.Size()}})
		})
		if err != nil {
			idx.Errors = append(idx.Errors, err.Error())
		}
	}
	sums := make([]MatchSummary, len(files))
	var todo []int
	c.mu.Lock()
	for i, f := range files {
		if e, ok := c.entries[f.name]; ok && e.v == f.v {
			sums[i] = e.sum
		} else {
			todo = append(todo, i)
		}
	}
	c.mu.Unlock()
	c.read(ctx, files, todo, sums)
	for _, m := range sums {
		if m.Source != "" {
			idx.Matches = append(idx.Matches, m)
		}
	}
	sortMatches(idx.Matches)
	return idx
}

// sortMatches sorts matches newest first.
func sortMatches(ms []MatchSummary) {
	slices.SortStableFunc(ms, func(a, b MatchSummary) int {
		if a.StartTime != b.StartTime {
			if a.StartTime > b.StartTime {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Source, b.Source)
	})
}

// read summarizes files[i] for every i of todo into sums[i], on all
// processors, and caches the summaries.
func (c *indexCache) read(ctx context.Context, files []found, todo []int, sums []MatchSummary) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Go(func() {
			for i := range next {
				f := files[i]
				sums[i] = summarizeFile(f.name, f.src)
				c.mu.Lock()
				c.entries[f.name] = cacheEntry{f.v, sums[i]}
				c.mu.Unlock()
			}
		})
	}
	for _, i := range todo {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
}

// summarizeFile reads a record file; a file that is no record gives a
// line that says why.
func summarizeFile(name, src string) MatchSummary {
	r, err := record.ReadFile(name)
	if err == nil {
		err = r.Check()
	}
	if err != nil {
		return MatchSummary{Source: src, File: name, Error: err.Error()}
	}
	m := summarize(r, src)
	m.File = name
	return m
}

// walk calls f with every record candidate below root: the .json files,
// other than a tournament's manifest, at most maxDepth folders down,
// skipping hidden files and folders.
func walk(root string, f func(rel string, d fs.DirEntry)) error {
	return fs.WalkDir(os.DirFS(root), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return fmt.Errorf("folder %s: %w", root, err)
			}
			return nil // an unreadable subfolder: skip it
		}
		if p == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if strings.Count(p, "/")+1 >= maxDepth {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(p, ".json") || d.Name() == tournament.ManifestFile {
			return nil
		}
		f(p, d)
		return nil
	})
}

// maxResultsSize bounds the size of a tournament's results file.
const maxResultsSize = 64 << 20

func readTournament(name, src string) TournamentInfo {
	t := TournamentInfo{Source: src, Dir: filepath.Dir(name)}
	res, err := readResults(name)
	if err != nil {
		t.Error = err.Error()
		return t
	}
	t.Results = res
	return t
}

func readResults(name string) (*tournament.Results, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxResultsSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxResultsSize {
		return nil, fmt.Errorf("%s: more than %d bytes", name, maxResultsSize)
	}
	var res tournament.Results
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&res); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &res, nil
}

// results reads the results of the tournament whose results file is src.
func (c *indexCache) results(src string) (*tournament.Results, error) {
	s, err := parseSource(src)
	if err != nil {
		return nil, err
	}
	if s.live != "" || s.root >= len(c.roots) || path.Base(s.path) != tournament.ResultsFile {
		return nil, fmt.Errorf("tournament %q: %w", src, errNotFound)
	}
	return readResults(filepath.Join(c.roots[s.root], filepath.FromSlash(s.path)))
}
