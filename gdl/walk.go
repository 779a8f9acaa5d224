package gdl

// Inspect traverses the tree rooted at node in depth-first order, as
// go/ast.Inspect does: it starts by calling f(node). If f returns true,
// Inspect invokes f recursively for each of the non-nil children of node,
// in the order they are written, followed by a call of f(nil). A nil node,
// or a child that is a nil pointer, is skipped without calling f, so f never
// sees a typed nil.
//
// The children of each node are:
//
//	*Description  its Rules
//	*Rule         Head, then each literal of Body
//	*Sentence     Name, then Args
//	*Func         Name, then Args
//	*Not          Arg
//	*Distinct     X, then Y
//	*Or           Disjuncts
//	*Const, *Var  none
//
// The recursion is as deep as the tree; ParseFile bounds the nesting of
// what it returns.
func Inspect(node Node, f func(Node) bool) {
	if isNil(node) || !f(node) {
		return
	}
	switch n := node.(type) {
	case *Description:
		for _, r := range n.Rules {
			Inspect(r, f)
		}
	case *Rule:
		Inspect(n.Head, f)
		for _, l := range n.Body {
			Inspect(l, f)
		}
	case *Sentence:
		Inspect(n.Name, f)
		for _, a := range n.Args {
			Inspect(a, f)
		}
	case *Func:
		Inspect(n.Name, f)
		for _, a := range n.Args {
			Inspect(a, f)
		}
	case *Not:
		Inspect(n.Arg, f)
	case *Distinct:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *Or:
		for _, d := range n.Disjuncts {
			Inspect(d, f)
		}
	}
	f(nil)
}

// isNil reports whether n is nil or holds a nil pointer.
func isNil(n Node) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *Const:
		return n == nil
	case *Var:
		return n == nil
	case *Func:
		return n == nil
	case *Sentence:
		return n == nil
	case *Not:
		return n == nil
	case *Distinct:
		return n == nil
	case *Or:
		return n == nil
	case *Rule:
		return n == nil
	case *Description:
		return n == nil
	}
	return false
}

// IsGround reports whether n holds no variable.
func IsGround(n Node) bool {
	ground := true
	Inspect(n, func(n Node) bool {
		if _, ok := n.(*Var); ok {
			ground = false
		}
		return ground
	})
	return ground
}
