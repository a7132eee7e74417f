// Package fieldpath is the one way drydock names a place inside an
// object: a Path of key and index segments with one string form.
//
// The string form is the one kubectl and crossplane print: keys joined by
// dots, list indexes in brackets (spec.containers[0].image). A key that
// would not read back after a dot (empty, or holding '.', '[' or ']') is
// written in brackets (metadata.labels[app.kubernetes.io/name]); a key
// that reads as a number, or holds a quote or a ']', is quoted in
// brackets (ports["80"]). Parse reads that form back, so String and Parse
// are inverses for every path.
package fieldpath

import (
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// Segment is one step of a Path: a key of a mapping or an index of a list.
type Segment struct {
	key   string
	index int // -1 for a key
}

// Key returns the segment for mapping key k.
func Key(k string) Segment { return Segment{key: k, index: -1} }

// Index returns the segment for list index i (i >= 0).
func Index(i int) Segment { return Segment{index: i} }

// IsIndex reports whether s is a list index.
func (s Segment) IsIndex() bool { return s.index >= 0 }

// Key returns the mapping key ("" for an index).
func (s Segment) Key() string { return s.key }

// Index returns the list index (-1 for a key).
func (s Segment) Index() int { return s.index }

// String is the segment as it appears in a path after its parent: ".k",
// "[k]", `["k"]` or "[i]".
func (s Segment) String() string {
	var b strings.Builder
	s.write(&b, false)
	return b.String()
}

func (s Segment) write(b *strings.Builder, first bool) {
	switch {
	case s.IsIndex():
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(s.index))
		b.WriteByte(']')
	case isNumber(s.key) || strings.ContainsAny(s.key, `"']`):
		b.WriteByte('[')
		b.WriteString(strconv.Quote(s.key))
		b.WriteByte(']')
	case s.key == "" || strings.ContainsAny(s.key, ".["):
		b.WriteByte('[')
		b.WriteString(s.key)
		b.WriteByte(']')
	default:
		if !first {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
}

// isNumber reports whether strconv.Atoi reads s. Most keys are not
// numbers, and Atoi's error allocates: only what looks like one (a sign,
// then digits) is handed to it.
func isNumber(s string) bool {
	digits := strings.TrimLeft(s, "+-")
	if digits == "" || len(s)-len(digits) > 1 {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	_, err := strconv.Atoi(s)
	return err == nil
}

// Path is a place inside an object, outermost segment first. The empty
// Path is the object itself.
type Path []Segment

// New builds a Path from keys (string) and indexes (int); it panics on any
// other type, as a programming error.
func New(elems ...any) Path {
	p := make(Path, 0, len(elems))
	for _, e := range elems {
		switch v := e.(type) {
		case string:
			p = append(p, Key(v))
		case int:
			p = append(p, Index(v))
		default:
			panic(fmt.Sprintf("fieldpath.New: %T is neither a key nor an index", e))
		}
	}
	return p
}

// Child returns p followed by key k. It never shares p's backing array.
func (p Path) Child(k string) Path { return p.Append(Key(k)) }

// At returns p followed by index i. It never shares p's backing array.
func (p Path) At(i int) Path { return p.Append(Index(i)) }

// Append returns p followed by segs. It never shares p's backing array.
func (p Path) Append(segs ...Segment) Path {
	out := make(Path, len(p), len(p)+len(segs))
	copy(out, p)
	return append(out, segs...)
}

// Join returns p followed by q.
func (p Path) Join(q Path) Path { return p.Append(q...) }

// Parent returns p without its last segment (the empty Path stays empty).
func (p Path) Parent() Path {
	if len(p) == 0 {
		return p
	}
	return p[: len(p)-1 : len(p)-1]
}

// Last returns the last segment, and false for the empty Path.
func (p Path) Last() (Segment, bool) {
	if len(p) == 0 {
		return Segment{}, false
	}
	return p[len(p)-1], true
}

// HasPrefix reports whether p starts with q.
func (p Path) HasPrefix(q Path) bool {
	if len(q) > len(p) {
		return false
	}
	for i := range q {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// Equal reports whether p and q name the same place.
func (p Path) Equal(q Path) bool { return len(p) == len(q) && p.HasPrefix(q) }

// String is the path's one string form ("" for the empty Path).
func (p Path) String() string {
	if len(p) == 0 {
		return ""
	}
	n := 0
	for _, s := range p {
		n += len(s.key) + 4 // the key, or a short index, and its punctuation
	}
	var b strings.Builder
	b.Grow(n)
	for i, s := range p {
		s.write(&b, i == 0)
	}
	return b.String()
}

// PrefixStrings yields the string forms of p and of each of its prefixes,
// longest first, down to the empty Path's "": the places a lookup falls
// back to, building one string for all of them.
func (p Path) PrefixStrings() iter.Seq[string] {
	return func(yield func(string) bool) {
		var b strings.Builder
		var buf [16]int
		ends := buf[:0]
		for i, s := range p {
			s.write(&b, i == 0)
			ends = append(ends, b.Len())
		}
		full := b.String()
		for n := len(p); n > 0; n-- {
			if !yield(full[:ends[n-1]]) {
				return
			}
		}
		yield("")
	}
}

// ErrSyntax is matched (errors.Is) by every error Parse returns.
var ErrSyntax = errors.New("invalid field path")

// syntaxError is Parse's error: what is wrong in which path, worded
// `unterminated [ in "a[b"` as drydock's earlier parsers did.
type syntaxError struct {
	msg, path string
}

func (e *syntaxError) Error() string        { return fmt.Sprintf("%s in %q", e.msg, e.path) }
func (e *syntaxError) Is(target error) bool { return target == ErrSyntax }

// Parse reads a path in the string form String writes. It also accepts
// what users write by hand in the same family: a leading dot, quoted keys
// in single or double quotes (['k'], ["k"]) and a bare bracketed key.
func Parse(s string) (Path, error) {
	p := Path{}
	for i := 0; i < len(s); {
		switch s[i] {
		case '.':
			if i+1 == len(s) || s[i+1] == '.' {
				return nil, &syntaxError{msg: fmt.Sprintf("empty key at offset %d", i+1), path: s}
			}
			i++
		case '[':
			seg, n, err := bracket(s[i:])
			if err != nil {
				return nil, &syntaxError{msg: err.Error(), path: s}
			}
			p = append(p, seg)
			i += n
		default:
			j := i
			for j < len(s) && s[j] != '.' && s[j] != '[' {
				j++
			}
			if strings.IndexByte(s[i:j], ']') >= 0 {
				return nil, &syntaxError{msg: "unexpected ]", path: s}
			}
			p = append(p, Key(s[i:j]))
			i = j
		}
	}
	return p, nil
}

// MustParse is Parse for paths known at compile time; it panics on error.
func MustParse(s string) Path {
	p, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

// bracket reads one bracketed segment at the start of s and returns it
// with the number of bytes it took.
func bracket(s string) (Segment, int, error) {
	if len(s) > 1 && (s[1] == '"' || s[1] == '\'') {
		q, err := quotedPrefix(s[1:])
		if err != nil {
			return Segment{}, 0, err
		}
		end := 1 + len(q)
		if end >= len(s) || s[end] != ']' {
			return Segment{}, 0, errors.New("missing ] after quoted key")
		}
		k, err := unquote(q)
		if err != nil {
			return Segment{}, 0, err
		}
		return Key(k), end + 1, nil
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return Segment{}, 0, errors.New("unterminated [")
	}
	inner := s[1:end]
	if n, err := strconv.Atoi(inner); err == nil {
		if n < 0 {
			return Segment{}, 0, fmt.Errorf("negative index %d", n)
		}
		return Index(n), end + 1, nil
	}
	return Key(inner), end + 1, nil
}

// quotedPrefix returns the quoted string at the start of s (with quotes).
func quotedPrefix(s string) (string, error) {
	if s[0] == '\'' {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", errors.New("unterminated quote")
		}
		return s[:end+2], nil
	}
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", errors.New("unterminated quote")
	}
	return q, nil
}

func unquote(q string) (string, error) {
	if q[0] == '\'' {
		return q[1 : len(q)-1], nil
	}
	return strconv.Unquote(q)
}

// After returns the string form of a path whose string form is prefix,
// followed by s: Key("b").After("a") is "a.b", Index(0).After("") is
// "[0]". It builds paths' string forms as a walk descends without
// building each Path.
func (s Segment) After(prefix string) string {
	var b strings.Builder
	b.Grow(len(prefix) + len(s.key) + 4)
	b.WriteString(prefix)
	s.write(&b, prefix == "")
	return b.String()
}
