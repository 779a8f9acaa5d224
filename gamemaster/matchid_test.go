package gamemaster

import "testing"

func TestGameIDPart(t *testing.T) {
	tests := []struct{ key, want string }{
		{"ticTacToe", "ticTacToe"},
		{"shared/connect four", "shared_connect_four"},
		{"a..b", "a_b"},
		{"_x", "g_x"},
		{"-x", "g-x"},
		{"/abs/game", "g_abs_game"},
		{"", "g"},
		{"échecs", "g_checs"},
	}
	for _, tt := range tests {
		got := GameIDPart(tt.key)
		if got != tt.want {
			t.Errorf("GameIDPart(%q) = %q, want %q", tt.key, got, tt.want)
		}
		if !ValidMatchID(got + ".1") {
			t.Errorf("GameIDPart(%q) = %q does not begin a valid match id", tt.key, got)
		}
	}
}
