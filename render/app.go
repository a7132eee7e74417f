package render

import (
	"errors"
	"fmt"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

// ErrInvalidApplication is wrapped by errors about a malformed Application.
var ErrInvalidApplication = errors.New("invalid application")

// Application is a parsed core.oam.dev Application.
type Application struct {
	revisionHash string
	Name         string
	Namespace    string
	Labels       map[string]string
	Annotations  map[string]string
	Components   []Component
	Policies     []Policy
	Workflow     []WorkflowStep
	// HasWorkflow is true when spec.workflow.steps is present (even empty).
	HasWorkflow bool
	// Object is the authored Application.
	Object *manifest.Object
}

// Component is one entry of spec.components.
type Component struct {
	Name       string
	Type       string
	Properties map[string]any
	Traits     []Trait
	DependsOn  []string
	// Raw is the authored entry (for context.components).
	Raw map[string]any
	// Path is the entry's field path in the Application, for positions.
	Path string
}

// Trait is one entry of a component's traits.
type Trait struct {
	Type       string
	Properties map[string]any
	Path       string
}

// Policy is one entry of spec.policies.
type Policy struct {
	Name       string
	Type       string
	Properties map[string]any
	Path       string
}

// WorkflowStep is one step (or sub-step) of spec.workflow.
type WorkflowStep struct {
	Name       string
	Type       string
	Properties map[string]any
	DependsOn  []string
	If         string
	SubSteps   []WorkflowStep
	Path       string
}

// ParseApplication reads an Application object.
func ParseApplication(obj *manifest.Object) (*Application, error) {
	if err := schemas.ValidateApplication(obj); err != nil {
		return nil, err
	}
	app := &Application{
		Name:        obj.Name(),
		Namespace:   obj.Namespace(),
		Labels:      obj.Labels(),
		Annotations: obj.Annotations(),
		Object:      obj,
	}
	if app.Name == "" {
		return nil, appErr(obj, "metadata.name", "Application without metadata.name")
	}
	if app.Namespace == "" {
		app.Namespace = "default"
	}
	spec, ok := obj.Data["spec"].(map[string]any)
	if !ok {
		return nil, appErr(obj, "spec", "application %q: spec must be a mapping", app.Name)
	}
	comps, err := list(obj, spec, "spec", "components")
	if err != nil {
		return nil, err
	}
	for i, c := range comps {
		comp, err := parseComponent(obj, c, manifest.Path("spec", "components", i))
		if err != nil {
			return nil, err
		}
		app.Components = append(app.Components, comp)
	}
	pols, err := list(obj, spec, "spec", "policies")
	if err != nil {
		return nil, err
	}
	for i, p := range pols {
		path := manifest.Path("spec", "policies", i)
		m, err := entry(obj, p, path)
		if err != nil {
			return nil, err
		}
		pol := Policy{Name: str(m, "name"), Type: str(m, "type"), Path: path}
		if pol.Properties, err = properties(obj, m, path); err != nil {
			return nil, err
		}
		app.Policies = append(app.Policies, pol)
	}
	if wf, ok := spec["workflow"].(map[string]any); ok {
		if _, has := wf["steps"]; has {
			app.HasWorkflow = true
		}
		app.Workflow, err = parseSteps(obj, wf, "spec.workflow")
		if err != nil {
			return nil, err
		}
	}
	return app, nil
}

func parseComponent(obj *manifest.Object, c any, path string) (Component, error) {
	m, err := entry(obj, c, path)
	if err != nil {
		return Component{}, err
	}
	comp := Component{Name: str(m, "name"), Type: str(m, "type"), Raw: m, Path: path}
	if comp.Name == "" {
		return comp, appErr(obj, path, "component %d has no name", indexOf(path))
	}
	if comp.Type == "" {
		return comp, appErr(obj, path, "component %q has no type", comp.Name)
	}
	if comp.Properties, err = properties(obj, m, path); err != nil {
		return comp, err
	}
	comp.DependsOn = strs(m["dependsOn"])
	traits, err := list(obj, m, path, "traits")
	if err != nil {
		return comp, err
	}
	for j, t := range traits {
		tpath := manifest.Path(path, "traits", j)
		tm, err := entry(obj, t, tpath)
		if err != nil {
			return comp, err
		}
		tr := Trait{Type: str(tm, "type"), Path: tpath}
		if tr.Type == "" {
			return comp, appErr(obj, tpath, "component %q: trait %d has no type", comp.Name, j)
		}
		if tr.Properties, err = properties(obj, tm, tpath); err != nil {
			return comp, err
		}
		comp.Traits = append(comp.Traits, tr)
	}
	return comp, nil
}

func parseSteps(obj *manifest.Object, parent map[string]any, path string) ([]WorkflowStep, error) {
	key := "steps"
	if _, ok := parent["subSteps"]; ok {
		key = "subSteps"
	}
	items, err := list(obj, parent, path, key)
	if err != nil {
		return nil, err
	}
	var steps []WorkflowStep
	for i, s := range items {
		spath := manifest.Path(path, key, i)
		m, err := entry(obj, s, spath)
		if err != nil {
			return nil, err
		}
		st := WorkflowStep{Name: str(m, "name"), Type: str(m, "type"), If: str(m, "if"), DependsOn: strs(m["dependsOn"]), Path: spath}
		if st.Type == "" {
			return nil, appErr(obj, spath, "workflow step %q has no type", st.Name)
		}
		if st.Properties, err = properties(obj, m, spath); err != nil {
			return nil, err
		}
		if _, ok := m["subSteps"]; ok {
			if st.SubSteps, err = parseSteps(obj, m, spath); err != nil {
				return nil, err
			}
		}
		steps = append(steps, st)
	}
	return steps, nil
}

func list(obj *manifest.Object, m map[string]any, path, key string) ([]any, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, appErr(obj, manifest.Path(path, key), "%s must be a list", key)
	}
	return l, nil
}

func entry(obj *manifest.Object, v any, path string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, appErr(obj, path, "%s must be a mapping", path)
	}
	return m, nil
}

func properties(obj *manifest.Object, m map[string]any, path string) (map[string]any, error) {
	v, ok := m["properties"]
	if !ok || v == nil {
		return nil, nil
	}
	p, ok := v.(map[string]any)
	if !ok {
		return nil, appErr(obj, manifest.Path(path, "properties"), "properties must be a mapping")
	}
	return p, nil
}

func appErr(obj *manifest.Object, path, format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", obj.FieldPos(path), ErrInvalidApplication, fmt.Sprintf(format, args...))
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func strs(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func indexOf(path string) int {
	var i int
	_, _ = fmt.Sscanf(path[len("spec.components["):], "%d", &i)
	return i
}
