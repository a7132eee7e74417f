package render

import (
	"fmt"

	"github.com/drydock-dev/drydock/manifest"
)

// SetFieldPath sets value at a crossplane-style field path such as
// spec.template.spec.containers[0].image or metadata.labels["app"].
func SetFieldPath(obj map[string]any, path string, value any) error {
	segs, err := manifest.ParseFieldPath(path)
	if err != nil {
		return err
	}
	var cur any = obj
	for i, s := range segs {
		last := i == len(segs)-1
		switch c := cur.(type) {
		case map[string]any:
			key, ok := s.(string)
			if !ok {
				return fmt.Errorf("index %v into an object", s)
			}
			if last {
				c[key] = value
				return nil
			}
			next, exists := c[key]
			if !exists || next == nil {
				if _, isIdx := segs[i+1].(int); isIdx {
					next = []any{}
				} else {
					next = map[string]any{}
				}
				c[key] = next
			}
			cur = next
		case []any:
			idx, ok := s.(int)
			if !ok || idx < 0 || idx >= len(c) {
				return fmt.Errorf("index %v out of range", s)
			}
			if last {
				c[idx] = value
				return nil
			}
			cur = c[idx]
		default:
			return fmt.Errorf("%v is not an object or list", s)
		}
	}
	return nil
}

// GetFieldPath returns the value at a crossplane-style field path, and
// whether obj has it.
func GetFieldPath(obj map[string]any, path string) (any, bool) {
	return manifest.GetFieldPath(obj, path)
}
