package kubevela

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/render"
)

// comp and trait are what an override changes in a component.
type (
	comp struct {
		Name, Type string
		Properties map[string]any
		Traits     []trait
	}
	trait struct {
		Type       string
		Properties map[string]any
	}
)

func summarize(comps []render.Component) []comp {
	var out []comp
	for _, c := range comps {
		s := comp{Name: c.Name, Type: c.Type, Properties: c.Properties}
		for _, t := range c.Traits {
			s.Traits = append(s.Traits, trait{t.Type, t.Properties})
		}
		out = append(out, s)
	}
	return out
}

// baseApp is KubeVela's baseApp of pkg/policy/envbinding/patch_test.go.
const baseApp = `  components:
  - name: express-server
    type: webservice
    properties: {image: crccheck/hello-world, port: 8000}
    traits:
    - type: ingress-1-20
      properties: {domain: testsvc.example.com, http: {"/": 8000}}
`

// twoComps is the base application of patch_test.go's patch-all-comp,
// patch-type-comp and patch-without-type-specified.
const twoComps = `  components:
  - name: express-server
    type: webservice
    properties: {image: crccheck/hello-world}
    traits:
    - {type: ingress, properties: {domain: a.example.com}}
    - {type: ingress-1-20, properties: {domain: a-1-20.example.com}}
  - name: express-worker
    type: worker
    properties: {image: crccheck/hello-world}
`

var (
	expressServer = comp{Name: "express-server", Type: "webservice",
		Properties: map[string]any{"image": "crccheck/hello-world", "port": int64(8000)},
		Traits:     []trait{{"ingress-1-20", map[string]any{"domain": "testsvc.example.com", "http": map[string]any{"/": int64(8000)}}}}}
	ingressA     = trait{"ingress", map[string]any{"domain": "a.example.com"}}
	ingressB     = trait{"ingress", map[string]any{"domain": "b.example.com"}}
	ingress120   = trait{"ingress-1-20", map[string]any{"domain": "a-1-20.example.com"}}
	helloWorld   = map[string]any{"image": "crccheck/hello-world"}
	busybox      = map[string]any{"image": "busybox"}
	labelsTrait  = trait{"labels", map[string]any{"test": "label"}}
	newServer    = comp{Name: "new-server", Type: "worker", Properties: busybox}
	appliedTwice = comp{Name: "express-server", Type: "webservice", Properties: map[string]any{"image": "v2", "port": int64(8000)},
		Traits: expressServer.Traits}
)

// TestOverride: KubeVela's overrideConfiguration and PatchComponents, with
// the cases of pkg/policy/envbinding/patch_test.go
// (Test_EnvBindApp_GenerateConfiguredApplication) and
// pkg/workflow/providers/multicluster/deploy_test.go
// (TestOverrideConfiguration).
func TestOverride(t *testing.T) {
	tests := []struct {
		name, base, policies string
		want                 []comp
	}{
		{"normal-test", baseApp, `  - type: override
    properties:
      components:
      - name: express-server
        type: webservice
        properties: {image: busybox}
        traits:
        - {type: ingress-1-20, properties: {domain: newTestsvc.example.com}}
`, []comp{{Name: "express-server", Type: "webservice", Properties: map[string]any{"image": "busybox", "port": int64(8000)},
			Traits: []trait{{"ingress-1-20", map[string]any{"domain": "newTestsvc.example.com", "http": map[string]any{"/": int64(8000)}}}}}}},
		{"add-component", baseApp, `  - type: override
    properties:
      components:
      - name: express-server
        type: webservice
        traits: [{type: labels, properties: {test: label}}]
      - name: new-server
        type: worker
        properties: {image: busybox, cmd: [sleep, "1000"]}
        traits: [{type: labels, properties: {test: label}}]
`, []comp{{Name: "express-server", Type: "webservice", Properties: expressServer.Properties, Traits: append(expressServer.Traits, labelsTrait)},
			{Name: "new-server", Type: "worker", Properties: map[string]any{"image": "busybox", "cmd": []any{"sleep", "1000"}}, Traits: []trait{labelsTrait}}}},
		{"disable-trait", baseApp, `  - type: override
    properties:
      components:
      - {name: express-server, type: webservice, traits: [{type: ingress-1-20, disable: true}]}
`, []comp{{Name: "express-server", Type: "webservice", Properties: expressServer.Properties}}},
		// MergeComponent skips a disabled patch of a trait the component
		// lacks.
		{"disable a trait the component lacks", baseApp, `  - type: override
    properties:
      components:
      - {name: express-server, traits: [{type: labels, disable: true}]}
`, []comp{expressServer}},
		{"component-selector", baseApp, `  - type: override
    properties:
      components:
      - {name: new-server, type: worker, properties: {image: busybox}}
      selector: [new-server]
`, []comp{newServer}},
		{"empty-component-selector", baseApp, `  - type: override
    properties:
      components:
      - {name: new-server, type: worker, properties: {image: busybox}}
      selector: []
`, nil},
		{"patch-all-comp", twoComps, `  - type: override
    properties:
      components:
      - properties: {image: busybox}
        traits: [{type: ingress, properties: {domain: b.example.com}}]
`, []comp{{Name: "express-server", Type: "webservice", Properties: busybox, Traits: []trait{ingressB, ingress120}},
			{Name: "express-worker", Type: "worker", Properties: busybox, Traits: []trait{ingressB}}}},
		{"patch-type-comp", twoComps, `  - type: override
    properties:
      components:
      - type: webservice
        properties: {image: busybox}
        traits: [{type: ingress, properties: {domain: b.example.com}}]
`, []comp{{Name: "express-server", Type: "webservice", Properties: busybox, Traits: []trait{ingressB, ingress120}},
			{Name: "express-worker", Type: "worker", Properties: helloWorld}}},
		{"patch-without-type-specified", twoComps, `  - type: override
    properties:
      components:
      - name: express-worker
        properties: {image: busybox}
        traits: [{type: ingress, properties: {domain: b.example.com}}]
`, []comp{{Name: "express-server", Type: "webservice", Properties: helloWorld, Traits: []trait{ingressA, ingress120}},
			{Name: "express-worker", Type: "worker", Properties: busybox, Traits: []trait{ingressB}}}},
		// PatchComponents, case 3: a matched component of another type is
		// replaced by the patch (ToApplicationComponent: its traits but
		// the disabled ones).
		{"name matches another type", twoComps, `  - type: override
    properties:
      components:
      - name: express-worker
        type: task
        properties: {image: busybox}
        traits: [{type: labels, properties: {test: label}}, {type: ingress, disable: true}]
`, []comp{{Name: "express-server", Type: "webservice", Properties: helloWorld, Traits: []trait{ingressA, ingress120}},
			{Name: "express-worker", Type: "task", Properties: busybox, Traits: []trait{labelsTrait}}}},
		// The name is a pattern: `*` matches anything (unanchored).
		{"wildcard name", twoComps, `  - type: override
    properties:
      components:
      - {name: "express-*", properties: {image: busybox}}
`, []comp{{Name: "express-server", Type: "webservice", Properties: busybox, Traits: []trait{ingressA, ingress120}},
			{Name: "express-worker", Type: "worker", Properties: busybox}}},
		{"unanchored name", twoComps, `  - type: override
    properties:
      components:
      - {name: worker, properties: {image: busybox}}
`, []comp{{Name: "express-server", Type: "webservice", Properties: helloWorld, Traits: []trait{ingressA, ingress120}},
			{Name: "express-worker", Type: "worker", Properties: busybox}}},
		// Case 4: an unmatched name is added only if it matches
		// [a-z]([a-z-]{0,61}[a-z])? somewhere.
		{"unmatched name without a letter", twoComps, `  - type: override
    properties:
      components:
      - {name: "42", type: worker, properties: {image: busybox}}
`, []comp{{Name: "express-server", Type: "webservice", Properties: helloWorld, Traits: []trait{ingressA, ingress120}},
			{Name: "express-worker", Type: "worker", Properties: helloWorld}}},
		// deploy_test.go "normal".
		{"normal", "  components:\n  - {name: comp, type: worker, properties: {x: 1}}\n", `  - name: override-policy
    type: override
    properties: {components: [{name: comp, properties: {x: 5}}]}
`, []comp{{Name: "comp", Type: "worker", Properties: map[string]any{"x": int64(5)}}}},
		// overrideConfiguration applies the override policies in order and
		// skips the others.
		{"two policies in order", baseApp, `  - {type: override, properties: {components: [{name: express-server, properties: {image: v1}}]}}
  - {type: topology, properties: {clusters: [local]}}
  - {type: override, properties: {components: [{name: express-server, properties: {image: v2}}]}}
`, []comp{appliedTwice}},
		{"no override policy", baseApp, "  - {type: topology, properties: {clusters: [local]}}\n", []comp{expressServer}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := parseApp(t, tt.base+"  policies:\n"+tt.policies)
			got, warnings, err := Override(app, "deploy", policies(app))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(overrideWarnings[tt.name], warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, summarize(got), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("components (-want +got):\n%s", diff)
			}
			// The Application's components are left as authored.
			if diff := cmp.Diff(summarize(parseApp(t, tt.base+"  policies:\n"+tt.policies).Components), summarize(app.Components)); diff != "" {
				t.Errorf("the Application's components changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestOverrideRefusals: overrideConfiguration's errors, and what
// PatchComponents makes of patches that do not merge (docs/divergences.md,
// "Override merge errors").
func TestOverrideRefusals(t *testing.T) {
	tests := []struct {
		name, base, policies string
		wantErr, wantPos     string
		wantWarnings         []string
	}{
		{name: "empty-policy", base: baseApp, policies: "  - {name: override-policy, type: override}\n",
			wantErr: `app.yaml:13:5: application "a": policy "override-policy": override policy override-policy must not have empty properties`,
			wantPos: "app.yaml:13:5"},
		// utils.StrictUnmarshal: "failed to parse override policy %s".
		{name: "invalid-policies", base: baseApp, policies: "  - name: override-policy\n    type: override\n    properties:\n      components: [{name: express-server, propertes: {image: x}}]\n",
			wantErr: `app.yaml:16:54: application "a": policy "override-policy": spec.policies[0].properties.components[0].propertes: failed to parse override policy override-policy: json: unknown field "propertes"`,
			wantPos: "app.yaml:16:54"},
		{name: "traits not a list", base: baseApp, policies: "  - name: o\n    type: override\n    properties:\n      components: [{name: express-server, traits: {type: x}}]\n",
			wantErr: `app.yaml:16:51: application "a": policy "o": spec.policies[0].properties.components[0].traits: failed to parse override policy o: json: cannot unmarshal object into Go struct field EnvComponentPatch.components.traits of type []v1alpha1.EnvTraitPatch`,
			wantPos: "app.yaml:16:51"},
		// A nameless patch whose properties are not an object: the error
		// of its last merge (MergeComponent, MergeRawExtension,
		// RawExtension2Map), wrapped by PatchComponents and
		// overrideConfiguration.
		{name: "nameless patch does not merge", base: baseApp, policies: "  - name: o\n    type: override\n    properties:\n      components: [{properties: busybox}]\n",
			wantErr: `app.yaml:16:19: application "a": policy "o": spec.policies[0].properties.components: failed to apply override policy o: failed to merge application components: failed to merge component properties: failed to convert patch parameters to map: json: cannot unmarshal string into Go value of type map[string]interface {}`,
			wantPos: "app.yaml:16:19"},
		{name: "nameless trait patch does not merge", base: baseApp, policies: "  - name: o\n    type: override\n    properties:\n      components: [{traits: [{type: ingress-1-20, properties: [x]}]}]\n",
			wantErr: `app.yaml:16:19: application "a": policy "o": spec.policies[0].properties.components: failed to apply override policy o: failed to merge application components: failed to merge component traits: failed to convert patch parameters to map: json: cannot unmarshal array into Go value of type map[string]interface {}`,
			wantPos: "app.yaml:16:19"},
		// A named patch's merge error is kept in a variable shadowed by
		// `if re, err := regexp.Compile(...)`: PatchComponents returns no
		// components and no error.
		{name: "named patch does not merge", base: baseApp, policies: "  - name: o\n    type: override\n    properties:\n      components: [{name: express-server, properties: busybox}]\n",
			wantWarnings: []string{`app.yaml:16:19: application "a" policy "o": a component patch does not merge (its properties are not an object); KubeVela then drops every component of deploy step "deploy", which dispatches nothing`}},
		// MergeComponent wraps the error of the last trait merge: when it
		// succeeded after one that failed, it returns nil and nil, and
		// PatchComponents dereferences the nil component.
		{name: "trait merge lost", base: "  components:\n  - name: c\n    type: worker\n    traits: [{type: t1}, {type: t2}]\n",
			policies: "  - name: o\n    type: override\n    properties:\n      components: [{name: c, traits: [{type: t1, properties: x}, {type: t2, properties: {a: 1}}]}]\n",
			wantErr:  `app.yaml:13:19: application "a": policy "o": spec.policies[0].properties.components: failed to apply override policy o: KubeVela's merge loses component c (a trait patch whose properties are not an object, then one that merges) and dereferences it: the deploy fails`,
			wantPos:  "app.yaml:13:19"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := parseApp(t, tt.base+"  policies:\n"+tt.policies)
			comps, warnings, err := Override(app, "deploy", policies(app))
			if diff := cmp.Diff(tt.wantErr, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPos, errPos(err)); diff != "" {
				t.Errorf("position (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWarnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if len(comps) != 0 {
				t.Errorf("components %v, want none", summarize(comps))
			}
		})
	}
}

// TestOverrideOverlays: a patched component or trait records the override
// entries that shaped it (render.Component.Overlays), so that errors in
// its properties point at them; an added component has the policy's path.
func TestOverrideOverlays(t *testing.T) {
	app := parseApp(t, baseApp+`  policies:
  - name: o
    type: override
    properties:
      components:
      - {name: express-server, traits: [{type: ingress-1-20, properties: {domain: x}}, {type: labels}]}
      - {name: new-server, type: worker, traits: [{type: labels}]}
`)
	comps, _, err := Override(app, "deploy", policies(app))
	if err != nil {
		t.Fatal(err)
	}
	type overlays struct {
		Path     string
		Overlays []string
		Traits   [][]string
	}
	var got []overlays
	for _, c := range comps {
		strs := func(refs []render.FieldRef) []string {
			var out []string
			for _, r := range refs {
				out = append(out, r.String())
			}
			return out
		}
		o := overlays{Path: c.Path.String(), Overlays: strs(c.Overlays)}
		for _, tr := range c.Traits {
			o.Traits = append(o.Traits, append([]string{tr.Path.String()}, strs(tr.Overlays)...))
		}
		got = append(got, o)
	}
	const entry = "spec.policies[0].properties.components"
	want := []overlays{
		{Path: "spec.components[0]", Traits: [][]string{
			{"spec.components[0].traits[0]", entry + "[0].traits[0]"},
			{"spec.components[0]", entry + "[0].traits[1]"},
		}},
		{Path: "spec.policies[0]", Overlays: []string{entry + "[1]"}, Traits: [][]string{{"spec.policies[0]", entry + "[1].traits[0]"}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paths and overlays (-want +got):\n%s", diff)
	}
}

// overrideWarnings are TestOverride's warnings by case: what KubeVela
// does silently (PatchComponents adds a component no patch name matches;
// FilterComponents leaves out what the selector does not name).
var overrideWarnings = map[string][]string{
	"add-component": {`app.yaml:19:15: application "a" policy "override-auto-gen-0": no component matches "new-server": KubeVela adds a component "new-server" of type "worker" from the patch`},
	"component-selector": {
		`app.yaml:16:16: application "a" policy "override-auto-gen-0": no component matches "new-server": KubeVela adds a component "new-server" of type "worker" from the patch`,
		`app.yaml:17:17: application "a" policy "override-auto-gen-0": the selector ["new-server"] keeps only those components in deploy step "deploy": KubeVela leaves out ["express-server"] there`,
	},
	"empty-component-selector": {
		`app.yaml:16:16: application "a" policy "override-auto-gen-0": no component matches "new-server": KubeVela adds a component "new-server" of type "worker" from the patch`,
		`app.yaml:17:17: application "a" policy "override-auto-gen-0": the selector [] keeps only those components in deploy step "deploy": KubeVela leaves out ["express-server", "new-server"] there`,
	},
}
