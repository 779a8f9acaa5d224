package rating

import "github.com/ggp-go/ggp/gamemaster/record"

// FromRecord returns the result of a match record, and false if the match
// is still under way (neither completed nor aborted). The game is named by
// the record's game key, else its game name, else its game's URL. The role
// of nature in a GDL-II match (played by the game master, goal 0) is left
// out: it is no player to rate. A match in which some player timed out,
// failed or moved illegally is Errored. A record with missing or
// inconsistent fields gives a Result that Compute reports as a problem.
func FromRecord(r *record.Record) (Result, bool) {
	if !r.IsCompleted && !r.IsAborted {
		return Result{}, false
	}
	res := Result{MatchID: r.MatchID, Game: r.GameKey, Status: Completed}
	if res.Game == "" {
		res.Game = r.GameName
	}
	if res.Game == "" {
		res.Game = r.GameMetaURL
	}
	nature := -1
	for i, role := range r.Roles {
		if r.Nature != "" && role == r.Nature {
			nature = i
		}
	}
	for i, name := range r.PlayerNamesFromHost {
		if i != nature {
			res.Players = append(res.Players, name)
		}
	}
	if r.IsAborted {
		res.Status = Aborted
		return res, true
	}
	for i, g := range r.GoalValues {
		if i != nature {
			res.Goals = append(res.Goals, g)
		}
	}
	for _, step := range r.Errors {
		for i, e := range step {
			if e != "" && i != nature {
				res.Status = Errored
			}
		}
	}
	return res, true
}
