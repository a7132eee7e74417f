package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// mdBlock is a whole section of a Markdown report that a size cap keeps
// or leaves out: never cut in two (a cut inside a code fence or a
// <details> would change what the rest means).
type mdBlock struct {
	text string
	// rank orders what a cap leaves out: the highest rank first; rank 0
	// (the heading, the summary line and the counts per cluster) is always
	// kept.
	rank int
	// what names the block in the truncation notice ("object diff"),
	// app the application whose section it is ("" for none).
	what, app string
}

// capMarkdown joins the blocks, leaving out, when the whole is more than
// limit bytes (0: no cap), the blocks of the highest rank from the first
// that does not fit on, then those of the next rank, and so on, and
// appending a notice that counts what was left out and names where the
// whole report is. Within a rank, what stays is a prefix of the
// report's order. limitName names the cap in the notice ("": its size).
// A report whose rank-0 blocks alone are over the cap
// is cut at the last line (else the last whole character) that fits.
func capMarkdown(blocks []mdBlock, limit int, limitName, whole string) string {
	total := 0
	for _, b := range blocks {
		total += len(b.text)
	}
	if limitName == "" {
		limitName = sizeName(limit)
	}
	if limit <= 0 || total <= limit {
		var s strings.Builder
		s.Grow(total)
		for _, b := range blocks {
			s.WriteString(b.text)
		}
		return s.String()
	}
	maxRank := 0
	for _, b := range blocks {
		maxRank = max(maxRank, b.rank)
	}
	// The notice when only rank 0 stays is about the longest (a few
	// digits aside).
	rank0 := make([]bool, len(blocks))
	for i, b := range blocks {
		rank0[i] = b.rank == 0
	}
	reserve := len(truncationNotice(blocks, rank0, limitName, whole)) + 8
	for {
		budget := limit - reserve
		keep := make([]bool, len(blocks))
		used := 0
		for rank := 0; rank <= maxRank; rank++ {
			for i, b := range blocks {
				if b.rank != rank {
					continue
				}
				if rank > 0 && used+len(b.text) > budget {
					break
				}
				keep[i] = true
				used += len(b.text)
			}
		}
		var s strings.Builder
		for i, b := range blocks {
			if keep[i] {
				s.WriteString(b.text)
			}
		}
		out := s.String()
		if len(out) > budget {
			out = cutUTF8(out, max(budget, 0))
		}
		out += truncationNotice(blocks, keep, limitName, whole)
		if len(out) <= limit || reserve >= limit {
			return cutUTF8(out, limit)
		}
		reserve += len(out) - limit
	}
}

// truncationNotice says what capMarkdown left out and where the whole
// report is.
func truncationNotice(blocks []mdBlock, keep []bool, limitName, whole string) string {
	var order []string
	count := map[string]int{}
	apps := map[string]map[string]bool{}
	for i, b := range blocks {
		if keep[i] {
			continue
		}
		if count[b.what] == 0 {
			order = append(order, b.what)
			apps[b.what] = map[string]bool{}
		}
		count[b.what]++
		if b.app != "" {
			apps[b.what][b.app] = true
		}
	}
	var parts []string
	for _, what := range order {
		part := Count(count[what], what)
		if n := len(apps[what]); n > 0 {
			part += " of " + Count(n, "application")
		}
		parts = append(parts, part)
	}
	left := strings.Join(parts, ", ")
	if left == "" {
		left = "the end of the report"
	}
	return fmt.Sprintf("\n---\n\n**Cut to fit %s**: left out %s. The whole report: %s.\n", limitName, left, whole)
}

// sizeName writes a cap as GitHub names its limits: 1 MiB, 65,536
// bytes.
func sizeName(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s + " bytes"
}

// cutUTF8 is the longest prefix of s of at most n bytes that ends a line,
// else that ends a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i >= 0 {
		return s[:i+1]
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
