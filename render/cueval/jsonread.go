package cueval

import (
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/drydock-dev/drydock/manifest"
)

// decodeJSONObject is manifest.DecodeJSON of data, which must be an
// object: read by fastJSONObject when it can.
func decodeJSONObject(data []byte) (map[string]any, error) {
	if m, ok := fastJSONObject(data); ok {
		return m, nil
	}
	raw, err := manifest.DecodeJSON(data)
	if err != nil {
		return nil, err
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, errors.New("not an object")
	}
	return m, nil
}

// fastJSONObject is manifest.DecodeJSON of data, a JSON object as
// MarshalJSON writes one, read in one pass; false for what it leaves to
// DecodeJSON (anything that is not one well-formed object, control
// characters in strings).
func fastJSONObject(data []byte) (map[string]any, bool) {
	d := jsonReader{data: data}
	d.space()
	v, ok := d.value()
	if !ok {
		return nil, false
	}
	d.space()
	m, isMap := v.(map[string]any)
	return m, isMap && d.pos == len(d.data)
}

type jsonReader struct {
	data []byte
	pos  int
}

func (d *jsonReader) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *jsonReader) value() (any, bool) {
	if d.pos >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		d.pos++
		m := map[string]any{}
		d.space()
		if d.pos < len(d.data) && d.data[d.pos] == '}' {
			d.pos++
			return m, true
		}
		for {
			d.space()
			if d.pos >= len(d.data) || d.data[d.pos] != '"' {
				return nil, false
			}
			k, ok := d.str()
			if !ok {
				return nil, false
			}
			d.space()
			if d.pos >= len(d.data) || d.data[d.pos] != ':' {
				return nil, false
			}
			d.pos++
			d.space()
			v, ok := d.value()
			if !ok {
				return nil, false
			}
			m[k] = v
			d.space()
			if d.pos >= len(d.data) {
				return nil, false
			}
			switch d.data[d.pos] {
			case ',':
				d.pos++
			case '}':
				d.pos++
				return m, true
			default:
				return nil, false
			}
		}
	case c == '[':
		d.pos++
		l := []any{}
		d.space()
		if d.pos < len(d.data) && d.data[d.pos] == ']' {
			d.pos++
			return l, true
		}
		for {
			d.space()
			v, ok := d.value()
			if !ok {
				return nil, false
			}
			l = append(l, v)
			d.space()
			if d.pos >= len(d.data) {
				return nil, false
			}
			switch d.data[d.pos] {
			case ',':
				d.pos++
			case ']':
				d.pos++
				return l, true
			default:
				return nil, false
			}
		}
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, false
}

func (d *jsonReader) literal(s string) bool {
	if len(d.data)-d.pos < len(s) || string(d.data[d.pos:d.pos+len(s)]) != s {
		return false
	}
	d.pos += len(s)
	return true
}

// str reads a string; one with escapes is encoding/json's; one that is
// not UTF-8 (which encoding/json mends) is left to DecodeJSON.
func (d *jsonReader) str() (string, bool) {
	start := d.pos
	d.pos++
	plain := true
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			tok := d.data[start:d.pos]
			if !utf8.Valid(tok) {
				return "", false
			}
			if plain {
				return string(tok[1 : len(tok)-1]), true
			}
			var s string
			if err := json.Unmarshal(tok, &s); err != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			d.pos += 2
			continue
		case c < 0x20:
			return "", false
		}
		d.pos++
	}
	return "", false
}

// number reads a number as DecodeJSON does: an int64 when strconv reads
// it as one, else a float64.
func (d *jsonReader) number() (any, bool) {
	start := d.pos
	p := d.pos
	if d.data[p] == '-' {
		p++
	}
	digits := func() int {
		n := 0
		for p < len(d.data) && d.data[p] >= '0' && d.data[p] <= '9' {
			p++
			n++
		}
		return n
	}
	switch {
	case p < len(d.data) && d.data[p] == '0':
		p++
	case digits() == 0:
		return nil, false
	}
	if p < len(d.data) && d.data[p] == '.' {
		p++
		if digits() == 0 {
			return nil, false
		}
	}
	if p < len(d.data) && (d.data[p] == 'e' || d.data[p] == 'E') {
		p++
		if p < len(d.data) && (d.data[p] == '+' || d.data[p] == '-') {
			p++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	d.pos = p
	s := string(d.data[start:p])
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, true
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f, true
}
