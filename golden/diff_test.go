package golden

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// lines joins numbered lines "l1\n".."ln\n" from lo to hi inclusive.
func lines(lo, hi int) string {
	var sb strings.Builder
	for i := lo; i <= hi; i++ {
		fmt.Fprintf(&sb, "l%d\n", i)
	}
	return sb.String()
}

func TestUnified(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want string
	}{
		{name: "equal", a: "x\ny\n", b: "x\ny\n", want: ""},
		{
			name: "one change in the middle, three lines of context",
			a:    lines(1, 9),
			b:    strings.Replace(lines(1, 9), "l5\n", "L5\n", 1),
			want: "--- a\n+++ b\n@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+L5\n l6\n l7\n l8\n",
		},
		{
			name: "changes far apart make two hunks",
			a:    lines(1, 20),
			b:    strings.Replace(strings.Replace(lines(1, 20), "l3\n", "L3\n", 1), "l17\n", "", 1),
			want: "--- a\n+++ b\n@@ -1,6 +1,6 @@\n l1\n l2\n-l3\n+L3\n l4\n l5\n l6\n" +
				"@@ -14,7 +14,6 @@\n l14\n l15\n l16\n-l17\n l18\n l19\n l20\n",
		},
		{
			name: "changes six lines apart share a hunk",
			a:    lines(1, 12),
			b:    strings.Replace(strings.Replace(lines(1, 12), "l2\n", "L2\n", 1), "l9\n", "L9\n", 1),
			want: "--- a\n+++ b\n@@ -1,12 +1,12 @@\n l1\n-l2\n+L2\n l3\n l4\n l5\n l6\n l7\n l8\n-l9\n+L9\n l10\n l11\n l12\n",
		},
		{
			name: "add at end",
			a:    lines(1, 5),
			b:    lines(1, 7),
			want: "--- a\n+++ b\n@@ -3,3 +3,5 @@\n l3\n l4\n l5\n+l6\n+l7\n",
		},
		{
			name: "add at start",
			a:    lines(2, 6),
			b:    lines(1, 6),
			want: "--- a\n+++ b\n@@ -1,3 +1,4 @@\n+l1\n l2\n l3\n l4\n",
		},
		{
			name: "delete all",
			a:    lines(1, 2),
			b:    "",
			want: "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-l1\n-l2\n",
		},
		{
			name: "create from empty, one line",
			a:    "",
			b:    "x\n",
			want: "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n",
		},
		{
			name: "final newline dropped",
			a:    "x\ny\n",
			b:    "x\ny",
			want: "--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n+y\n\\ No newline at end of file\n",
		},
		{
			name: "yaml value change",
			a:    "apiVersion: v1\ndata:\n  color: blue\nkind: ConfigMap\nmetadata:\n  name: app\n",
			b:    "apiVersion: v1\ndata:\n  color: green\n  size: large\nkind: ConfigMap\nmetadata:\n  name: app\n",
			want: "--- a\n+++ b\n@@ -1,6 +1,7 @@\n apiVersion: v1\n data:\n-  color: blue\n+  color: green\n+  size: large\n kind: ConfigMap\n metadata:\n   name: app\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Unified("a", "b", []byte(tt.a), []byte(tt.b))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("unified (-want +got):\n%s", diff)
			}
			checkPatch(t, tt.a, tt.b, got)
		})
	}
}

// TestDiffMinimal checks that the edit script is a shortest one, against
// a dynamic-programming LCS, on random inputs over a small alphabet (many
// repeated lines, the hard case for Myers' middle snake).
func TestDiffMinimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		a := randomLines(rng, rng.IntN(25), 1+rng.IntN(4))
		b := randomLines(rng, rng.IntN(25), 1+rng.IntN(4))
		ops := editScript(a, b)
		edits := 0
		for _, o := range ops {
			if o.kind != ' ' {
				edits++
			}
		}
		if want := len(a) + len(b) - 2*lcsLength(a, b); edits != want {
			t.Fatalf("case %d: %d edits, want %d\na=%q\nb=%q", i, edits, want, a, b)
		}
		checkPatch(t, strings.Join(a, ""), strings.Join(b, ""), Unified("a", "b", []byte(strings.Join(a, "")), []byte(strings.Join(b, ""))))
	}
}

func randomLines(rng *rand.Rand, n, alphabet int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strconv.Itoa(rng.IntN(alphabet)) + "\n"
	}
	return out
}

func lcsLength(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			default:
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestDiffLarge diffs 5,000-line files: interleaved edits, a reversal
// (the worst case: distance ~ 10,000 over shared lines) and a complete
// rewrite.
func TestDiffLarge(t *testing.T) {
	var a, edited, reversed, rewritten strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&a, "  key%d: value%d\n", i, i)
		if i%10 == 0 {
			fmt.Fprintf(&edited, "  key%d: changed%d\n", i, i)
		} else {
			fmt.Fprintf(&edited, "  key%d: value%d\n", i, i)
		}
		fmt.Fprintf(&reversed, "  key%d: value%d\n", 4999-i, 4999-i)
		fmt.Fprintf(&rewritten, "  other%d: value%d\n", i, i)
	}
	for name, b := range map[string]string{"edited": edited.String(), "reversed": reversed.String(), "rewritten": rewritten.String()} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			d := Unified("a", "b", []byte(a.String()), []byte(b))
			t.Logf("%s: %v, %d bytes of diff", name, time.Since(start), len(d))
			checkPatch(t, a.String(), b, d)
		})
	}
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add(lines(1, 20), strings.Replace(lines(1, 20), "l10\n", "", 1))
	f.Add("x\ny", "x\ny\n")
	f.Add("", "new\n")
	f.Add("apiVersion: v1\r\nkind: ConfigMap\r\n", "apiVersion: v1\nkind: ConfigMap\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := Unified("a", "b", []byte(a), []byte(b))
		if (a == b) != (d == "") {
			t.Fatalf("a == b is %v but the diff is %q", a == b, d)
		}
		checkPatch(t, a, b, d)
	})
}

// checkPatch applies diff to a and checks that it gives b and that the
// hunks have the right shape.
func checkPatch(t *testing.T, a, b, diff string) {
	t.Helper()
	got, err := applyPatch(a, diff)
	if err != nil {
		t.Fatalf("apply diff: %v\n%s", err, diff)
	}
	if got != b {
		t.Fatalf("applying the diff gives %q, want %q\n%s", got, b, diff)
	}
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n$`)

// applyPatch is a small unified-diff applier. It also checks that hunk
// headers match their bodies, that hunks are ordered and disjoint, and
// that each has at most contextLines lines of context at either end and
// at least one change.
func applyPatch(a, diff string) (string, error) {
	if diff == "" {
		return a, nil
	}
	src := splitLines([]byte(a))
	dl := splitLines([]byte(diff))
	if len(dl) < 2 || !strings.HasPrefix(dl[0], "--- ") || !strings.HasPrefix(dl[1], "+++ ") {
		return "", fmt.Errorf("missing file header")
	}
	var out []string
	cur := 0 // next line of src to copy
	i := 2
	for i < len(dl) {
		m := hunkHeader.FindStringSubmatch(dl[i])
		if m == nil {
			return "", fmt.Errorf("line %d: bad hunk header %q", i+1, dl[i])
		}
		i++
		oldStart, oldCount := rangeOf(m[1], m[2])
		_, newCount := rangeOf(m[3], m[4])
		pos := oldStart - 1
		if oldCount == 0 {
			pos = oldStart
		}
		if pos < cur || pos > len(src) {
			return "", fmt.Errorf("hunk at line %d out of order", oldStart)
		}
		out = append(out, src[cur:pos]...)
		cur = pos
		var kinds []byte
		na, nb := 0, 0
		for i < len(dl) && !strings.HasPrefix(dl[i], "@@") {
			kind, text := dl[i][0], dl[i][1:]
			i++
			if i < len(dl) && dl[i] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			if kind != '+' {
				if cur >= len(src) || src[cur] != text {
					return "", fmt.Errorf("line %d of a: have %q, hunk says %q", cur+1, src[cur:min(cur+1, len(src))], text)
				}
				cur++
				na++
			}
			if kind != '-' {
				out = append(out, text)
				nb++
			}
			if kind != ' ' && kind != '-' && kind != '+' {
				return "", fmt.Errorf("bad line kind %q", kind)
			}
			kinds = append(kinds, kind)
		}
		if na != oldCount || nb != newCount {
			return "", fmt.Errorf("hunk header says -%d +%d, body has -%d +%d", oldCount, newCount, na, nb)
		}
		s := string(kinds)
		lead, trail := len(s)-len(strings.TrimLeft(s, " ")), len(s)-len(strings.TrimRight(s, " "))
		if lead == len(s) || lead > contextLines || trail > contextLines {
			return "", fmt.Errorf("hunk shape %q", s)
		}
	}
	out = append(out, src[cur:]...)
	return strings.Join(out, ""), nil
}

func rangeOf(start, count string) (int, int) {
	s, _ := strconv.Atoi(start)
	n := 1
	if count != "" {
		n, _ = strconv.Atoi(count)
	}
	return s, n
}
