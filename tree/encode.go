package tree

import (
	"math"
	"strconv"
	"unicode/utf8"

	yaml2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// Encode is the canonical YAML of an object: what sigs.k8s.io/yaml.Marshal
// writes (keys sorted, block style), byte for byte. That function turns
// the object into JSON, parses the JSON back with go-yaml v2 and encodes
// the result; Encode gives go-yaml the value that round trip produces
// directly (whole floats as integers, invalid UTF-8 replaced, nil
// collections as null), which is most of the cost saved, and writes it
// with emit (emit.go), which writes go-yaml v2's bytes without its
// reflection where it can show they are the same. A value outside
// the JSON data model takes the round trip. One difference: a string
// holding a C1 control character or DEL, which sigs.k8s.io/yaml writes
// into its JSON but then refuses to read, is written escaped.
func Encode(obj *manifest.Object) ([]byte, error) {
	v, ok := jsonModel(obj.Data)
	if !ok {
		return yaml.Marshal(obj.Data)
	}
	if m, isMap := v.(map[string]any); isMap {
		if out, ok := emit(m); ok {
			return out, nil
		}
	}
	return yaml2.Marshal(v)
}

// jsonModel returns v as a JSON round trip read by go-yaml v2 gives it:
// v itself when that changes nothing (the usual case, no copy), else a
// copy. ok is false for a value it does not know (or a float JSON cannot
// write), which must take the round trip.
func jsonModel(v any) (any, bool) {
	if !needsModel(v) {
		return v, true
	}
	return toModel(v)
}

// needsModel reports whether v holds anything a JSON round trip changes
// or that toModel must judge.
func needsModel(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return true
		}
		for k, e := range x {
			if !utf8.ValidString(k) || needsModel(e) {
				return true
			}
		}
		return false
	case []any:
		if x == nil {
			return true
		}
		for _, e := range x {
			if needsModel(e) {
				return true
			}
		}
		return false
	case string:
		return !utf8.ValidString(x)
	case bool, int64, int, nil:
		return false
	}
	return true
}

func toModel(v any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return nil, true
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			m, ok := toModel(e)
			if !ok {
				return nil, false
			}
			out[validUTF8(k)] = m
		}
		return out, true
	case []any:
		if x == nil {
			return nil, true
		}
		out := make([]any, len(x))
		for i, e := range x {
			m, ok := toModel(e)
			if !ok {
				return nil, false
			}
			out[i] = m
		}
		return out, true
	case string:
		return validUTF8(x), true
	case bool, int64, int, nil:
		return x, true
	case float64:
		return floatModel(x)
	}
	return nil, false
}

// floatModel is how go-yaml v2 reads back what encoding/json writes for
// f: a whole number below 1e21 is written in digits and read as an int
// (or a uint64 beyond int64), anything else as the same float64.
func floatModel(f float64) (any, bool) {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return nil, false // encoding/json refuses it: take the round trip for its error
	case f != math.Trunc(f) || math.Abs(f) >= 1e21:
		return f, true
	}
	digits := strconv.FormatFloat(f, 'f', -1, 64)
	if i, err := strconv.ParseInt(digits, 10, 64); err == nil {
		return i, true
	}
	if u, err := strconv.ParseUint(digits, 10, 64); err == nil {
		return u, true
	}
	return f, true
}

// validUTF8 replaces each byte of s that is not valid UTF-8 with U+FFFD,
// as encoding/json does.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}
