package clock

import (
	"context"
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	deadline := time.Now().Add(time.Hour)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	tests := []struct {
		name     string
		b        Budget
		earliest time.Time // the deadline is at this or later
		latest   time.Time // and at this or earlier
	}{
		{"margin once", New(ctx, 0, Margin{Fixed: time.Minute, Share: 0.5}), deadline.Add(-31 * time.Minute), deadline.Add(-30*time.Minute + time.Second)},
		{"no margin", FromContext(ctx), deadline, deadline},
		{"half of it", FromContext(ctx).Share(0.5), deadline.Add(-31 * time.Minute), deadline.Add(-29 * time.Minute)},
		{"clock without deadline", New(context.Background(), time.Hour, Margin{}), time.Now().Add(59 * time.Minute), time.Now().Add(61 * time.Minute)},
	}
	for _, tt := range tests {
		got, ok := tt.b.Deadline()
		if !ok || got.Before(tt.earliest) || got.After(tt.latest) {
			t.Errorf("%s: deadline %v (%v), want between %v and %v", tt.name, got, ok, tt.earliest, tt.latest)
		}
	}
}

func TestUnbounded(t *testing.T) {
	b := FromContext(context.Background()).Share(0.5)
	if _, ok := b.Deadline(); ok {
		t.Error("the share of a budget without a deadline has one")
	}
	ctx, cancel := b.Context(context.Background())
	defer cancel()
	if _, ok := ctx.Deadline(); ok {
		t.Error("the context of a budget without a deadline has one")
	}
}

// TestMarginOrDefault checks that a margin not set takes the defaults,
// part by part, that a margin set keeps its value, and that a negative
// share keeps none.
func TestMarginOrDefault(t *testing.T) {
	tests := []struct {
		m, want Margin
	}{
		{Margin{}, Margin{DefaultFixed, DefaultShare}},
		{Margin{Fixed: -time.Second}, Margin{DefaultFixed, DefaultShare}},
		{Margin{Fixed: time.Second}, Margin{time.Second, DefaultShare}},
		{Margin{Share: 0.2}, Margin{DefaultFixed, 0.2}},
		{Margin{Fixed: time.Millisecond, Share: -1}, Margin{time.Millisecond, 0}},
	}
	for _, tt := range tests {
		if got := tt.m.OrDefault(); got != tt.want {
			t.Errorf("%+v.OrDefault() = %+v, want %+v", tt.m, got, tt.want)
		}
	}
}
