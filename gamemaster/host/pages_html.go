package host

// pagesHTML are the templates of the host's pages. They hold no script:
// registration is a plain form, and the viewer's pages show the matches.
const pagesHTML = `
{{define "head"}}<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{.}} · ggp host</title>
<style>
body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em}
table{border-collapse:collapse;margin:.5em 0 1.5em}
td,th{padding:.2em .7em;border-bottom:1px solid #ddd;text-align:left}
td.n{text-align:right}
.token{font-family:monospace;background:#ffd;padding:.3em}
.error{color:#a00}
nav a{margin-right:1em}
</style></head><body>
<nav><a href="/">Standings</a><a href="/register">Register a player</a><a href="/matches">All matches</a></nav>
{{end}}

{{define "ratings"}}<table class="ratings">
<tr><th>Player</th><th>Rating</th><th>95% interval</th><th>Matches</th><th>Aborted</th></tr>
{{range .Ratings}}<tr><td><a href="/player?name={{query .Player}}">{{.Player}}</a></td>
{{if .Rated}}<td class="n">{{elo .Elo}}</td><td>{{elo .Low}} to {{elo .High}}</td>{{else}}<td>unrated</td><td></td>{{end}}
<td class="n">{{.Matches}}</td><td class="n">{{.Aborted}}</td></tr>
{{end}}</table>{{end}}

{{define "matches"}}<table class="matches">
<tr><th>Match</th><th>Game</th><th>Players</th><th>Outcome</th></tr>
{{range .}}<tr>
<td>{{if eq .Status "queued"}}<a href="{{live .ID}}">{{.ID}}</a>{{else}}<a href="{{saved .Tournament .ID}}">{{.ID}}</a>{{end}}</td>
<td>{{.Game}}</td><td>{{range $i, $p := .Players}}{{if $i}}, {{end}}{{$p}}{{end}}</td>
<td>{{if eq .Status "queued"}}in play{{else if .Completed}}{{range $i, $g := .Goals}}{{if $i}}–{{end}}{{$g}}{{end}}{{else}}not completed: {{.Error}}{{end}}</td>
</tr>{{end}}</table>{{end}}

{{define "standings"}}{{template "head" "Standings"}}
<h1>Standings</h1>
<p>Ratings are Bradley–Terry ratings on the Elo scale, from every completed match, with their 95% intervals.</p>
<section id="overall">{{template "ratings" .Overall}}</section>
{{range .Games}}<h2>{{.Game}}</h2>{{template "ratings" .}}{{end}}
<h2>Players</h2>
<table class="players"><tr><th>Player</th><th>URL</th><th>State</th><th>Last answer to INFO</th></tr>
{{range .Players}}<tr><td><a href="/player?name={{query .Name}}">{{.Name}}</a></td><td>{{.URL}}</td>
<td>{{if .Paused}}paused: {{.PauseReason}}{{else}}active{{end}}</td><td>{{.Checked}}</td></tr>{{end}}</table>
<h2>In play</h2>{{template "matches" .Live}}
<h2>Finished</h2>{{template "matches" .Recent}}
</body></html>{{end}}

{{define "register"}}{{template "head" "Register a player"}}
<h1>Register a player</h1>
{{if .Token}}<p id="registered">Player <b>{{.Name}}</b> is registered at {{.URL}}. Its token, which alone can change or pause it, is shown once:</p>
<p class="token" id="token">{{.Token}}</p>
<p>Keep it: <code>curl -X POST -H 'Authorization: Bearer TOKEN' -d '{"paused":true}' HOST/api/host/players/{{.Name}}</code> pauses the player.</p>
{{else}}{{if .Error}}<p class="error" id="error">{{.Error}}</p>{{end}}
<form method="post" action="/register">
<p><label>Name <input name="name" value="{{.Name}}" required maxlength="40"></label></p>
<p><label>URL <input name="url" value="{{.URL}}" required maxlength="1024" placeholder="http://player.example.org:9147/"></label></p>
<p><button type="submit">Register</button></p>
</form>{{end}}
</body></html>{{end}}

{{define "player"}}{{template "head" .Player.Name}}
<h1>{{.Player.Name}}</h1>
<p>URL: {{.Player.URL}}</p>
<p>{{if .Player.Paused}}Paused: {{.Player.PauseReason}}{{else}}Active{{end}}{{if .Player.Checked}}; last answer to INFO {{.Player.Checked}}{{end}}</p>
{{with .Rating}}<p>Rating {{if .Rated}}{{elo .Elo}} ({{elo .Low}} to {{elo .High}}){{else}}none yet{{end}} over {{.Matches}} matches.</p>{{end}}
<h2>Matches</h2>{{template "matches" .Matches}}
</body></html>{{end}}
`
