package gdl

import (
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Limits on what the readers of this package accept. They keep hostile or
// broken input from using unbounded memory, stack or time. The largest public
// games are under 100 KiB, nest less than 30 deep and hold under 20 000
// tokens.
const (
	// MaxSize is the largest source text, in bytes, that ParseFile and
	// ReadExprs accept.
	MaxSize = 16 << 20

	// MaxTokens is the largest number of atoms and parentheses in one
	// source text.
	MaxTokens = 1 << 18

	// MaxDepth is the deepest nesting of parentheses accepted.
	MaxDepth = 1000

	// MaxErrors is the most errors reported for one source text; reading
	// stops at the first MaxErrors errors.
	MaxErrors = 10
)

// Token types, as the participle grammar names them.
const (
	tokAtom  lexer.TokenType = -(iota + 2) // EOF is -1
	tokPunct                               // '(' or ')'
)

var tokenSymbols = map[string]lexer.TokenType{
	"EOF":   lexer.EOF,
	"Atom":  tokAtom,
	"Punct": tokPunct,
}

// kifLexer is the participle lexer definition for KIF. ReadExprs calls the
// scanner itself, to check the whole text before it feeds the tokens to the
// parser; Lex and LexBytes do the same for other users of the grammar.
type kifLexer struct{}

func (kifLexer) Symbols() map[string]lexer.TokenType { return tokenSymbols }

func (kifLexer) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, err
	}
	return kifLexer{}.LexBytes(filename, src)
}

func (kifLexer) LexBytes(filename string, src []byte) (lexer.Lexer, error) {
	s, err := checkedScanner(filename, src)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// checkedScanner returns a scanner at the start of src, once it has checked
// the size of src and everything scanner.check checks.
func checkedScanner(filename string, src []byte) (*scanner, error) {
	if len(src) > MaxSize {
		return nil, ErrorList{{Pos: Pos{Filename: filename}, Msg: fmt.Sprintf("input of %d bytes exceeds the limit of %d", len(src), MaxSize)}}
	}
	s := newScanner(filename, src)
	if s.check(); len(s.errs) > 0 {
		return nil, s.errs
	}
	s.reset()
	return s, nil
}

// A scanner splits a source text into tokens.
type scanner struct {
	filename  string
	src       []byte
	off       int // offset of the next byte to read
	line      int // line of src[off]
	lineStart int // offset of the first byte of the line
	errs      ErrorList
}

func newScanner(filename string, src []byte) *scanner {
	s := &scanner{filename: filename, src: src}
	s.reset()
	return s
}

// reset rewinds the scanner to the start of the text.
func (s *scanner) reset() {
	s.off, s.line, s.lineStart = 0, 1, 0
	if len(s.src) >= 3 && s.src[0] == 0xEF && s.src[1] == 0xBB && s.src[2] == 0xBF {
		s.off = 3 // byte order mark
	}
}

func (s *scanner) pos(off int) lexer.Position {
	return lexer.Position{Filename: s.filename, Offset: off, Line: s.line, Column: off - s.lineStart + 1}
}

func (s *scanner) error(off int, msg string) {
	if len(s.errs) < MaxErrors {
		s.errs.Add(toPos(s.pos(off)), msg)
	}
}

func (s *scanner) full() bool { return len(s.errs) >= MaxErrors }

// illegal reports the character at off, which may not appear outside a
// comment, and returns its length in bytes.
func (s *scanner) illegal(off int) int {
	r, n := utf8.DecodeRune(s.src[off:])
	switch {
	case r == utf8.RuneError && n == 1:
		s.error(off, "invalid UTF-8 encoding")
	case r == 0:
		s.error(off, "illegal character NUL")
	default:
		s.error(off, fmt.Sprintf("illegal character %U", r))
	}
	return n
}

// atomLen returns the length of the atom starting at off, which is 0 when
// the character there is not allowed in atoms.
func atomLen(src []byte, off int) int {
	i := off
	for i < len(src) {
		c := src[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == '(' || c == ')' || c == ';' || c == 0x7F {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n == 1 || !unicode.IsGraphic(r) || unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i - off
}

// scan skips whitespace and comments and returns the kind, offset and
// length of the next token: tokAtom, tokPunct, or lexer.EOF at the end of
// the text. It reports illegal characters in s.errs and skips them.
func (s *scanner) scan() (kind lexer.TokenType, off, n int) {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch c {
		case '\r':
			if s.off+1 < len(s.src) && s.src[s.off+1] == '\n' {
				s.off++ // \r\n ends one line
				continue
			}
			fallthrough // a lone \r ends a line, as in old Mac files
		case '\n':
			s.off++
			s.line++
			s.lineStart = s.off
			continue
		case ' ', '\t', '\f':
			s.off++
			continue
		case ';':
			for s.off < len(s.src) && s.src[s.off] != '\n' && s.src[s.off] != '\r' {
				if s.src[s.off] == 0 {
					s.error(s.off, "illegal character NUL")
				}
				s.off++
			}
			continue
		case '(', ')':
			s.off++
			return tokPunct, s.off - 1, 1
		}
		n := atomLen(s.src, s.off)
		if n == 0 {
			s.off += s.illegal(s.off)
			if s.full() {
				s.off = len(s.src)
			}
			continue
		}
		s.off += n
		return tokAtom, s.off - n, n
	}
	return lexer.EOF, s.off, 0
}

// Next returns the next token, or an EOF token at the end of the text. It
// makes scanner a participle lexer.
func (s *scanner) Next() (lexer.Token, error) {
	kind, off, n := s.scan()
	tok := lexer.Token{Type: kind, Pos: s.pos(off)}
	switch kind {
	case tokAtom:
		tok.Value = string(s.src[off : off+n])
	case tokPunct:
		tok.Value = punct[s.src[off]]
	}
	return tok, nil
}

var punct = [256]string{'(': "(", ')': ")"}

// check scans the whole text and reports in s.errs illegal characters,
// unbalanced parentheses and texts that exceed MaxTokens or MaxDepth. The
// parser runs only on texts that pass, so that it never sees more than
// MaxDepth nested lists.
func (s *scanner) check() {
	var (
		depth   int
		outer   lexer.Position // the '(' that opened the outermost open list
		ntokens int
	)
	for !s.full() {
		kind, off, _ := s.scan()
		if kind == lexer.EOF {
			break
		}
		if ntokens++; ntokens > MaxTokens {
			s.error(off, fmt.Sprintf("more than %d tokens", MaxTokens))
			return
		}
		if kind != tokPunct {
			continue
		}
		if s.src[off] == '(' {
			if depth == 0 {
				outer = s.pos(off)
			}
			if depth++; depth > MaxDepth {
				s.error(off, fmt.Sprintf("lists nested more than %d deep", MaxDepth))
				return
			}
		} else {
			if depth == 0 {
				s.error(off, "unmatched ')'")
				continue
			}
			depth--
		}
	}
	if depth > 0 && !s.full() {
		missing := "1 ')' is"
		if depth > 1 {
			missing = fmt.Sprintf("%d ')' are", depth)
		}
		s.errs.Add(toPos(outer), fmt.Sprintf("unclosed '(': %s missing at the end", missing))
	}
}

func toPos(p lexer.Position) Pos {
	return Pos{Filename: p.Filename, Offset: p.Offset, Line: p.Line, Column: p.Column}
}

// endPos returns the position just past the end of src.
func endPos(filename string, src []byte) Pos {
	s := newScanner(filename, src)
	for {
		if kind, off, _ := s.scan(); kind == lexer.EOF {
			return toPos(s.pos(off))
		}
	}
}
