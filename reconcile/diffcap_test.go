package reconcile

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChangeDiffCapped: Plan.MaxDiffLines cuts each diff after that many
// lines with a line saying how many were left out; a diff no longer
// than the cap, or no cap, is whole.
func TestChangeDiffCapped(t *testing.T) {
	c := &Change{Path: "local/x.yaml", Base: []byte("a: 1\nb: 1\n"), Head: []byte("a: 2\nb: 2\n")}
	whole := c.Diff()
	n := strings.Count(whole, "\n")
	for _, tt := range []struct {
		max  int
		want string
	}{
		{0, whole},
		{n, whole},
		{n + 5, whole},
		{2, strings.Join(strings.SplitAfter(whole, "\n")[:2], "") + "... " + strconv.Itoa(n-2) + " more diff lines (--max-diff-lines 2)\n"},
	} {
		p := &Plan{MaxDiffLines: tt.max}
		if diff := cmp.Diff(tt.want, p.ChangeDiff(c)); diff != "" {
			t.Errorf("max %d (-want +got):\n%s", tt.max, diff)
		}
	}
}
