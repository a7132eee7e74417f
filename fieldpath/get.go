package fieldpath

import (
	"fmt"
	"strconv"
)

// Get returns the value at p in obj (a tree of map[string]any and []any),
// and whether obj has it. The empty Path is obj itself.
func Get(obj any, p Path) (any, bool) {
	cur := obj
	for _, s := range p {
		switch c := cur.(type) {
		case map[string]any:
			if s.IsIndex() {
				return nil, false
			}
			v, ok := c[s.key]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			if !s.IsIndex() || s.index >= len(c) {
				return nil, false
			}
			cur = c[s.index]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Set stores value at p in obj, creating missing (or null) parents as
// mappings or lists as the next segment asks. A list never grows: an index
// past its end is an error, as is a key into a list or an index into a
// mapping. p must not be empty. Its errors name the segment in its bare
// form ("index 3 out of range"), as KubeVela's field path setter does.
func Set(obj map[string]any, p Path, value any) error {
	if len(p) == 0 {
		return fmt.Errorf("empty field path")
	}
	var cur any = obj
	for i, s := range p {
		last := i == len(p)-1
		switch c := cur.(type) {
		case map[string]any:
			if s.IsIndex() {
				return fmt.Errorf("index %d into an object", s.index)
			}
			if last {
				c[s.key] = value
				return nil
			}
			next, ok := c[s.key]
			if !ok || next == nil {
				next = empty(p[i+1])
				c[s.key] = next
			}
			cur = next
		case []any:
			if !s.IsIndex() || s.index >= len(c) {
				return fmt.Errorf("index %s out of range", s.bare())
			}
			if last {
				c[s.index] = value
				return nil
			}
			cur = c[s.index]
		default:
			return fmt.Errorf("%s is not an object or list", s.bare())
		}
	}
	return nil
}

func empty(next Segment) any {
	if next.IsIndex() {
		return []any{}
	}
	return map[string]any{}
}

// Delete removes the value at p from obj and reports whether there was
// one. A list cannot shrink in place: its item is set to null.
func Delete(obj map[string]any, p Path) bool {
	if len(p) == 0 {
		return false
	}
	parent, ok := Get(obj, p.Parent())
	if !ok {
		return false
	}
	s := p[len(p)-1]
	switch c := parent.(type) {
	case map[string]any:
		if s.IsIndex() {
			return false
		}
		_, had := c[s.key]
		delete(c, s.key)
		return had
	case []any:
		if !s.IsIndex() || s.index >= len(c) {
			return false
		}
		c[s.index] = nil
		return true
	}
	return false
}

// bare is the segment's key or index as it is, without brackets or dots.
func (s Segment) bare() string {
	if s.IsIndex() {
		return strconv.Itoa(s.index)
	}
	return s.key
}
