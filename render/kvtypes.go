package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/drydock-dev/drydock/manifest"
)

// KubeVela decodes the properties of its built-in policies, of deploy
// steps and of ref-objects components into Go structs with encoding/json,
// some strictly (unknown fields refused), and reports the decoder's error.
// The kv* types below have those structs' shapes, field names and JSON
// tags, so that decoding the same JSON fails at the same place with the
// same words once kvError has put KubeVela's type names back.

// kvDeployWorkflowStepSpec is step.DeployWorkflowStepSpec.
type kvDeployWorkflowStepSpec struct {
	Auto                     *bool    `json:"auto,omitempty"`
	Policies                 []string `json:"policies,omitempty"`
	Parallelism              *int     `json:"parallelism,omitempty"`
	IgnoreTerraformComponent *bool    `json:"ignoreTerraformComponent,omitempty"`
}

// kvTopologyPolicySpec is v1alpha1.TopologyPolicySpec.
type kvTopologyPolicySpec struct {
	kvPlacement `json:",inline"`
	Namespace   string `json:"namespace,omitempty"`
}

// kvPlacement is v1alpha1.Placement.
type kvPlacement struct {
	Clusters                  []string          `json:"clusters,omitempty"`
	ClusterLabelSelector      map[string]string `json:"clusterLabelSelector,omitempty"`
	AllowEmpty                bool              `json:"allowEmpty,omitempty"`
	DeprecatedClusterSelector map[string]string `json:"clusterSelector,omitempty"`
}

// kvOverridePolicySpec is v1alpha1.OverridePolicySpec.
type kvOverridePolicySpec struct {
	Components []kvEnvComponentPatch `json:"components,omitempty"`
	Selector   []string              `json:"selector,omitempty"`
}

// kvEnvComponentPatch is v1alpha1.EnvComponentPatch.
type kvEnvComponentPatch struct {
	Name             string            `json:"name"`
	Type             string            `json:"type"`
	Properties       *kvRawExtension   `json:"properties,omitempty"`
	Traits           []kvEnvTraitPatch `json:"traits,omitempty"`
	ExternalRevision string            `json:"externalRevision,omitempty"`
}

// kvEnvTraitPatch is v1alpha1.EnvTraitPatch.
type kvEnvTraitPatch struct {
	Type       string          `json:"type"`
	Properties *kvRawExtension `json:"properties,omitempty"`
	Disable    bool            `json:"disable,omitempty"`
}

// kvRawExtension is runtime.RawExtension: any JSON value but null.
type kvRawExtension struct{ raw json.RawMessage }

// UnmarshalJSON keeps the value, as RawExtension does.
func (r *kvRawExtension) UnmarshalJSON(in []byte) error {
	if !bytes.Equal(in, []byte("null")) {
		r.raw = append(r.raw[:0], in...)
	}
	return nil
}

// kvReplicationPolicySpec is v1alpha1.ReplicationPolicySpec.
type kvReplicationPolicySpec struct {
	Keys     []string `json:"keys,omitempty"`
	Selector []string `json:"selector,omitempty"`
}

// kvEnvBindingSpec is v1alpha1.EnvBindingSpec (the env-binding policy).
type kvEnvBindingSpec struct {
	Envs []kvEnvConfig `json:"envs"`
}

// kvEnvConfig is v1alpha1.EnvConfig.
type kvEnvConfig struct {
	Name      string         `json:"name"`
	Placement kvEnvPlacement `json:"placement,omitempty"`
	Selector  *kvEnvSelector `json:"selector,omitempty"`
	Patch     kvEnvPatch     `json:"patch,omitempty"`
}

// kvEnvPlacement is v1alpha1.EnvPlacement.
type kvEnvPlacement struct {
	ClusterSelector   *kvClusterSelector   `json:"clusterSelector,omitempty"`
	NamespaceSelector *kvNamespaceSelector `json:"namespaceSelector,omitempty"`
}

// kvClusterSelector is common.ClusterSelector.
type kvClusterSelector struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// kvNamespaceSelector is v1alpha1.NamespaceSelector.
type kvNamespaceSelector struct {
	Name   string            `json:"name,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// kvEnvSelector is v1alpha1.EnvSelector.
type kvEnvSelector struct {
	Components []string `json:"components,omitempty"`
}

// kvEnvPatch is v1alpha1.EnvPatch.
type kvEnvPatch struct {
	Components []kvEnvComponentPatch `json:"components,omitempty"`
}

// kvRefObjectsComponentSpec is v1alpha1.RefObjectsComponentSpec.
type kvRefObjectsComponentSpec struct {
	Objects []kvObjectReferrer `json:"objects,omitempty"`
	URLs    []string           `json:"urls,omitempty"`
}

// kvObjectReferrer is v1alpha1.ObjectReferrer.
type kvObjectReferrer struct {
	kvObjectTypeIdentifier `json:",inline"`
	kvObjectSelector       `json:",inline"`
}

// kvObjectTypeIdentifier is v1alpha1.ObjectTypeIdentifier.
type kvObjectTypeIdentifier struct {
	Resource                     string `json:"resource"`
	Group                        string `json:"group"`
	kvLegacyObjectTypeIdentifier `json:",inline"`
}

// kvLegacyObjectTypeIdentifier is v1alpha1.LegacyObjectTypeIdentifier.
type kvLegacyObjectTypeIdentifier struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

// kvObjectSelector is v1alpha1.ObjectSelector.
type kvObjectSelector struct {
	Name                    string            `json:"name,omitempty"`
	Namespace               string            `json:"namespace,omitempty"`
	Cluster                 string            `json:"cluster,omitempty"`
	LabelSelector           map[string]string `json:"labelSelector,omitempty"`
	DeprecatedLabelSelector map[string]string `json:"selector,omitempty"`
}

// The resource policies KubeVela's resource keeper reads (pkg/resourcekeeper).

// kvApplyOncePolicySpec is v1alpha1.ApplyOncePolicySpec.
type kvApplyOncePolicySpec struct {
	Enable bool                    `json:"enable"`
	Rules  []kvApplyOncePolicyRule `json:"rules,omitempty"`
}

// kvApplyOncePolicyRule is v1alpha1.ApplyOncePolicyRule.
type kvApplyOncePolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector,omitempty"`
	Strategy *kvApplyOnceStrategy         `json:"strategy,omitempty"`
}

// kvApplyOnceStrategy is v1alpha1.ApplyOnceStrategy.
type kvApplyOnceStrategy struct {
	Path                    []string                  `json:"path"`
	ApplyOnceAffectStrategy kvApplyOnceAffectStrategy `json:"affect"`
}

// kvGarbageCollectPolicySpec is v1alpha1.GarbageCollectPolicySpec.
type kvGarbageCollectPolicySpec struct {
	ApplicationRevisionLimit *int                         `json:"applicationRevisionLimit,omitempty"`
	KeepLegacyResource       bool                         `json:"keepLegacyResource,omitempty"`
	ContinueOnFailure        bool                         `json:"continueOnFailure,omitempty"`
	Order                    kvGarbageCollectOrder        `json:"order,omitempty"`
	Rules                    []kvGarbageCollectPolicyRule `json:"rules,omitempty"`
}

// kvGarbageCollectPolicyRule is v1alpha1.GarbageCollectPolicyRule.
type kvGarbageCollectPolicyRule struct {
	Selector    kvResourcePolicyRuleSelector `json:"selector"`
	Strategy    kvGarbageCollectStrategy     `json:"strategy"`
	Propagation *kvGarbageCollectPropagation `json:"propagation"`
}

// kvSharedResourcePolicySpec is v1alpha1.SharedResourcePolicySpec.
type kvSharedResourcePolicySpec struct {
	Rules []kvSharedResourcePolicyRule `json:"rules"`
}

// kvSharedResourcePolicyRule is v1alpha1.SharedResourcePolicyRule.
type kvSharedResourcePolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector"`
}

// kvTakeOverPolicySpec is v1alpha1.TakeOverPolicySpec.
type kvTakeOverPolicySpec struct {
	Rules []kvTakeOverPolicyRule `json:"rules"`
}

// kvTakeOverPolicyRule is v1alpha1.TakeOverPolicyRule.
type kvTakeOverPolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector"`
}

// kvReadOnlyPolicySpec is v1alpha1.ReadOnlyPolicySpec.
type kvReadOnlyPolicySpec struct {
	Rules []kvReadOnlyPolicyRule `json:"rules"`
}

// kvReadOnlyPolicyRule is v1alpha1.ReadOnlyPolicyRule.
type kvReadOnlyPolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector"`
}

// kvResourceUpdatePolicySpec is v1alpha1.ResourceUpdatePolicySpec.
type kvResourceUpdatePolicySpec struct {
	Rules []kvResourceUpdatePolicyRule `json:"rules"`
}

// kvResourceUpdatePolicyRule is v1alpha1.ResourceUpdatePolicyRule.
type kvResourceUpdatePolicyRule struct {
	Selector kvResourcePolicyRuleSelector `json:"selector"`
	Strategy kvResourceUpdateStrategy     `json:"strategy,omitempty"`
}

// kvResourceUpdateStrategy is v1alpha1.ResourceUpdateStrategy.
type kvResourceUpdateStrategy struct {
	Op             kvResourceUpdateOp `json:"op,omitempty"`
	RecreateFields []string           `json:"recreateFields,omitempty"`
}

// kvResourcePolicyRuleSelector is v1alpha1.ResourcePolicyRuleSelector.
type kvResourcePolicyRuleSelector struct {
	CompNames        []string `json:"componentNames,omitempty"`
	CompTypes        []string `json:"componentTypes,omitempty"`
	OAMResourceTypes []string `json:"oamTypes,omitempty"`
	TraitTypes       []string `json:"traitTypes,omitempty"`
	ResourceTypes    []string `json:"resourceTypes,omitempty"`
	ResourceNames    []string `json:"resourceNames,omitempty"`
}

type (
	kvApplyOnceAffectStrategy   string
	kvGarbageCollectOrder       string
	kvGarbageCollectStrategy    string
	kvGarbageCollectPropagation string
	kvResourceUpdateOp          string
)

// kvPackages names the KubeVela package of the mirrored types that are not
// in apis/core.oam.dev/v1alpha1.
var kvPackages = map[reflect.Type]string{
	reflect.TypeFor[kvDeployWorkflowStepSpec](): "step",
	reflect.TypeFor[kvClusterSelector]():        "common",
}

// kvTypeName is how reflect prints t in KubeVela: the mirrored types
// under KubeVela's names and packages.
func kvTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		return "[]" + kvTypeName(t.Elem())
	case reflect.Map:
		return "map[" + kvTypeName(t.Key()) + "]" + kvTypeName(t.Elem())
	case reflect.Pointer:
		return "*" + kvTypeName(t.Elem())
	}
	name, ok := strings.CutPrefix(t.Name(), "kv")
	if !ok || t.PkgPath() != reflect.TypeFor[kvDeployWorkflowStepSpec]().PkgPath() {
		return t.String()
	}
	pkg := kvPackages[t]
	if pkg == "" {
		pkg = "v1alpha1"
	}
	return pkg + "." + name
}

// kvFieldPath is a decoding error's Field with KubeVela's names for the
// embedded structs (whose Go field names are their type names).
func kvFieldPath(field string) string {
	segs := strings.Split(field, ".")
	for i, s := range segs {
		if rest, ok := strings.CutPrefix(s, "kv"); ok && rest != "" && unicode.IsUpper(rune(rest[0])) {
			segs[i] = rest
		}
	}
	return strings.Join(segs, ".")
}

// kvError rewrites an encoding/json error about a kv* type as KubeVela's
// decoder words it; the original stays reachable with errors.As.
func kvError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	msg := fmt.Sprintf("json: cannot unmarshal %s into Go value of type %s", te.Value, kvTypeName(te.Type))
	if te.Struct != "" || te.Field != "" {
		msg = fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s.%s of type %s",
			te.Value, strings.TrimPrefix(te.Struct, "kv"), kvFieldPath(te.Field), kvTypeName(te.Type))
	}
	return &decodeError{msg: msg, err: te}
}

// decodeError is a decoding error in KubeVela's words.
type decodeError struct {
	msg string
	err *json.UnmarshalTypeError
}

func (e *decodeError) Error() string { return e.msg }
func (e *decodeError) Unwrap() error { return e.err }

// decodeStrict decodes v (the JSON data model) into dst as KubeVela's
// utils.StrictUnmarshal does: unknown fields are an error.
func decodeStrict(v any, dst any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	return kvError(d.Decode(dst))
}

// decodeLoose decodes v into dst as json.Unmarshal does.
func decodeLoose(v any, dst any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return kvError(json.Unmarshal(data, dst))
}

// errorPath finds where in v (the JSON data model) a decoding error
// arose: the path (in manifest.Path form, relative to v) of the unknown
// field or of the value of the wrong type, "" when it cannot tell.
func errorPath(v any, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, `json: unknown field `); ok {
		if key, uerr := strconv.Unquote(name); uerr == nil {
			p, _ := findKey(v, key)
			return p
		}
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		p, _ := findTyped(v, fieldSegments(te.Field), te.Value)
		return p
	}
	return ""
}

// fieldSegments splits a decoding error's field path, leaving out the
// names of embedded structs (they are no JSON keys).
func fieldSegments(field string) []string {
	var out []string
	for _, s := range strings.Split(field, ".") {
		if s != "" && !unicode.IsUpper(rune(s[0])) && !strings.HasPrefix(s, "kv") {
			out = append(out, s)
		}
	}
	return out
}

// findKey returns the path of the first map key named key, in the order
// the decoder meets keys (sorted, depth first).
func findKey(v any, key string) (string, bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range manifest.SortedKeys(x) {
			if k == key {
				return k, true
			}
			if p, ok := findKey(x[k], key); ok {
				return joinPath(k, p), true
			}
		}
	case []any:
		for i, e := range x {
			if p, ok := findKey(e, key); ok {
				return joinPath(i, p), true
			}
		}
	}
	return "", false
}

// findTyped follows segs (map keys; lists are searched element by
// element) to the first value whose JSON type is kind.
func findTyped(v any, segs []string, kind string) (string, bool) {
	if list, ok := v.([]any); ok && (len(segs) > 0 || manifest.JSONKind(v) != kind) {
		for i, e := range list {
			if p, ok := findTyped(e, segs, kind); ok {
				return joinPath(i, p), true
			}
		}
		return "", false
	}
	if len(segs) == 0 {
		if m, ok := v.(map[string]any); ok && kind != "object" {
			for _, k := range manifest.SortedKeys(m) {
				if manifest.JSONKind(m[k]) == kind {
					return k, true
				}
			}
		}
		return "", strings.HasPrefix(kind, manifest.JSONKind(v))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	child, ok := m[segs[0]]
	if !ok {
		return "", false
	}
	p, ok := findTyped(child, segs[1:], kind)
	return joinPath(segs[0], p), ok
}

func joinPath(first any, rest string) string {
	p := manifest.Path(first)
	if _, isIndex := first.(int); isIndex {
		p = fmt.Sprintf("[%d]", first)
	}
	switch {
	case rest == "":
		return p
	case strings.HasPrefix(rest, "["):
		return p + rest
	}
	return p + "." + rest
}
