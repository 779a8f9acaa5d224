package gamestest

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// raceSlowdown is how many times slower the race detector makes the code
// under test: its documented cost is 2 to 20 times in time, and the
// reasoners' playouts here run 5 to 10 times slower under it.
const raceSlowdown = 10

// SlowdownEnv names the environment variable that multiplies, for a slow
// or loaded machine, the wall-clock budgets that Scale returns: a
// positive number, such as 3 or 1.5.
const SlowdownEnv = "GGP_TEST_SLOWDOWN"

// Scale returns d, a wall-clock budget that the code under test is given
// in a test (a grounding budget, a learning time, a play clock, a
// deadline to follow a match), scaled for the conditions the test runs
// under: multiplied by raceSlowdown under the race detector and by
// $GGP_TEST_SLOWDOWN when set. It is the one place that decides how much
// more time a slow run gets, so that a test asserts what the code does
// with enough time, not how fast the machine is. It fails the test when
// $GGP_TEST_SLOWDOWN is not a positive number.
func Scale(t testing.TB, d time.Duration) time.Duration {
	t.Helper()
	f, err := slowdown(os.Getenv(SlowdownEnv))
	if err != nil {
		t.Fatal(err)
	}
	if Race {
		f *= raceSlowdown
	}
	return time.Duration(float64(d) * f)
}

// slowdown parses the value of $GGP_TEST_SLOWDOWN: 1 when empty.
func slowdown(v string) (float64, error) {
	if v == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f > 0) || f > 1000 {
		return 0, &slowdownError{v}
	}
	return f, nil
}

// slowdownError says that $GGP_TEST_SLOWDOWN is not a usable factor.
type slowdownError struct{ value string }

func (e *slowdownError) Error() string {
	return SlowdownEnv + "=" + strconv.Quote(e.value) + ": want a positive number up to 1000, such as 3"
}
