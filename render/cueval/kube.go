package cueval

import (
	"fmt"
	"strconv"
	"strings"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Components whose ComponentDefinition has a kube schematic instead of a
// CUE template: a fixed object whose fields parameters set.

// evaluateKube renders a kube-schematic component: the fixed template with
// parameters written to their field paths becomes `output`.
func (e *Engine) evaluateKube(d *render.Definition, params map[string]any, context map[string]any) (cue.Value, error) {
	obj, err := kubeObject(d.Kube, params)
	if err != nil {
		return cue.Value{}, err
	}
	e.uses++
	v := e.ctx.Encode(map[string]any{"output": obj, "context": context})
	return v, v.Err()
}

func kubeObject(k *render.KubeSchematic, params map[string]any) (map[string]any, error) {
	obj := manifest.DeepCopy(k.Template).(map[string]any)
	known := map[string]*render.KubeParameter{}
	for i := range k.Parameters {
		known[k.Parameters[i].Name] = &k.Parameters[i]
	}
	for _, name := range manifest.SortedKeys(params) {
		p := known[name]
		if p == nil {
			return nil, fmt.Errorf("unsupported parameter %q", name)
		}
		if err := checkKubeType(p, params[name]); err != nil {
			return nil, err
		}
		for _, fp := range p.FieldPaths {
			if err := setFieldPath(obj, fp, NormalizeNumbers(params[name])); err != nil {
				return nil, fmt.Errorf("parameter %q: field %q: %w", name, fp, err)
			}
		}
	}
	for _, p := range k.Parameters {
		if _, ok := params[p.Name]; p.Required && !ok {
			return nil, fmt.Errorf("require parameter %q", p.Name)
		}
	}
	return obj, nil
}

func checkKubeType(p *render.KubeParameter, v any) error {
	ok := true
	switch p.Type {
	case "string":
		_, ok = v.(string)
	case "number":
		switch v.(type) {
		case int64, float64:
		default:
			ok = false
		}
	case "boolean":
		_, ok = v.(bool)
	}
	if !ok {
		return fmt.Errorf("parameter %q: require %q type parameter value", p.Name, p.Type)
	}
	return nil
}

// setFieldPath sets value at a crossplane-style field path such as
// spec.template.spec.containers[0].image or metadata.labels["app"].
func setFieldPath(obj map[string]any, path string, value any) error {
	segs, err := parseFieldPath(path)
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

func parseFieldPath(path string) ([]any, error) {
	var segs []any
	for i := 0; i < len(path); {
		switch path[i] {
		case '.':
			i++
		case '[':
			end := strings.IndexByte(path[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unterminated [ in %q", path)
			}
			inner := path[i+1 : i+end]
			if n, err := strconv.Atoi(inner); err == nil {
				segs = append(segs, n)
			} else {
				segs = append(segs, strings.Trim(inner, `"'`))
			}
			i += end + 1
		default:
			j := i
			for j < len(path) && path[j] != '.' && path[j] != '[' {
				j++
			}
			segs = append(segs, path[i:j])
			i = j
		}
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("empty field path")
	}
	return segs, nil
}
