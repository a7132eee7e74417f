package tree

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestParseOwnership: the OwnershipFile lists one path a line; blank
// lines, comments and white space around a path (a CRLF line end) are
// skipped, the last line may lack its newline, and a path drydock would
// refuse to write is refused.
func TestParseOwnership(t *testing.T) {
	data := ownershipHeader + "a.yaml\r\n\n  # a comment\n c1/ns/x.yaml \nNOTES.txt\nc1/ns/y.yaml"
	o, err := parseOwnership([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"NOTES.txt", "a.yaml", "c1/ns/x.yaml", "c1/ns/y.yaml"}
	if got := slices.Sorted(maps.Keys(o.listed)); !slices.Equal(got, want) {
		t.Errorf("listed %q, want %q", got, want)
	}
	for _, bad := range []string{"../x.yaml", "/abs.yaml", "a/.git/x.yaml", "a//b.yaml"} {
		if _, err := parseOwnership([]byte(ownershipHeader + "a.yaml\n" + bad + "\n")); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("listing %q: %v, want ErrInvalidPath", bad, err)
		}
	}
	if o, err := parseOwnership(nil); err != nil || len(o.listed) != 0 || o.listed == nil {
		t.Errorf("empty file: %v, %v", o.listed, err)
	}
}

// TestParseOwnershipAllocs: reading an OwnershipFile costs a few
// allocations, not one (or more) a listed path.
func TestParseOwnershipAllocs(t *testing.T) {
	var b strings.Builder
	b.WriteString(ownershipHeader)
	for i := range 2000 {
		fmt.Fprintf(&b, "c1/team-%d/deployment.apps_web-%d.yaml\n", i%10, i)
	}
	data := []byte(b.String())
	if n := testing.AllocsPerRun(10, func() {
		if _, err := parseOwnership(data); err != nil {
			t.Fatal(err)
		}
	}); n > 50 {
		t.Errorf("parseOwnership of 2,000 paths allocates %.0f times", n)
	}
}
