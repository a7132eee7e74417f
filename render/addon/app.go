package addon

import (
	"encoding/json"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// Labels and annotations KubeVela puts on addon objects.
const (
	labelAddonName      = "addons.oam.dev/name"
	labelAddonVersion   = "addons.oam.dev/version"
	labelAddonRegistry  = "addons.oam.dev/registry"
	labelAuxiliaryName  = "addons.oam.dev/auxiliary-name"
	annotationBindComp  = "addon.oam.dev/bind-component"
	annotationIgnoreOld = "addon.oam.dev/ignore-without-component"
	appAPIVersion       = "core.oam.dev/v1beta1"
	appKind             = "Application"
)

// application mirrors KubeVela's typed v1beta1.Application: decoding into it
// drops what the typed API does not know, encoding it applies its
// omitempty rules.
type application struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   objectMeta `json:"metadata"`
	Spec       appSpec    `json:"spec"`

	// at says where the Application's fields were authored (the object
	// itself carries no data): the template, metadata.yaml for what
	// KubeVela derives from it, and each resource file for its component.
	at *manifest.Object
}

type objectMeta struct {
	Name         string            `json:"name,omitempty"`
	GenerateName string            `json:"generateName,omitempty"`
	Namespace    string            `json:"namespace,omitempty"`
	Labels       map[string]string `json:"labels,omitempty"`
	Annotations  map[string]string `json:"annotations,omitempty"`
	Finalizers   []string          `json:"finalizers,omitempty"`
}

type appSpec struct {
	Components []appComponent `json:"components"`
	Policies   []appPolicy    `json:"policies,omitempty"`
	Workflow   *appWorkflow   `json:"workflow,omitempty"`
}

type appComponent struct {
	Name             string            `json:"name"`
	Type             string            `json:"type"`
	ExternalRevision string            `json:"externalRevision,omitempty"`
	Properties       *json.RawMessage  `json:"properties,omitempty"`
	DependsOn        []string          `json:"dependsOn,omitempty"`
	Inputs           []inputItem       `json:"inputs,omitempty"`
	Outputs          []outputItem      `json:"outputs,omitempty"`
	Traits           []appTrait        `json:"traits,omitempty"`
	Scopes           map[string]string `json:"scopes,omitempty"`
}

type appTrait struct {
	Type       string           `json:"type"`
	Properties *json.RawMessage `json:"properties,omitempty"`
}

type appPolicy struct {
	Name       string           `json:"name"`
	Type       string           `json:"type"`
	Properties *json.RawMessage `json:"properties,omitempty"`
}

type inputItem struct {
	ParameterKey string `json:"parameterKey,omitempty"`
	From         string `json:"from"`
}

type outputItem struct {
	ValueFrom string `json:"valueFrom"`
	Name      string `json:"name"`
}

type appWorkflow struct {
	Ref   string         `json:"ref,omitempty"`
	Mode  *workflowMode  `json:"mode,omitempty"`
	Steps []workflowStep `json:"steps,omitempty"`
}

type workflowMode struct {
	Steps    string `json:"steps,omitempty"`
	SubSteps string `json:"subSteps,omitempty"`
}

type workflowStepBase struct {
	Name       string           `json:"name,omitempty"`
	Type       string           `json:"type"`
	Meta       *stepMeta        `json:"meta,omitempty"`
	If         string           `json:"if,omitempty"`
	Timeout    string           `json:"timeout,omitempty"`
	DependsOn  []string         `json:"dependsOn,omitempty"`
	Inputs     []inputItem      `json:"inputs,omitempty"`
	Outputs    []outputItem     `json:"outputs,omitempty"`
	Properties *json.RawMessage `json:"properties,omitempty"`
}

type stepMeta struct {
	Alias string `json:"alias,omitempty"`
}

type workflowStep struct {
	workflowStepBase
	Mode     string             `json:"mode,omitempty"`
	SubSteps []workflowStepBase `json:"subSteps,omitempty"`
}

func rawJSON(v any) (*json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	r := json.RawMessage(b)
	return &r, nil
}

// renderApp builds the addon Application (and the template's `outputs`
// objects) as KubeVela's RenderApp does.
func (e *enabler) renderApp(pkg *addonPackage, args map[string]any) (*application, []*manifest.Object, error) {
	cueTemplate := pkg.appCUE != nil && len(pkg.appCUE.data) > 0
	var app *application
	var aux []*manifest.Object
	var err error
	switch {
	case cueTemplate && pkg.appYAML != nil:
		return nil, nil, invalidf(manifest.Pos{File: pkg.appYAML.path}, "an addon cannot have both template.yaml and template.cue")
	case cueTemplate:
		app, aux, err = renderCUEApp(pkg, args)
	case pkg.appYAML != nil:
		app, err = decodeAppYAML(*pkg.appYAML)
	default:
		app = &application{at: &manifest.Object{Pos: pkg.metaAt.Pos}}
	}
	if err != nil {
		return nil, nil, err
	}
	if !cueTemplate && app.Spec.Components == nil {
		app.Spec.Components = []appComponent{}
	}
	app.APIVersion, app.Kind = appAPIVersion, appKind
	app.Metadata.Name = "addon-" + pkg.meta.Name
	app.at.SetFieldPos(fieldpath.New("metadata", "name"), pkg.metaAt.FieldPos(fieldpath.New("name")))
	app.Metadata.Namespace = velaSystem
	app.setLabels(map[string]string{labelAddonName: pkg.meta.Name, labelAddonVersion: pkg.meta.Version})
	for _, o := range aux {
		setLabels(o, map[string]string{labelAddonName: pkg.meta.Name, labelAddonVersion: pkg.meta.Version})
	}
	if err := app.addNamespaces(pkg); err != nil {
		return nil, nil, err
	}
	if err := app.addResources(pkg, args); err != nil {
		return nil, nil, err
	}
	if !cueTemplate && pkg.meta.deploysToRuntime() && !app.hasTopology() {
		app.at.SetFieldPos(fieldpath.New("spec", "policies", len(app.Spec.Policies)), pkg.metaAt.FieldPos(fieldpath.New("deployTo")))
		if err := e.addLegacyTopology(app, args); err != nil {
			return nil, nil, err
		}
	}
	app.setLabels(map[string]string{labelAddonRegistry: e.registry})
	return app, aux, nil
}

func (a *application) setLabels(labels map[string]string) {
	if a.Metadata.Labels == nil {
		a.Metadata.Labels = map[string]string{}
	}
	for k, v := range labels {
		a.Metadata.Labels[k] = v
	}
}

// decodeAppYAML decodes template.yaml into the typed Application.
func decodeAppYAML(f srcFile) (*application, error) {
	js, v, at, err := yamlDocument(f)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	if err := requireKind(m, at); err != nil {
		return nil, err
	}
	app := &application{at: &manifest.Object{Pos: docStart(f)}}
	app.at.Graft(nil, at)
	if err := decodeJSON(js, app, at, "template.yaml"); err != nil {
		return nil, err
	}
	return app, nil
}

// addNamespaces adds a raw Namespace component per needNamespace entry.
func (a *application) addNamespaces(pkg *addonPackage) error {
	for i, ns := range pkg.meta.NeedNamespace {
		if ns == velaSystem {
			continue
		}
		a.at.SetFieldPos(fieldpath.New("spec", "components", len(a.Spec.Components)), pkg.metaAt.FieldPos(fieldpath.New("needNamespace", i)))
		props, err := rawJSON(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
		if err != nil {
			return err
		}
		a.Spec.Components = append(a.Spec.Components, appComponent{Name: ns + "-namespace", Type: "raw", Properties: props})
	}
	return nil
}

// addResources adds the k8s-objects component of YAML resources and one
// component per non-main CUE resource.
func (a *application) addResources(pkg *addonPackage, args map[string]any) error {
	if len(pkg.resYAML) > 0 {
		comp := fieldpath.New("spec", "components", len(a.Spec.Components))
		var objs []any
		for i, f := range pkg.resYAML {
			o, err := yamlObject(f)
			if err != nil {
				return err
			}
			if i == 0 {
				a.at.SetFieldPos(comp, o.Pos)
			}
			a.at.Graft(comp.Child("properties").Child("objects").At(i), o)
			objs = append(objs, o.Data)
		}
		props, err := rawJSON(map[string]any{"objects": objs})
		if err != nil {
			return err
		}
		a.Spec.Components = append(a.Spec.Components, appComponent{Name: pkg.meta.Name + "-resources", Type: "k8s-objects", Properties: props})
	}
	for _, f := range pkg.resCUE {
		comp, at, err := renderCUEComponent(pkg, f, args)
		if err != nil {
			return err
		}
		if comp != nil {
			a.at.Graft(fieldpath.New("spec", "components", len(a.Spec.Components)), at)
			a.Spec.Components = append(a.Spec.Components, *comp)
		}
	}
	return nil
}

func (a *application) hasTopology() bool {
	for _, p := range a.Spec.Policies {
		if p.Type == "topology" {
			return true
		}
	}
	return false
}

// addLegacyTopology attaches the topology policy KubeVela adds for addons
// whose metadata asks for runtime clusters.
func (e *enabler) addLegacyTopology(a *application, args map[string]any) error {
	clusters, err := e.deployClusters(args)
	if err != nil {
		return err
	}
	if len(clusters) == 0 {
		props, err := rawJSON(map[string]any{"clusterLabelSelector": map[string]string{}})
		if err != nil {
			return err
		}
		a.Spec.Policies = append(a.Spec.Policies, appPolicy{Name: "deploy-addon-to-all-clusters", Type: "topology", Properties: props})
		return nil
	}
	hasLocal := false
	for _, c := range clusters {
		hasLocal = hasLocal || c == "local"
	}
	if !hasLocal {
		clusters = append(clusters, "local")
	}
	props, err := rawJSON(map[string][]string{"clusters": clusters})
	if err != nil {
		return err
	}
	a.Spec.Policies = append(a.Spec.Policies, appPolicy{Name: "deploy-addon-to-specified-clusters", Type: "topology", Properties: props})
	return nil
}

// clustersArg returns the string elements of the `clusters` parameter.
func clustersArg(args map[string]any) []string {
	switch cs := args["clusters"].(type) {
	case []string:
		return cs
	case []any:
		var out []string
		for _, c := range cs {
			if s, ok := c.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// deployClusters checks the `clusters` parameter against the inventory.
func (e *enabler) deployClusters(args map[string]any) ([]string, error) {
	var out []string
	for _, c := range clustersArg(args) {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if !e.clusters[c] {
			return nil, invalidf(manifest.Pos{}, "parameter clusters: cluster %s not exist", c)
		}
		out = append(out, c)
	}
	return out, nil
}

// bondComponentExists reports whether an object bound to a component (by
// addon.oam.dev/bind-component) has its component in the Application.
func (a *application) bondComponentExists(o *manifest.Object) bool {
	ann := o.Annotations()
	comp, ok := ann[annotationBindComp]
	if !ok {
		if comp, ok = ann[annotationIgnoreOld]; !ok {
			return true
		}
	}
	for _, c := range a.Spec.Components {
		if c.Name == comp {
			return true
		}
	}
	return false
}

var defAnnotations = []struct{ kind, key string }{
	{"ComponentDefinition", "addon.oam.dev/componentDefinitions"},
	{"TraitDefinition", "addon.oam.dev/traitDefinitions"},
	{"WorkflowStepDefinition", "addon.oam.dev/workflowStepDefinitions"},
	{"PolicyDefinition", "addon.oam.dev/policyDefinitions"},
}

// annotateDefinitions records the applied definitions' names on the
// Application, as KubeVela's passDefInAppAnnotation does.
func annotateDefinitions(a *application, defs []*manifest.Object) error {
	names := map[string][]string{}
	for _, d := range defs {
		if !a.bondComponentExists(d) {
			continue
		}
		known := false
		for _, k := range defAnnotations {
			if d.Kind() == k.kind {
				names[k.key] = append(names[k.key], d.Name())
				known = true
			}
		}
		if !known {
			return invalidf(d.Pos, "cannot handle definition types %s, name %s", d.Kind(), d.Name())
		}
	}
	for _, k := range defAnnotations {
		if len(names[k.key]) == 0 {
			continue
		}
		if a.Metadata.Annotations == nil {
			a.Metadata.Annotations = map[string]string{}
		}
		a.Metadata.Annotations[k.key] = strings.Join(names[k.key], ",")
	}
	return nil
}

// object encodes the Application into the JSON data model.
func (a *application) object() (*manifest.Object, error) {
	js, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	v, err := manifest.DecodeJSON(js)
	if err != nil {
		return nil, err
	}
	o := &manifest.Object{Data: v.(map[string]any), Pos: a.at.Pos}
	o.Graft(nil, a.at)
	return o, nil
}
