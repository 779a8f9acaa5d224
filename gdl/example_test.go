package gdl_test

import (
	"fmt"
	"os"

	"github.com/ggp-go/ggp/gdl"
)

// A two-role game in which the first player to say "stop" wins.
const stopGame = `
(role left) (role right)
(init (control left))
(<= (legal ?r stop) (true (control ?r)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (next (winner ?r)) (does ?r stop))
(<= terminal (true (winner ?r)))
(<= (goal ?r 100) (true (winner ?r)))
(<= (goal ?r 0) (role ?r) (not (true (winner ?r))))
`

func ExampleParseFile() {
	d, err := gdl.ParseFile("stop.kif", []byte(stopGame))
	if err != nil {
		gdl.PrintError(os.Stderr, err)
		return
	}
	fmt.Println("roles:", d.Roles())
	fmt.Println("rules:", len(d.Rules))
	fmt.Println("first rule with a body:", d.Rules[3])
	for _, p := range gdl.Validate(d) {
		fmt.Println(p)
	}
	// Output:
	// roles: [left right]
	// rules: 9
	// first rule with a body: (<= (legal ?r stop) (true (control ?r)))
}

func ExampleParseFile_error() {
	_, err := gdl.ParseFile("bad.kif", []byte("(role white)\n(<= (legal white (move ?x))"))
	fmt.Println(err)
	// Output:
	// bad.kif:2:1: unclosed '(': 1 ')' is missing at the end
}

func ExampleValidate() {
	// The last rule lets a role pass when it is not in control, but
	// nothing in its body says that ?r is a role.
	src := stopGame + "(<= (legal ?r pass) (not (true (control ?r))))\n"
	d, err := gdl.ParseFile("pass.kif", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range gdl.Validate(d) {
		fmt.Println(p)
	}
	// Output:
	// pass.kif:10:12: error: unsafe rule for legal: variable ?r in the head appears in no positive literal of the body
}
