package gdl

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// These tests feed the readers hostile input: each must end quickly with a
// bounded list of errors, never a panic, a stack overflow or a hang.

// parseBounded runs ParseFile and fails the test if it takes longer than
// limit or returns more than MaxErrors errors.
func parseBounded(t *testing.T, src []byte, limit time.Duration) ErrorList {
	t.Helper()
	start := time.Now()
	d, err := ParseFile("junk", src)
	if elapsed := time.Since(start); elapsed > limit {
		t.Errorf("ParseFile took %v, want under %v", elapsed, limit)
	}
	if err == nil {
		t.Fatalf("ParseFile accepted the input: %d rules", len(d.Rules))
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v (%T) is not an ErrorList", err, err)
	}
	if len(list) == 0 || len(list) > MaxErrors {
		t.Errorf("got %d errors, want 1 to %d", len(list), MaxErrors)
	}
	return list
}

func TestHugeInput(t *testing.T) {
	src := bytes.Repeat([]byte("(cell 1 1 b)\n"), 50<<20/13+1) // 50 MB
	list := parseBounded(t, src, time.Second)
	want := fmt.Sprintf("junk: input of %d bytes exceeds the limit of %d", len(src), MaxSize)
	if list.Error() != want {
		t.Errorf("got %q, want %q", list.Error(), want)
	}
	if _, err := ReadExprs("junk", src); err == nil || err.Error() != want {
		t.Errorf("ReadExprs: got %v, want %q", err, want)
	}
	if _, err := ParseTerm(string(src)); err == nil {
		t.Error("ParseTerm accepted 50 MB")
	}
}

func TestMaxSize(t *testing.T) {
	// An input of exactly MaxSize bytes is read; one more byte is refused.
	src := bytes.Repeat([]byte(" "), MaxSize)
	copy(src, "(role a)")
	d, err := ParseFile("", src)
	if err != nil || len(d.Rules) != 1 {
		t.Errorf("ParseFile of %d bytes: %v", len(src), err)
	}
	src = append(src, ' ')
	if _, err := ParseFile("", src); err == nil {
		t.Errorf("ParseFile of %d bytes: no error", len(src))
	}
}

func TestDeepNesting(t *testing.T) {
	const n = 100_000
	for _, src := range []string{
		strings.Repeat("(", n),
		strings.Repeat("(", n) + strings.Repeat(")", n),
		strings.Repeat("(a ", n) + strings.Repeat(")", n),
	} {
		list := parseBounded(t, []byte(src), time.Second)
		want := fmt.Sprintf("junk:1:%d: lists nested more than %d deep", MaxDepth+1, MaxDepth)
		if src[1] == 'a' {
			want = fmt.Sprintf("junk:1:%d: lists nested more than %d deep", 3*MaxDepth+1, MaxDepth)
		}
		if list.Error() != want {
			t.Errorf("got %q, want %q", list.Error(), want)
		}
		if _, err := ReadExprs("junk", []byte(src)); err == nil || err.Error() != want {
			t.Errorf("ReadExprs: got %v, want %q", err, want)
		}
	}
}

func TestMaxDepth(t *testing.T) {
	// A fact whose lists nest exactly MaxDepth deep is read.
	src := "(p " + strings.Repeat("(f ", MaxDepth-1) + "a" + strings.Repeat(")", MaxDepth)
	d, err := ParseFile("", []byte(src))
	if err != nil {
		t.Fatalf("nesting %d deep: %v", MaxDepth, err)
	}
	depth := 1
	for t := d.Rules[0].Head.Args[0]; ; depth++ {
		f, ok := t.(*Func)
		if !ok {
			break
		}
		t = f.Args[0]
	}
	if depth != MaxDepth {
		t.Errorf("read %d nested lists, want %d", depth, MaxDepth)
	}
	// The printer writes it back.
	if got := Format(d); got != src+"\n" {
		t.Errorf("Format differs from the source at depth %d", MaxDepth)
	}
	// One more level is refused.
	src = "(p " + strings.Repeat("(f ", MaxDepth) + "a" + strings.Repeat(")", MaxDepth+1)
	_, err = ParseFile("", []byte(src))
	checkErrors(t, err, "", []string{fmt.Sprintf("1:%d: lists nested more than %d deep", 3*MaxDepth+1, MaxDepth)})
}

func TestMaxTokens(t *testing.T) {
	src := strings.Repeat("(a b c d e f g h)\n", MaxTokens/10) // 10 tokens a line
	if _, err := ReadExprs("", []byte(src)); err != nil {
		t.Fatalf("%d tokens: %v", MaxTokens/10*10, err)
	}
	src = strings.Repeat("a\n", MaxTokens) + "b c"
	_, err := ReadExprs("", []byte(src))
	checkErrors(t, err, "", []string{fmt.Sprintf("%d:1: more than %d tokens", MaxTokens+1, MaxTokens)})
}

func TestBinaryJunk(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		src := make([]byte, 1<<16+i*1000)
		for j := range src {
			src[j] = byte(r.Uint32())
		}
		parseBounded(t, src, time.Second)
		if _, err := ReadExprs("junk", src); err == nil {
			t.Errorf("ReadExprs accepted random bytes")
		}
	}
	// Junk made of characters that are each valid somewhere.
	alphabet := []byte("();?a \n\x00\xff")
	for range 200 {
		src := make([]byte, r.IntN(200))
		for j := range src {
			src[j] = alphabet[r.IntN(len(alphabet))]
		}
		// Any outcome is allowed but a panic or an unbounded error list.
		_, err := ParseFile("junk", src)
		var list ErrorList
		if err != nil && (!errors.As(err, &list) || len(list) > MaxErrors) {
			t.Errorf("ParseFile(%q): %v", src, err)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	for _, src := range [][]byte{nil, {}, []byte("\uFEFF")} {
		d, err := ParseFile("empty.kif", src)
		if d != nil {
			t.Errorf("ParseFile(%q) returned a description", src)
		}
		col := 1
		if len(src) == 3 {
			col = 4 // after the byte order mark
		}
		checkErrors(t, err, "empty.kif", []string{fmt.Sprintf("1:%d: no rules", col)})
	}
}
