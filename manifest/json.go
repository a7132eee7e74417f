package manifest

import (
	"bytes"
	"encoding/json"
)

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
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = FromJSONNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = FromJSONNumbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}
