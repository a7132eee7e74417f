package report

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Printable returns s with every character a terminal or a CI log could
// take as a command made visible, so that text from inputs (names, kinds,
// file names, messages, diffs) stays text: C0 controls but tab and line
// feed, DEL and bytes that are not UTF-8 become \xNN (ESC is \x1b, CR is
// \r), C1 controls and the bidirectional-text controls that reorder what
// is shown become \uNNNN. Tab and line feed (layout) and every other
// character stay as they are, backslashes included, so Printable is
// idempotent and text without controls comes back unchanged.
func Printable(s string) string {
	if strings.IndexFunc(s, needsEscape) < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && needsEscape(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case needsEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	return b.String()
}

// PrintableLine is Printable for a field that must stay on its line (a
// name in a comment, a heading): a line feed is also made visible, as \n.
func PrintableLine(s string) string {
	return strings.ReplaceAll(Printable(s), "\n", `\n`)
}

// needsEscape reports whether r is a control Printable makes visible.
func needsEscape(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
		return true // bidirectional controls (CVE-2021-42574)
	}
	return false
}

// PrintableWriter writes what it is given through Printable to W: the
// edge where drydock's messages reach a terminal or a CI log. Each Write
// is escaped on its own (a rune split across two writes shows as its
// bytes), so write whole strings, as fmt's printers do. Colours and
// other sequences drydock means to send go to W directly.
type PrintableWriter struct {
	W io.Writer
}

// Write writes p, escaped, to W. It returns len(p) when the escaped text
// was written whole, else the error.
func (w *PrintableWriter) Write(p []byte) (int, error) {
	s := string(p)
	if e := Printable(s); e != s {
		if _, err := io.WriteString(w.W, e); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.W.Write(p)
}
