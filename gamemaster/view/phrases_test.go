package view

import (
	"strings"
	"testing"

	"github.com/ggp-go/ggp/games"
)

func TestSay(t *testing.T) {
	phrases := []games.Phrase{
		{Pattern: "(opened ?d)", Text: "The host opened door ?d."},
		{Pattern: "(same ?a ?a)", Text: "twice ?a"},
		{Pattern: "(pair ?d ?dd)", Text: "?dd after ?d"},
		{Pattern: "yourturn", Text: "Your turn."},
		{Pattern: "(deal ?c ?d)", Text: "the ?c and the ?d"},
	}
	for _, c := range []struct {
		term, want string
		ok         bool
	}{
		{"(opened 2)", "The host opened door 2.", true},
		{"( opened  2 )", "The host opened door 2.", true},
		{"(OPENED 2)", "The host opened door 2.", true}, // KIF is case-insensitive
		{"(opened 2 3)", "", false},
		{"(opened (f 2))", "", false}, // a variable stands for one word
		{"(same 1 1)", "twice 1", true},
		{"(same 1 2)", "", false},
		{"(pair 1 2)", "2 after 1", true}, // ?d does not replace the start of ?dd
		{"yourturn", "Your turn.", true},
		{"(yourturn)", "", false},
		{"(deal jack king)", "the jack and the king", true},
		{"(closed 2)", "", false},
		{"(opened " + strings.Repeat("9", maxTermLen) + ")", "", false},
	} {
		got, ok := say(phrases, c.term)
		if got != c.want || ok != c.ok {
			t.Errorf("say(%q) = %q, %v; want %q, %v", c.term, got, ok, c.want, c.ok)
		}
	}
}

func TestSayAll(t *testing.T) {
	phrases := []games.Phrase{{Pattern: "(drop ?c)", Text: "drop in column ?c"}}
	got := sayAll(phrases, []string{"(drop 1)", "noop", ""}, []string{"(drop 1)", "(drop 7)"})
	want := map[string]string{"(drop 1)": "drop in column 1", "(drop 7)": "drop in column 7"}
	if len(got) != len(want) {
		t.Errorf("sayAll = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("sayAll[%q] = %q, want %q", k, got[k], v)
		}
	}
	if sayAll(nil, []string{"(drop 1)"}) != nil {
		t.Error("sayAll without phrases says something")
	}
}
