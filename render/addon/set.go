package addon

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Bounds of ParseSet, as in Helm's strvals.
const (
	maxNestedNameLevel = 30
	maxIndex           = 65536
)

var errNotList = errors.New("not a list")

// ParseSet parses `vela addon enable` style k=v arguments into one map, in
// order (later values win), with the semantics of Helm's strvals.ParseInto:
// a.b=c nests maps, a\.b=c is the key "a.b", a={x,y} is a list, a[0]=x sets a
// list index, a=1,b=2 sets two keys. Values are typed: true/false (any case)
// are bools, null is nil, 0 and integers not starting with 0 are int64,
// everything else (0.5, 1e3, 007, 1Gi) is a string.
//
// Errors wrap ErrInvalid and name the argument.
func ParseSet(args []string) (map[string]any, error) {
	out := map[string]any{}
	for _, a := range args {
		if err := parseInto(a, out, typedVal); err != nil {
			return nil, fmt.Errorf("%w: parameter %q: %v", ErrInvalid, a, err)
		}
	}
	return out, nil
}

// parseInto parses one k=v argument into data, as strvals.ParseInto does,
// making each value with leaf. The error says what is wrong, not where.
func parseInto(arg string, data map[string]any, leaf func(string) any) error {
	p := &setParser{sc: strings.NewReader(arg), leaf: leaf}
	return p.parse(data)
}

type setParser struct {
	sc   *strings.Reader
	leaf func(string) any // a value as written to what it sets
}

func (p *setParser) parse(data map[string]any) error {
	for {
		err := p.key(data, 0)
		if err == nil {
			continue
		}
		if err == io.EOF {
			return nil
		}
		return err
	}
}

func (p *setParser) key(data map[string]any, level int) error {
	k, last, err := runesUntil(p.sc, "=[,.")
	switch {
	case err != nil:
		if len(k) == 0 {
			return err
		}
		return fmt.Errorf("key %q has no value", k)
	case last == '[':
		return p.keyList(data, k, level)
	case last == '=':
		return p.keyValue(data, k)
	case last == ',':
		setKey(data, k, "")
		return fmt.Errorf("key %q has no value (cannot end with ,)", k)
	default: // '.'
		return p.keyMap(data, k, level)
	}
}

func (p *setParser) keyList(data map[string]any, k string, level int) error {
	i, err := p.keyIndex()
	if err != nil {
		return fmt.Errorf("error parsing index: %w", err)
	}
	list := []any{}
	if old, ok := data[k]; ok {
		if list, ok = old.([]any); !ok {
			return fmt.Errorf("unable to parse key: %q is not a list", k)
		}
	}
	list, err = p.listItem(list, i, level)
	setKey(data, k, list)
	return err
}

func (p *setParser) keyValue(data map[string]any, k string) error {
	vl, err := p.valList()
	switch err {
	case nil:
		setKey(data, k, vl)
		return nil
	case io.EOF:
		setKey(data, k, "")
		return err
	case errNotList:
		rs, err := p.val()
		if err != nil && err != io.EOF {
			return err
		}
		setKey(data, k, p.leaf(rs))
		return nil
	default:
		return err
	}
}

func (p *setParser) keyMap(data map[string]any, k string, level int) error {
	level++
	if level > maxNestedNameLevel {
		return fmt.Errorf("value name nested level is greater than maximum supported nested level of %d", maxNestedNameLevel)
	}
	inner := map[string]any{}
	if old, ok := data[k]; ok {
		if inner, ok = old.(map[string]any); !ok {
			return fmt.Errorf("unable to parse key: %q is not a map", k)
		}
	}
	err := p.key(inner, level)
	if err == nil && len(inner) == 0 {
		return fmt.Errorf("key map %q has no value", k)
	}
	if len(inner) != 0 {
		setKey(data, k, inner)
	}
	return err
}

func setKey(data map[string]any, key string, v any) {
	if key != "" {
		data[key] = v
	}
}

func setIndex(list []any, i int, v any) ([]any, error) {
	if i < 0 {
		return list, fmt.Errorf("negative %d index not allowed", i)
	}
	if i > maxIndex {
		return list, fmt.Errorf("index of %d is greater than maximum supported index of %d", i, maxIndex)
	}
	if len(list) <= i {
		grown := make([]any, i+1)
		copy(grown, list)
		list = grown
	}
	list[i] = v
	return list, nil
}

func (p *setParser) keyIndex() (int, error) {
	v, _, err := runesUntil(p.sc, "]")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(v)
}

func (p *setParser) listItem(list []any, i, level int) ([]any, error) {
	if i < 0 {
		return list, fmt.Errorf("negative %d index not allowed", i)
	}
	k, last, err := runesUntil(p.sc, "[.=")
	switch {
	case len(k) > 0:
		return list, fmt.Errorf("unexpected data at end of array index: %q", k)
	case err != nil:
		return list, err
	case last == '=':
		vl, err := p.valList()
		switch err {
		case nil:
			return setIndex(list, i, vl)
		case io.EOF:
			return setIndex(list, i, "")
		case errNotList:
			rs, err := p.val()
			if err != nil && err != io.EOF {
				return list, err
			}
			return setIndex(list, i, p.leaf(rs))
		default:
			return list, err
		}
	case last == '[':
		return p.nestedList(list, i, level)
	default: // '.'
		return p.listMap(list, i, level)
	}
}

func (p *setParser) nestedList(list []any, i, level int) ([]any, error) {
	next, err := p.keyIndex()
	if err != nil {
		return list, fmt.Errorf("error parsing index: %w", err)
	}
	var cur []any
	if len(list) > i && list[i] != nil {
		var ok bool
		if cur, ok = list[i].([]any); !ok {
			return list, fmt.Errorf("unable to parse key: index %d is not a list", i)
		}
	}
	inner, err := p.listItem(cur, next, level)
	if err != nil {
		return list, err
	}
	return setIndex(list, i, inner)
}

func (p *setParser) listMap(list []any, i, level int) ([]any, error) {
	inner := map[string]any{}
	if len(list) > i {
		m, ok := list[i].(map[string]any)
		if !ok {
			m = map[string]any{}
			list[i] = m
		}
		inner = m
	}
	if err := p.key(inner, level); err != nil {
		return list, err
	}
	return setIndex(list, i, inner)
}

func (p *setParser) val() (string, error) {
	v, _, err := runesUntil(p.sc, ",")
	return v, err
}

func (p *setParser) valList() ([]any, error) {
	r, _, err := p.sc.ReadRune()
	if err != nil {
		return []any{}, err
	}
	if r != '{' {
		if err := p.sc.UnreadRune(); err != nil {
			return []any{}, err
		}
		return []any{}, errNotList
	}
	list := []any{}
	for {
		rs, last, err := runesUntil(p.sc, ",}")
		switch {
		case err == io.EOF:
			return list, errors.New("list must terminate with '}'")
		case err != nil:
			return list, err
		case last == '}':
			if r, _, err := p.sc.ReadRune(); err == nil && r != ',' {
				if err := p.sc.UnreadRune(); err != nil {
					return list, err
				}
			}
			return append(list, p.leaf(rs)), nil
		default:
			list = append(list, p.leaf(rs))
		}
	}
}

// runesUntil reads up to the first rune in stop, resolving backslash escapes.
func runesUntil(in *strings.Reader, stop string) (string, rune, error) {
	var b strings.Builder
	for {
		r, _, err := in.ReadRune()
		switch {
		case err != nil:
			return b.String(), r, err
		case strings.ContainsRune(stop, r):
			return b.String(), r, nil
		case r == '\\':
			next, _, err := in.ReadRune()
			if err != nil {
				return b.String(), next, err
			}
			b.WriteRune(next)
		default:
			b.WriteRune(r)
		}
	}
}

func typedVal(val string) any {
	switch {
	case strings.EqualFold(val, "true"):
		return true
	case strings.EqualFold(val, "false"):
		return false
	case strings.EqualFold(val, "null"):
		return nil
	case val == "0":
		return int64(0)
	}
	if val != "" && val[0] != '0' {
		if iv, err := strconv.ParseInt(val, 10, 64); err == nil {
			return iv
		}
	}
	return val
}
