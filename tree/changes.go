package tree

import "slices"

// ChangeAction is how a key differs between two keyed sets.
type ChangeAction string

// The actions of a Change.
const (
	// Added keys are only in the new set.
	Added ChangeAction = "added"
	// Changed keys are in both sets, with values that are not the same.
	Changed ChangeAction = "changed"
	// Removed keys are only in the old set.
	Removed ChangeAction = "removed"
)

// Change is one key's difference between two keyed sets: Old is its
// value in the old set, New in the new one (the zero V where absent).
type Change[K comparable, V any] struct {
	Key      K
	Action   ChangeAction
	Old, New V
}

// Changes is the change list from was to now, the one computation behind
// drydock diff's plan, render --watch's report and the golden comparison:
// every key of either set that is Added, Removed or Changed (in both, and
// same says its two values differ), sorted by compare. unchanged counts
// the keys in both whose values are the same. The values are usually an
// object's canonical bytes (same: bytes.Equal), or what a caller keeps
// of them.
func Changes[K comparable, V any](was, now map[K]V, compare func(a, b K) int, same func(old, new V) bool) (changes []Change[K, V], unchanged int) {
	for k, n := range now {
		o, ok := was[k]
		switch {
		case !ok:
			changes = append(changes, Change[K, V]{Key: k, Action: Added, New: n})
		case same(o, n):
			unchanged++
		default:
			changes = append(changes, Change[K, V]{Key: k, Action: Changed, Old: o, New: n})
		}
	}
	for k, o := range was {
		if _, ok := now[k]; !ok {
			changes = append(changes, Change[K, V]{Key: k, Action: Removed, Old: o})
		}
	}
	slices.SortFunc(changes, func(a, b Change[K, V]) int { return compare(a.Key, b.Key) })
	return changes, unchanged
}
