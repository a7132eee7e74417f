package tree

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

func TestChanges(t *testing.T) {
	type change = Change[string, []byte]
	tests := []struct {
		name          string
		was, now      map[string][]byte
		want          []change
		wantUnchanged int
	}{
		{name: "both empty"},
		{name: "all added", now: map[string][]byte{"b": []byte("2"), "a": []byte("1")},
			want: []change{{Key: "a", Action: Added, New: []byte("1")}, {Key: "b", Action: Added, New: []byte("2")}}},
		{name: "all removed", was: map[string][]byte{"b": []byte("2"), "a": []byte("1")},
			want: []change{{Key: "a", Action: Removed, Old: []byte("1")}, {Key: "b", Action: Removed, Old: []byte("2")}}},
		{name: "one sorted list of every action",
			was: map[string][]byte{"a": []byte("1"), "c": []byte("3"), "d": []byte("4"), "e": []byte("5")},
			now: map[string][]byte{"a": []byte("1"), "b": []byte("2"), "c": []byte("3'"), "e": []byte("5")},
			want: []change{
				{Key: "b", Action: Added, New: []byte("2")},
				{Key: "c", Action: Changed, Old: []byte("3"), New: []byte("3'")},
				{Key: "d", Action: Removed, Old: []byte("4")},
			},
			wantUnchanged: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, unchanged := Changes(tt.was, tt.now, strings.Compare, bytes.Equal)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("changes (-want +got):\n%s", diff)
			}
			if unchanged != tt.wantUnchanged {
				t.Errorf("unchanged = %d, want %d", unchanged, tt.wantUnchanged)
			}
		})
	}
}

// TestChangesSame: same decides what is unchanged, and the order is
// compare's (here by namespace first, as Key.Less orders objects).
func TestChangesSame(t *testing.T) {
	a, b := manifest.Key{Namespace: "z", Name: "a"}, manifest.Key{Namespace: "a", Name: "b"}
	was := map[manifest.Key]string{a: "x", b: "X"}
	now := map[manifest.Key]string{a: "X", b: "y"}
	caseless := func(o, n string) bool { return strings.EqualFold(o, n) }
	byKey := func(p, q manifest.Key) int {
		if p.Less(q) {
			return -1
		}
		return 1
	}
	got, unchanged := Changes(was, now, byKey, caseless)
	want := []Change[manifest.Key, string]{{Key: b, Action: Changed, Old: "X", New: "y"}}
	if diff := cmp.Diff(want, got); diff != "" || unchanged != 1 {
		t.Errorf("unchanged %d (want 1), changes (-want +got):\n%s", unchanged, diff)
	}
}
