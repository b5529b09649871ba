package assert

import (
	"fmt"
	"testing"
)

func TestJSONBoundedList(t *testing.T) {
	var items []string
	for i := range 25 {
		items = append(items, fmt.Sprint(i))
	}
	tests := []struct {
		n    int
		want string
	}{
		{0, ""},
		{2, "0, 1"},
		{maxListed, "0, 1, 2, 3, 4, 5, 6, 7, 8, 9"},
		{25, "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … and 15 more"},
	}
	for _, tt := range tests {
		if got := boundedList(items[:tt.n]); got != tt.want {
			t.Errorf("boundedList(%d items) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
