package view

import (
	"fmt"
	"html"
	"io"
	"math"

	"github.com/ggp-go/ggp/gamemaster/tournament"
)

// WritePlot draws the mean goal of each player of a tournament with its
// 95% confidence interval as an SVG image: one row per player, a dot at
// the mean and a bar across the interval, on a 0 to 100 scale. It is drawn
// here, in a few dozen lines, rather than by a charting library: the
// picture is simple, the viewer must work without the network, and the
// output is plain text that tests can read.
func WritePlot(w io.Writer, standings []tournament.Standing) error {
	const (
		left, right = 170, 130 // margins for names and values
		plotW       = 420
		rowH        = 34
		top         = 30
		bottom      = 40
	)
	width := left + plotW + right
	height := top + rowH*max(len(standings), 1) + bottom
	x := func(goal float64) float64 { return left + plotW*math.Max(0, math.Min(100, goal))/100 }
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"}

	p := &printer{w: w}
	p.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="13">`+"\n", width, height, width, height)
	p.printf(`<rect width="100%%" height="100%%" fill="#fff"/>` + "\n")
	p.printf(`<text x="%d" y="18" font-weight="bold">Mean goal per player, with 95%% confidence interval</text>`+"\n", left)
	axisY := top + rowH*max(len(standings), 1)
	for g := 0; g <= 100; g += 25 {
		p.printf(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x(float64(g)), top-6, x(float64(g)), axisY)
		p.printf(`<text x="%.1f" y="%d" text-anchor="middle" fill="#555">%d</text>`+"\n", x(float64(g)), axisY+16, g)
	}
	p.printf(`<text x="%.1f" y="%d" text-anchor="middle" fill="#555">goal</text>`+"\n", x(50), axisY+32)
	if len(standings) == 0 {
		p.printf(`<text x="%d" y="%d">no completed matches yet</text>`+"\n", left, top+rowH/2)
	}
	for i, s := range standings {
		y := top + rowH*i + rowH/2
		c := colors[i%len(colors)]
		p.printf(`<g class="player" data-player="%s" data-mean="%.2f" data-ci="%.2f">`+"\n", html.EscapeString(s.Player), s.GoalMean, s.GoalCI95)
		p.printf(`<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-10, y+4, html.EscapeString(clip(s.Player, 22)))
		if s.Matches == 0 {
			p.printf(`<text x="%d" y="%d" fill="#888">no completed match</text></g>`+"\n", left, y+4)
			continue
		}
		label := fmt.Sprintf("%.1f", s.GoalMean)
		if s.GoalCI95 >= 0 {
			lo, hi := x(s.GoalMean-s.GoalCI95), x(s.GoalMean+s.GoalCI95)
			p.printf(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="6" stroke-linecap="round" opacity="0.35"/>`+"\n", lo, y, hi, y, c)
			p.printf(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", lo, y-7, lo, y+7, c)
			p.printf(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", hi, y-7, hi, y+7, c)
			label += fmt.Sprintf(" ± %.1f", s.GoalCI95)
		}
		p.printf(`<circle cx="%.1f" cy="%d" r="6" fill="%s"/>`+"\n", x(s.GoalMean), y, c)
		p.printf(`<text x="%d" y="%d" fill="#333">%s (n=%d)</text>`+"\n", left+plotW+8, y+4, label, s.Matches)
		p.printf("</g>\n")
	}
	p.printf("</svg>\n")
	return p.err
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// printer keeps the first write error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}
