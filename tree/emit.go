package tree

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	yaml2 "go.yaml.in/yaml/v2"
)

// emit writes v (a value of the JSON data model as jsonModel returns it)
// as go-yaml v2's Marshal does, byte for byte, without its reflection and
// event machinery: a render spends a tenth of its CPU in that encoder.
// It writes only what it can prove v2 writes the same way; ok is false
// for anything else (a string v2 writes over several lines or may fold
// at its 80-column width, a key v2 would write as a complex key, a type
// outside the model), and the caller asks go-yaml v2 instead.
func emit(v map[string]any) (out []byte, ok bool) {
	if len(v) == 0 {
		return []byte("{}\n"), true
	}
	e := emitter{b: make([]byte, 0, 1024)}
	if !e.mapping(v, 0, false) {
		return nil, false
	}
	return e.b, true
}

type emitter struct {
	b    []byte
	keys []string
}

// bestWidth is go-yaml v2's preferred line width: a plain or quoted
// scalar is folded at a space past it.
const bestWidth = 80

// mapping writes m's entries in block style at indent; inline means
// the first entry's indentation is written already ("- ").
func (e *emitter) mapping(m map[string]any, indent int, inline bool) bool {
	start := len(e.keys)
	for k := range m {
		e.keys = append(e.keys, k)
	}
	keys := e.keys[start:]
	slices.SortFunc(keys, func(a, b string) int {
		switch {
		case keyLess(a, b):
			return -1
		case keyLess(b, a):
			return 1
		}
		return 0
	})
	defer func() { e.keys = e.keys[:start] }()
	if !consistent(keys) {
		return false
	}
	for i, k := range keys {
		if i > 0 || !inline {
			e.indent(indent)
		}
		key, ok := keyScalar(k)
		if !ok {
			return false
		}
		e.b = append(e.b, key...)
		e.b = append(e.b, ':')
		switch x := m[k].(type) {
		case map[string]any:
			if len(x) == 0 {
				e.b = append(e.b, " {}\n"...)
				continue
			}
			e.b = append(e.b, '\n')
			if !e.mapping(x, indent+2, false) {
				return false
			}
		case []any:
			if len(x) == 0 {
				e.b = append(e.b, " []\n"...)
				continue
			}
			e.b = append(e.b, '\n')
			if !e.sequence(x, indent, false) {
				return false
			}
		default:
			e.b = append(e.b, ' ')
			if !e.scalar(x, indent+len(key)+2, indent+2) {
				return false
			}
		}
	}
	return true
}

// consistent reports whether keys, sorted by keyLess, are in the one
// order go-yaml v2 gives them whatever the map's iteration order. keyLess
// orders characters totally, letters after the rest, except that runs of
// digits compare as numbers, which is no strict order for some keys
// ("007", "0b101", "1_000", "2a"): where a key holds a digit every pair
// is checked, so that the sorted order is the only one consistent with
// every comparison a sort can make.
func consistent(keys []string) bool {
	digits := false
	for _, k := range keys {
		if strings.ContainsAny(k, "0123456789") || !isASCII(k) {
			digits = true
			break
		}
	}
	if !digits {
		return true
	}
	if len(keys) > 128 {
		return false
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if !keyLess(keys[i], keys[j]) || keyLess(keys[j], keys[i]) {
				return false
			}
		}
	}
	return true
}

// sequence writes s's items in block style at indent ("- " each).
func (e *emitter) sequence(s []any, indent int, inline bool) bool {
	for i, item := range s {
		if i > 0 || !inline {
			e.indent(indent)
		}
		e.b = append(e.b, "- "...)
		switch x := item.(type) {
		case map[string]any:
			if len(x) == 0 {
				e.b = append(e.b, "{}\n"...)
				continue
			}
			if !e.mapping(x, indent+2, true) {
				return false
			}
		case []any:
			if len(x) == 0 {
				e.b = append(e.b, "[]\n"...)
				continue
			}
			if !e.sequence(x, indent+2, true) {
				return false
			}
		default:
			if !e.scalar(x, indent+2, indent+2) {
				return false
			}
		}
	}
	return true
}

func (e *emitter) indent(n int) {
	for range n {
		e.b = append(e.b, ' ')
	}
}

// scalar writes v starting at column col, and the line's end; a folded
// or block scalar's further lines are indented by inner.
func (e *emitter) scalar(v any, col, inner int) bool {
	switch x := v.(type) {
	case string:
		if plainSafe(x) {
			e.b = append(e.b, x...)
			break
		}
		if strings.IndexByte(x, '\n') >= 0 {
			return e.literal(x, inner)
		}
		s, plain, ok := standalone(x)
		switch {
		case !ok:
			return false
		case plain:
			e.plain(x, col, inner)
		case col+len(s) > bestWidth && strings.IndexByte(x, ' ') >= 0:
			// go-yaml folds a quoted scalar at a space past the
			// preferred width, with escapes this emitter does not write.
			return false
		default:
			e.b = append(e.b, s...)
		}
	case bool:
		e.b = strconv.AppendBool(e.b, x)
	case int64:
		e.b = strconv.AppendInt(e.b, x, 10)
	case int:
		e.b = strconv.AppendInt(e.b, int64(x), 10)
	case uint64:
		e.b = strconv.AppendUint(e.b, x, 10)
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		e.b = append(e.b, s...)
	case nil:
		e.b = append(e.b, "null"...)
	default:
		return false
	}
	e.b = append(e.b, '\n')
	return true
}

// plain writes s in plain style from column col as go-yaml v2 does
// (yaml_emitter_write_plain_scalar): a single space past the preferred
// width, before a non-space, becomes a line break and inner's indentation.
func (e *emitter) plain(s string, col, inner int) {
	spaces := false
	for i, r := range s {
		if r == ' ' {
			if !spaces && col > bestWidth && (i+1 >= len(s) || s[i+1] != ' ') {
				e.b = append(e.b, '\n')
				e.indent(inner)
				col = inner
			} else {
				e.b = append(e.b, ' ')
				col++
			}
			spaces = true
			continue
		}
		e.b = utf8.AppendRune(e.b, r)
		col++
		spaces = false
	}
}

// literal writes s, which holds a line break, as go-yaml v2 does: a
// literal block scalar ("|") with its lines indented by inner. It writes
// only printable ASCII without a space before a line break or at the end
// (go-yaml quotes those) and ending in at most one line break (a kept
// "|+" block may make it end the document with "...").
func (e *emitter) literal(s string, inner int) bool {
	for i := 0; i < len(s); i++ {
		if !printable(s, i) || s[i] == ' ' && (i+1 == len(s) || s[i+1] == '\n') {
			return false
		}
	}
	if strings.HasSuffix(s, "\n\n") || s == "\n" {
		return false
	}
	e.b = append(e.b, '|')
	if s[0] == ' ' || s[0] == '\n' {
		e.b = append(e.b, '2')
	}
	last := s[len(s)-1] == '\n'
	if !last {
		e.b = append(e.b, '-')
	}
	e.b = append(e.b, '\n')
	breaks := true
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			e.b = append(e.b, '\n')
			breaks = true
			continue
		}
		if breaks {
			e.indent(inner)
		}
		e.b = append(e.b, s[i])
		breaks = false
	}
	if !last {
		e.b = append(e.b, '\n')
	}
	return true
}

// printable is go-yaml's is_printable for the character at s[i], less
// the line breaks other than \n (U+2028, U+2029) a literal block would
// write as they are.
func printable(s string, i int) bool {
	at := func(j int) byte {
		if j < len(s) {
			return s[j]
		}
		return 0
	}
	b := s[i]
	switch {
	case b == '\n' || b >= 0x20 && b <= 0x7e:
		return true
	case b < 0x80:
		return false
	case b&0xc0 == 0x80:
		return true // a continuation byte: its first byte was judged
	case b == 0xe2 && at(i+1) == 0x80 && (at(i+2) == 0xa8 || at(i+2) == 0xa9):
		return false
	}
	return b == 0xc2 && at(i+1) >= 0xa0 || b > 0xc2 && b < 0xed || b == 0xed && at(i+1) < 0xa0 || b == 0xee ||
		b == 0xef && !(at(i+1) == 0xbb && at(i+2) == 0xbf) && !(at(i+1) == 0xbf && (at(i+2) == 0xbe || at(i+2) == 0xbf))
}

// keyScalar is mapping key k as go-yaml v2 writes it, when that is a
// simple key on one line.
func keyScalar(k string) (string, bool) {
	if plainSafe(k) && len(k) <= 128 {
		return k, true
	}
	// A simple key is at most 128 characters; an empty one is written
	// single-quoted as a key but double-quoted alone.
	if k == "" || len(k) > 128 {
		return "", false
	}
	for i := 0; i < len(k); i++ {
		// Only printable ASCII: a line break makes a complex key.
		if k[i] <= ' ' || k[i] >= 0x7f {
			return "", false
		}
	}
	s, _, ok := standalone(k)
	return s, ok && strings.IndexByte(s, '\n') < 0
}

// plainSafe reports whether go-yaml v2 writes s plain as it is: a letter
// first (no indicator, no number, no timestamp), then letters, digits and
// punctuation that is no indicator in block context, and not a word YAML
// 1.1 reads as a bool or null.
func plainSafe(s string) bool {
	if s == "" {
		return false
	}
	if c := s[0]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.', c == '-', c == '_', c == '/', c == '@', c == '=', c == '+', c == ',':
		case c == ':' && i < len(s)-1:
		default:
			return false
		}
	}
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
		"null", "Null", "NULL":
		return false
	}
	return true
}

// standalone is s, which holds no line break, as go-yaml v2 writes it
// alone at column 0, and whether that is plain style (folded at spaces
// past the preferred width, and that only). ok is false for a form
// that depends on where it stands otherwise. The style does not: results
// are kept, as the same labels and values repeat across objects.
func standalone(s string) (form string, plain, ok bool) {
	standaloneCache.Lock()
	r, ok := standaloneCache.m[s]
	standaloneCache.Unlock()
	if ok {
		return r.form, r.plain, r.ok
	}
	r = standaloneUncached(s)
	standaloneCache.Lock()
	if standaloneCache.m == nil || len(standaloneCache.m) >= standaloneCacheMax {
		standaloneCache.m = make(map[string]standaloneResult)
	}
	standaloneCache.m[s] = r
	standaloneCache.Unlock()
	return r.form, r.plain, r.ok
}

type standaloneResult struct {
	form      string
	plain, ok bool
}

var standaloneCache struct {
	sync.Mutex
	m map[string]standaloneResult
}

const standaloneCacheMax = 4096

func standaloneUncached(s string) standaloneResult {
	out, err := yaml2.Marshal(s)
	if err != nil || !bytes.HasSuffix(out, []byte("\n")) {
		return standaloneResult{}
	}
	out = out[:len(out)-1]
	// A plain scalar is the string itself, folded at spaces.
	var e emitter
	e.plain(s, 0, 2) // go-yaml indents a document's folded scalar by 2
	if string(e.b) == string(out) {
		return standaloneResult{form: s, plain: true, ok: true}
	}
	// A line break other than \n written as it is (in single quotes),
	// or a folded quoted scalar, is followed by the indentation of where
	// the scalar stands; "---" marks a document that starts with a block.
	if bytes.IndexByte(out, '\n') >= 0 || bytes.HasPrefix(out, []byte("---")) ||
		bytes.ContainsAny(out, "\r\u0085\u2028\u2029") {
		return standaloneResult{}
	}
	return standaloneResult{form: string(out), ok: true}
}

// keyLess is go-yaml v2's order of string map keys (its keyList.Less):
// runs of digits compare as numbers, a letter sorts after a non-letter.
func keyLess(a, b string) bool {
	if !isASCII(a) || !isASCII(b) {
		return runeKeyLess([]rune(a), []rune(b))
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		al, bl := isLetter(a[i]), isLetter(b[i])
		if al && bl {
			return a[i] < b[i]
		}
		if al || bl {
			return bl
		}
		var ai, bi int
		var an, bn int64
		if a[i] == '0' || b[i] == '0' {
			for j := i - 1; j >= 0 && isDigit(a[j]); j-- {
				if a[j] != '0' {
					an = 1
					bn = 1
					break
				}
			}
		}
		for ai = i; ai < len(a) && isDigit(a[ai]); ai++ {
			an = an*10 + int64(a[ai]-'0')
		}
		for bi = i; bi < len(b) && isDigit(b[bi]); bi++ {
			bn = bn*10 + int64(b[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return a[i] < b[i]
	}
	return len(a) < len(b)
}

func runeKeyLess(ar, br []rune) bool {
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al := unicode.IsLetter(ar[i])
		bl := unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		var ai, bi int
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an = 1
					bn = 1
					break
				}
			}
		}
		for ai = i; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for bi = i; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
