package cueval

import (
	"fmt"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/fieldpath"
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

// setFieldPath sets value at fp, a field path as a KubeVela kube
// definition's parameter writes it (spec.template.spec.containers[0].image).
func setFieldPath(obj map[string]any, fp string, value any) error {
	p, err := fieldpath.Parse(fp)
	if err != nil {
		return err
	}
	return fieldpath.Set(obj, p, value)
}
