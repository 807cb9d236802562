package cputime

import (
	"math"
	"testing"
	"time"
)

func TestNowAdvancesWithWork(t *testing.T) {
	start, ok := Now()
	if !ok {
		t.Skip("CPU time not available on this platform")
	}
	x := 0
	for i := range 50_000_000 {
		x += i % 7
	}
	end, _ := Now()
	if end <= start || x == 0 {
		t.Fatalf("CPU time did not advance: %v → %v", start, end)
	}
	if end-start > time.Minute {
		t.Fatalf("implausible CPU time %v", end-start)
	}
}

func TestPerDoubling(t *testing.T) {
	tests := []struct {
		name      string
		prev, cur float64
		prevN, n  int
		want      float64
	}{
		{"linear over one doubling", 10, 20, 1000, 2000, 2},
		{"quadratic over one doubling", 10, 40, 1000, 2000, 4},
		{"linear over 1k to 4k", 10, 40, 1000, 4000, 2},
		{"no cost before", 0, 40, 1000, 2000, 0},
		{"no growth in size", 10, 20, 2000, 2000, 0},
	}
	for _, tt := range tests {
		got := PerDoubling(tt.prev, tt.cur, tt.prevN, tt.n)
		if math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: PerDoubling = %v, want %v", tt.name, got, tt.want)
		}
	}
}
