// Package render holds what KubeVela's render path works on, as drydock
// reads it: the Application (components, traits, policies, workflow
// steps) and the Workflow and Policy objects it refers to, parsed with
// the checks KubeVela's webhooks make; the X-Definitions (YAML objects
// and `vela def` CUE files) and their admission; the decoding of
// properties into mirrors of KubeVela's structs, failing in KubeVela's
// words; field paths that locate what was authored; the label keys
// KubeVela puts on objects; and Error, a render failure located in the
// input, with the one formatting of CUE errors.
//
// It does not evaluate templates (render/cueval), run the workflow
// (render/workflow), apply policies (render/policy, overrides/kubevela) or
// patch objects (render/patch); those import it.
package render

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/drydock-dev/drydock/cluster"
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
	// HasWorkflow is true when spec.workflow.steps is set (even to []).
	HasWorkflow bool
	// WorkflowRef names the Workflow object whose steps run
	// (spec.workflow.ref); HasWorkflowMode says spec.workflow.mode is set.
	WorkflowRef     string
	HasWorkflowMode bool
	// Object is the authored Application.
	Object *manifest.Object
	// Revision is the number of the ApplicationRevision rendered (0: the
	// first, 1): the appRevision label and context.appRevisionNum.
	Revision int
}

// Component is one entry of spec.components.
type Component struct {
	Name       string
	Type       string
	Properties map[string]any
	Traits     []Trait
	DependsOn  []string
	Inputs     []Input
	Outputs    []Output
	// Overlays are the override policy entries that patched this copy of
	// the component, in order.
	Overlays []FieldRef
	// Raw is the authored entry (for context.components).
	Raw map[string]any
	// Path is where the entry is authored, for positions.
	Path FieldRef
}

// Trait is one entry of a component's traits.
type Trait struct {
	Type       string
	Properties map[string]any
	Path       FieldRef
	// Overlays are the override policy entries that added or patched
	// this trait, in order.
	Overlays []FieldRef
}

// Policy is one entry of spec.policies.
type Policy struct {
	// Name is the authored name, or for a nameless policy the one
	// KubeVela's parser gives it: <type>-auto-gen-<index>.
	Name       string
	Type       string
	Properties map[string]any
	Path       FieldRef
	// Object is the core.oam.dev/v1alpha1 Policy object of an external
	// policy (nil for the Application's own).
	Object *manifest.Object
}

// FieldPos locates path, a field path of p (under p.Path), in app or, for
// an external policy, in its Policy object.
func (p *Policy) FieldPos(app *Application, path FieldRef) manifest.Pos {
	switch {
	case !path.IsExternal():
		return app.Object.FieldPos(path.Path)
	case p.Object == nil:
		return app.Object.Pos
	}
	return p.Object.FieldPos(path.Path)
}

// WorkflowStep is one step (or sub-step) of spec.workflow.
type WorkflowStep struct {
	// Name is the authored name, or for an unnamed step of the
	// Application the one KubeVela's mutating webhook gives it (see
	// Unnamed).
	Name       string
	Type       string
	Properties map[string]any
	DependsOn  []string
	If         string
	Inputs     []Input
	Outputs    []Output
	SubSteps   []WorkflowStep
	Timeout    string
	Path       FieldRef
	// Unnamed is true when the step was authored without a name.
	Unnamed bool
	// FromComponent marks the apply-component step KubeVela generates
	// for a component of an Application without a workflow (Path is
	// the component's).
	FromComponent bool
}

// Input fills ParameterKey (a dotted path into the step's or component's
// properties) with the value of the output named From.
type Input struct {
	From, ParameterKey string
}

// Output names the value of the CUE expression ValueFrom, evaluated over
// the step's or component's result, for later inputs.
type Output struct {
	Name, ValueFrom string
	// Path is where the output is authored.
	Path FieldRef
}

// Component returns the component of that name, or nil.
func (a *Application) Component(name string) *Component {
	for i := range a.Components {
		if a.Components[i].Name == name {
			return &a.Components[i]
		}
	}
	return nil
}

// Clone returns a copy of c whose properties and traits (with their
// properties) can be changed without touching c.
func (c Component) Clone() Component {
	out := c
	if c.Properties != nil {
		out.Properties = manifest.DeepCopy(c.Properties).(map[string]any)
	}
	out.Traits = make([]Trait, len(c.Traits))
	for i, t := range c.Traits {
		out.Traits[i] = t
		if t.Properties != nil {
			out.Traits[i].Properties = manifest.DeepCopy(t.Properties).(map[string]any)
		}
	}
	return out
}

// AddOverlay records that the override at path (an entry of an override
// policy's components) shaped c, so errors in its properties point there.
// It does not share Overlays with copies of c.
func (c *Component) AddOverlay(path FieldRef) {
	c.Overlays = append(slices.Clip(c.Overlays), path)
}

// ParseApplication reads an Application object. Its structure is checked
// by schemas first, so parsing here only reads values and checks meaning.
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
		return nil, appErr(obj, AppField("metadata", "name"), "Application without metadata.name")
	}
	// The API server's ValidateObjectMeta: a DNS-1123 subdomain name, a
	// DNS-1123 label namespace.
	var me *cluster.MetaError
	if err := cluster.ValidateMeta(obj); errors.As(err, &me) {
		return nil, appErr(obj, FieldRef{Path: me.Field}, "application %q: %s: %s", app.Name, me.Field, me.Msg)
	}
	if app.Namespace == "" {
		app.Namespace = "default"
	}
	// KubeVela's webhook (ValidateAnnotations).
	if app.Annotations["app.oam.dev/autoUpdate"] == "true" && app.Annotations["app.oam.dev/publishVersion"] != "" {
		return nil, appErr(obj, AppField("metadata", "annotations"), "application %q: metadata.annotations: Invalid value: Application has both autoUpdate and publishVersion annotations. Only one can be present", app.Name)
	}
	spec := manifest.Map(obj.Data, "spec")
	seen := map[string]FieldRef{}
	for i, c := range list(spec, "components") {
		comp, err := parseComponent(obj, c.(map[string]any), AppField("spec", "components", i))
		if err != nil {
			return nil, err
		}
		// KubeVela's parser (ValidateComponentNames) refuses the second.
		if first, dup := seen[comp.Name]; dup {
			return nil, dupErr(appErr(obj, comp.Path, "application %q: duplicated component name %s", app.Name, comp.Name), appPos(obj, first), "", "")
		}
		seen[comp.Name] = comp.Path
		app.Components = append(app.Components, comp)
	}
	for i, p := range list(spec, "policies") {
		m := p.(map[string]any)
		pol := Policy{Name: manifest.String(m, "name"), Type: manifest.String(m, "type"),
			Properties: manifest.Map(m, "properties"), Path: AppField("spec", "policies", i)}
		if pol.Name == "" {
			pol.Name = fmt.Sprintf("%s-auto-gen-%d", pol.Type, i)
		}
		app.Policies = append(app.Policies, pol)
	}
	if wf := manifest.Map(spec, "workflow"); wf != nil {
		app.HasWorkflow = wf["steps"] != nil
		app.WorkflowRef = manifest.String(wf, "ref")
		app.HasWorkflowMode = wf["mode"] != nil
		app.Workflow = parseSteps(wf, "steps", AppField("spec", "workflow"))
		nameSteps(app.Workflow)
		if err := validateSteps(obj, app.Name, app.Workflow); err != nil {
			return nil, err
		}
	}
	return app, nil
}

// Workflow is a core.oam.dev/v1alpha1 Workflow: the steps an Application
// whose spec.workflow.ref names it runs.
type Workflow struct {
	Name, Namespace string
	Steps           []WorkflowStep
	Object          *manifest.Object
}

// ParseWorkflow reads a Workflow object. Its steps' paths locate fields in
// it (see FieldRef).
func ParseWorkflow(obj *manifest.Object) (*Workflow, error) {
	if err := schemas.ValidateWorkflow(obj); err != nil {
		return nil, err
	}
	wf := &Workflow{Name: obj.Name(), Namespace: obj.Namespace(), Object: obj}
	if wf.Namespace == "" {
		wf.Namespace = "default"
	}
	wf.Steps = parseSteps(obj.Data, "steps", External("Workflow", wf.Name, nil))
	return wf, nil
}

// ParsePolicy reads a core.oam.dev/v1alpha1 Policy object: a policy a
// deploy step may name that the Application does not declare.
func ParsePolicy(obj *manifest.Object) (*Policy, error) {
	if err := schemas.ValidatePolicy(obj); err != nil {
		return nil, err
	}
	return &Policy{Name: obj.Name(), Type: manifest.String(obj.Data, "type"), Properties: manifest.Map(obj.Data, "properties"),
		Path: External("Policy", obj.Name(), nil), Object: obj}, nil
}

// nameSteps names unnamed steps as KubeVela's mutating webhook does
// (handleWorkflow): step-<i>, and sub-steps step-<i>-<j>.
func nameSteps(steps []WorkflowStep) {
	for i := range steps {
		if steps[i].Name == "" {
			steps[i].Name, steps[i].Unnamed = fmt.Sprintf("step-%d", i), true
		}
		for j := range steps[i].SubSteps {
			if sub := &steps[i].SubSteps[j]; sub.Name == "" {
				sub.Name, sub.Unnamed = fmt.Sprintf("step-%d-%d", i, j), true
			}
		}
	}
}

// validateSteps makes the checks of KubeVela's Application webhook
// (ValidateWorkflow): step names are unique across steps and sub-steps,
// and a step's timeout is a Go duration. The webhook checks a sub-step's
// parent timeout, not its own; so does this.
func validateSteps(obj *manifest.Object, app string, steps []WorkflowStep) error {
	seen := map[string]WorkflowStep{}
	check := func(s WorkflowStep, field string) error {
		first, dup := seen[s.Name]
		if !dup {
			seen[s.Name] = s
			return nil
		}
		note, alone := "", "" // after the first's place; without it
		switch {
		case s.Unnamed:
			alone = "KubeVela's mutating webhook gave this unnamed step that name"
			note = "; " + alone
		case first.Unnamed:
			note = ", an unnamed step KubeVela's mutating webhook gave that name"
			alone = "the first is an unnamed step KubeVela's mutating webhook gave that name"
		}
		err := appErr(obj, stepNamePath(s), "application %q: %s: Invalid value: %q: duplicated step name", app, field, s.Name)
		return dupErr(err, appPos(obj, stepNamePath(first)), note, alone)
	}
	for _, s := range steps {
		if err := check(s, "spec.workflow.steps"); err != nil {
			return err
		}
		if err := validTimeout(obj, app, s); err != nil {
			return err
		}
		// KubeVela's webhook checks the parent's timeout again for each
		// sub-step, never the sub-step's own: nothing more to check.
		for _, sub := range s.SubSteps {
			if err := check(sub, "spec.workflow.steps.subSteps"); err != nil {
				return err
			}
		}
	}
	return nil
}

// stepNamePath is where a step's name is, or the step for an unnamed one.
func stepNamePath(s WorkflowStep) FieldRef {
	if s.Unnamed {
		return s.Path
	}
	return s.Path.Child("name")
}

// validTimeout checks step s's timeout as the webhook does.
func validTimeout(obj *manifest.Object, app string, s WorkflowStep) error {
	if s.Timeout == "" {
		return nil
	}
	if _, err := time.ParseDuration(s.Timeout); err != nil {
		return appErr(obj, s.Path.Child("timeout"), "application %q: spec.workflow.steps.timeout: Invalid value: %q: invalid timeout, please use the format of timeout like 1s, 1m, 1h or 1d", app, s.Name)
	}
	return nil
}

func parseComponent(obj *manifest.Object, m map[string]any, path FieldRef) (Component, error) {
	comp := Component{Name: manifest.String(m, "name"), Type: manifest.String(m, "type"),
		Properties: manifest.Map(m, "properties"), DependsOn: strs(m["dependsOn"]), Raw: m, Path: path,
		Inputs: parseInputs(m), Outputs: parseOutputs(m, path)}
	if comp.Name == "" || comp.Type == "" {
		return comp, appErr(obj, path, "component %q: name and type must not be empty", comp.Name)
	}
	for j, t := range list(m, "traits") {
		tm := t.(map[string]any)
		tr := Trait{Type: manifest.String(tm, "type"), Properties: manifest.Map(tm, "properties"), Path: path.Child("traits").At(j)}
		if tr.Type == "" {
			return comp, appErr(obj, tr.Path, "component %q: trait %d has an empty type", comp.Name, j)
		}
		comp.Traits = append(comp.Traits, tr)
	}
	return comp, nil
}

// parseSteps reads parent[key] (steps or subSteps).
func parseSteps(parent map[string]any, key string, path FieldRef) []WorkflowStep {
	var steps []WorkflowStep
	for i, s := range list(parent, key) {
		m := s.(map[string]any)
		spath := path.Child(key).At(i)
		steps = append(steps, WorkflowStep{
			Name: manifest.String(m, "name"), Type: manifest.String(m, "type"), If: manifest.String(m, "if"),
			DependsOn: strs(m["dependsOn"]), Properties: manifest.Map(m, "properties"),
			Inputs: parseInputs(m), Outputs: parseOutputs(m, spath),
			SubSteps: parseSteps(m, "subSteps", spath), Timeout: manifest.String(m, "timeout"), Path: spath,
		})
	}
	return steps
}

func parseInputs(m map[string]any) []Input {
	var out []Input
	for _, e := range list(m, "inputs") {
		im := e.(map[string]any)
		out = append(out, Input{From: manifest.String(im, "from"), ParameterKey: manifest.String(im, "parameterKey")})
	}
	return out
}

func parseOutputs(m map[string]any, path FieldRef) []Output {
	var out []Output
	for i, e := range list(m, "outputs") {
		om := e.(map[string]any)
		out = append(out, Output{Name: manifest.String(om, "name"), ValueFrom: manifest.String(om, "valueFrom"),
			Path: path.Child("outputs").At(i)})
	}
	return out
}

// list returns m[key] as a list (schemas has checked the type).
func list(m map[string]any, key string) []any {
	l, _ := m[key].([]any)
	return l
}

func appErr(obj *manifest.Object, path FieldRef, format string, args ...any) *manifest.Error {
	return manifest.At(appPos(obj, path), "%w: %s", ErrInvalidApplication, fmt.Sprintf(format, args...))
}

// appPos is where path is in the Application obj (obj's own position for
// a field of another object).
func appPos(obj *manifest.Object, path FieldRef) manifest.Pos {
	if path.IsExternal() {
		return obj.Pos
	}
	return obj.FieldPos(path.Path)
}

// dupErr is err, a duplicated name, with the first definition as a
// Related place: "(first at <first><note>)", note starting with its
// punctuation. Without a known first place (an object built in memory)
// there is no place to name: alone, when not "", is written as a note.
func dupErr(err *manifest.Error, first manifest.Pos, note, alone string) error {
	switch {
	case first.IsValid():
		err.Related = append(err.Related, manifest.Related{Pos: first, What: "first at", Note: note})
	case alone != "":
		err.Related = append(err.Related, manifest.Related{What: alone})
	}
	return err
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

// FieldPos is where ref is in the Application (the Application's own
// position for a field of another object).
func (a *Application) FieldPos(ref FieldRef) manifest.Pos { return appPos(a.Object, ref) }

// HasField reports whether the Application's field at ref was authored.
func (a *Application) HasField(ref FieldRef) bool {
	return !ref.IsExternal() && a.Object.HasField(ref.Path)
}
