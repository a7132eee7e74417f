package golden

import (
	"bytes"
	"fmt"
	"strings"
)

// contextLines is how many unchanged lines surround each change in a hunk.
const contextLines = 3

// Unified returns the unified diff of a and b (GNU diff -u format, three
// lines of context) under the names nameA and nameB, or "" if a and b are
// equal. A last line without a newline is followed by the usual
// "\ No newline at end of file" marker.
func Unified(nameA, nameB string, a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	ops := editScript(splitLines(a), splitLines(b))
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", nameA, nameB)
	for _, h := range hunks(ops, contextLines) {
		writeHunk(&sb, ops[h.start:h.end])
	}
	return sb.String()
}

// splitLines splits s after each newline; the last line may lack one.
func splitLines(s []byte) []string {
	var out []string
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, string(s))
			break
		}
		out = append(out, string(s[:i+1]))
		s = s[i+1:]
	}
	return out
}

// op is one line of an edit script: kept (' '), deleted from a ('-') or
// inserted from b ('+'). a and b count the lines of each side before it.
type op struct {
	kind byte
	line string
	a, b int
}

// editScript is a shortest edit script turning a into b, deletions before
// insertions within each change.
func editScript(a, b []string) []op {
	ids := map[string]int{}
	intern := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = len(ids)
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	ia, ib := intern(a), intern(b)
	del, ins := lcs(ia, ib)
	ops := make([]op, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && del[i]:
			ops = append(ops, op{'-', a[i], i, j})
			i++
		case j < len(b) && ins[j]:
			ops = append(ops, op{'+', b[j], i, j})
			j++
		default:
			ops = append(ops, op{' ', a[i], i, j})
			i++
			j++
		}
	}
	return ops
}

// lcs marks the elements of a to delete and of b to insert in a shortest
// edit script. Elements that occur on one side only can never match; they
// are marked first and left out of the search, which keeps wholly
// rewritten files linear.
func lcs(a, b []int) (del, ins []bool) {
	del, ins = make([]bool, len(a)), make([]bool, len(b))
	ka := common(a, b, del)
	kb := common(b, a, ins)
	d := &differ{
		a:   pick(a, ka),
		b:   pick(b, kb),
		del: make([]bool, len(ka)),
		ins: make([]bool, len(kb)),
		vf:  make([]int, len(ka)+len(kb)+4),
		vb:  make([]int, len(ka)+len(kb)+4),
	}
	d.compare(0, len(ka), 0, len(kb))
	for x, i := range ka {
		del[i] = d.del[x]
	}
	for y, j := range kb {
		ins[j] = d.ins[y]
	}
	return del, ins
}

// common returns the indices of s whose element occurs in other, and marks
// the rest in drop.
func common(s, other []int, drop []bool) []int {
	in := make(map[int]bool, len(other))
	for _, id := range other {
		in[id] = true
	}
	var keep []int
	for i, id := range s {
		if in[id] {
			keep = append(keep, i)
		} else {
			drop[i] = true
		}
	}
	return keep
}

func pick(s, idx []int) []int {
	out := make([]int, len(idx))
	for i, x := range idx {
		out[i] = s[x]
	}
	return out
}

// differ is Myers' O(ND) difference algorithm in linear space ("An O(ND)
// Difference Algorithm and Its Variations", 1986, section 4b): find the
// middle snake of an optimal path, then solve both halves. vf and vb hold
// the furthest-reaching forward and backward paths, reused by every call.
type differ struct {
	a, b     []int
	del, ins []bool
	vf, vb   []int
}

// compare marks a shortest edit script between a[aLo:aHi] and b[bLo:bHi].
func (d *differ) compare(aLo, aHi, bLo, bHi int) {
	for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
		aLo, bLo = aLo+1, bLo+1
	}
	for aLo < aHi && bLo < bHi && d.a[aHi-1] == d.b[bHi-1] {
		aHi, bHi = aHi-1, bHi-1
	}
	switch {
	case aLo == aHi:
		for j := bLo; j < bHi; j++ {
			d.ins[j] = true
		}
	case bLo == bHi:
		for i := aLo; i < aHi; i++ {
			d.del[i] = true
		}
	default:
		// Both sides are non-empty and differ at both ends, so the
		// distance is at least 2 and the split point lies strictly inside.
		x, y := d.split(aLo, aHi, bLo, bHi)
		d.compare(aLo, x, bLo, y)
		d.compare(x, aHi, y, bHi)
	}
}

// split returns the start of the middle snake of a shortest edit path
// from (aLo, bLo) to (aHi, bHi).
func (d *differ) split(aLo, aHi, bLo, bHi int) (int, int) {
	a, b := d.a[aLo:aHi], d.b[bLo:bHi]
	n, m := len(a), len(b)
	delta := n - m
	odd := delta&1 != 0
	maxD := (n + m + 1) / 2
	off := maxD + 1
	vf, vb := d.vf[:2*off+1], d.vb[:2*off+1]
	vf[off+1], vb[off+1] = 0, 0
	for e := 0; e <= maxD; e++ {
		for k := -e; k <= e; k += 2 {
			x := next(vf, off, k, e)
			sx, sy := x, x-k
			y := sy
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			vf[off+k] = x
			if kb := delta - k; odd && kb >= -(e-1) && kb <= e-1 && x+vb[off+kb] >= n {
				return aLo + sx, bLo + sy
			}
		}
		for k := -e; k <= e; k += 2 {
			x := next(vb, off, k, e)
			y := x - k
			for x < n && y < m && a[n-1-x] == b[m-1-y] {
				x, y = x+1, y+1
			}
			vb[off+k] = x
			if kf := delta - k; !odd && kf >= -e && kf <= e && x+vf[off+kf] >= n {
				return aLo + n - x, bLo + m - y
			}
		}
	}
	panic("golden: diff found no middle snake") // unreachable: some e <= maxD always overlaps
}

// next is where a path with e edits on diagonal k starts its snake: one
// step down from diagonal k+1 or one step right from diagonal k-1,
// whichever has come further.
func next(v []int, off, k, e int) int {
	if k == -e || (k != e && v[off+k-1] < v[off+k+1]) {
		return v[off+k+1]
	}
	return v[off+k-1] + 1
}

// hunk is the ops[start:end] of one @@ block.
type hunk struct{ start, end int }

// hunks groups the changes of ops with ctx lines of context around each;
// changes at most 2*ctx lines apart share a hunk.
func hunks(ops []op, ctx int) []hunk {
	var hs []hunk
	i := 0
	for {
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			return hs
		}
		start, end := max(i-ctx, 0), i
		for {
			for end < len(ops) && ops[end].kind != ' ' {
				end++
			}
			j := end
			for j < len(ops) && ops[j].kind == ' ' {
				j++
			}
			if j == len(ops) || j-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = j
		}
		hs = append(hs, hunk{start, end})
		i = end
	}
}

// writeHunk writes one hunk: its @@ header, then its lines.
func writeHunk(sb *strings.Builder, ops []op) {
	var na, nb int
	for _, o := range ops {
		if o.kind != '+' {
			na++
		}
		if o.kind != '-' {
			nb++
		}
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(ops[0].a, na), hunkRange(ops[0].b, nb))
	for _, o := range ops {
		sb.WriteByte(o.kind)
		sb.WriteString(o.line)
		if !strings.HasSuffix(o.line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange is a hunk's range of n lines following line before, as GNU
// diff writes it: "l,n", just "l" for one line, and "before,0" when empty.
func hunkRange(before, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", before)
	case 1:
		return fmt.Sprint(before + 1)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}
