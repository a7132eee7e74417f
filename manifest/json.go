package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// ErrInvalidJSON is wrapped by errors about a malformed JSON file read as
// JSON (DecodeJSONFile); it wraps ErrInvalidYAML.
var ErrInvalidJSON error = invalidJSON{}

type invalidJSON struct{}

func (invalidJSON) Error() string { return "invalid JSON" }
func (invalidJSON) Unwrap() error { return ErrInvalidYAML }

// DecodeJSON decodes the first JSON value of data into the data model
// objects use here, as Kubernetes' unstructured decoding does: whole
// numbers become int64, other numbers float64.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return FromJSONNumbers(v), nil
}

// FromJSONNumbers replaces the json.Number values in v, in place, by int64
// (whole numbers that fit) or float64, and returns v.
func FromJSONNumbers(v any) any {
	v, _ = fromJSONNumbers(v)
	return v
}

// fromJSONNumbers is FromJSONNumbers that also reports the first number
// out of float64's range (which becomes ±Inf).
func fromJSONNumbers(v any) (any, error) {
	var first error
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		case json.Number:
			if i, err := x.Int64(); err == nil {
				return i
			}
			f, err := x.Float64()
			if err != nil && first == nil {
				first = fmt.Errorf("number %s is out of range", x)
			}
			return f
		}
		return v
	}
	v = walk(v)
	return v, first
}

// DecodeJSONFile reads a JSON file as DecodeJSONStrict does, positioned
// where it is written when the YAML reader can read it too (it cannot read
// escaped UTF-16 surrogate pairs), else at the file's first line.
func DecodeJSONFile(file string, src []byte) (Value, error) {
	v, err := DecodeJSONStrict(file, src)
	if err != nil {
		return Value{}, err
	}
	if vals, yerr := DecodeValues(file, src, 1, DecodeOptions{KeepLists: true, LastKeyWins: true}); yerr == nil && len(vals) == 1 {
		return vals[0], nil
	}
	return Value{Data: v, Pos: Pos{File: file, Line: 1}}, nil
}

// DecodeJSONStrict reads the JSON file src as conftest's JSON parser does
// (encoding/json, after a UTF-8 byte order mark): one value, the last of
// duplicate keys winning; a number out of float64's range, trailing data
// or an empty file is an error (ErrInvalidJSON, at its line and column).
// Numbers are as DecodeJSON's.
func DecodeJSONStrict(file string, src []byte) (any, error) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, terr := dec.Token(); !errors.Is(terr, io.EOF) {
			err = fmt.Errorf("invalid character after top-level value at offset %d", dec.InputOffset())
		}
	}
	if err == nil {
		v, err = fromJSONNumbers(v)
	}
	if err != nil {
		return nil, At(jsonErrorPos(file, src, err), "%w: %v", ErrInvalidJSON, err)
	}
	return v, nil
}

// jsonErrorPos positions a JSON syntax error at its line and column.
func jsonErrorPos(file string, src []byte, err error) Pos {
	var se *json.SyntaxError
	if !errors.As(err, &se) || se.Offset <= 0 {
		return Pos{File: file}
	}
	// Offset counts the bytes read, the offending one included.
	before := src[:min(int(se.Offset)-1, len(src))]
	line := bytes.Count(before, []byte("\n")) + 1
	return Pos{File: file, Line: line, Col: len(before) - bytes.LastIndexByte(before, '\n')}
}

// WholeNumbers returns a copy of v (the JSON data model) with every whole
// float64 of magnitude below limit made an int64: the number a trip
// through text gives back (3.0 is written 3 and read as an integer). limit
// says how far that trip keeps integers: 1<<53 for JSON in KubeVela,
// 1<<63 for YAML's shortest form. v is not changed.
func WholeNumbers(v any, limit float64) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = WholeNumbers(e, limit)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = WholeNumbers(e, limit)
		}
		return out
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < limit {
			return int64(x)
		}
	}
	return v
}
