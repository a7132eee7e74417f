package schemas

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	kfield "k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"

	"github.com/drydock-dev/drydock/manifest"
)

// Finding is something an API server would refuse in an object, or warn
// about.
type Finding struct {
	// Field is the path of the offending value in the object ("" for the
	// object as a whole), in the API server's notation.
	Field   string
	Message string
	// Warning marks what the API server accepts with a warning (a
	// deprecated API) or what drydock could not check.
	Warning bool
}

func (f Finding) String() string {
	if f.Field == "" {
		return f.Message
	}
	return f.Field + ": " + f.Message
}

// objectValidator checks objects of one kind with the Kubernetes
// project's own validation (k8s.io/apiextensions-apiserver), as the API
// server validates a custom resource: the structural schema's unknown
// fields (strict field validation), the OpenAPI schema (types, required
// fields, enums, formats, bounds), list types and CEL rules
// (x-kubernetes-validations), on the object with its schema's defaults
// applied.
type objectValidator struct {
	structural *structuralschema.Structural
	schema     validation.SchemaCreateValidator
	cel        *cel.Validator
	// defaults says whether the schema has defaults to apply.
	defaults bool
	// builtin adds the API server's checks of built-in kinds that their
	// published schemas do not express (builtin.go), as Kubernetes
	// 1.minor makes them; namespaced says whether the kind is.
	builtin    bool
	minor      int
	namespaced bool
	err        error
}

// newObjectValidator builds a validator from a schema in
// apiextensions/v1 JSON form.
func newObjectValidator(schemaJSON []byte, builtin bool) *objectValidator {
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(schemaJSON, &v1); err != nil {
		return &objectValidator{err: err}
	}
	return newObjectValidatorProps(&v1, builtin)
}

func newObjectValidatorProps(v1 *apiextensionsv1.JSONSchemaProps, builtin bool) *objectValidator {
	var props apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v1, &props, nil); err != nil {
		return &objectValidator{err: err}
	}
	ss, err := structuralschema.NewStructural(&props)
	if err != nil {
		return &objectValidator{err: err}
	}
	// The API server's conversion to an OpenAPI schema (unsupported
	// formats stripped), validated on create: no ratcheting, which only
	// concerns updates.
	var openapi spec.Schema
	if err := validation.ConvertJSONSchemaPropsWithPostProcess(&props, &openapi, validation.StripUnsupportedFormatsPostProcessorForVersion(environment.DefaultCompatibilityVersion())); err != nil {
		return &objectValidator{err: err}
	}
	sv := createValidator{validate.NewSchemaValidator(&openapi, nil, "", strfmt.Default)}
	return &objectValidator{structural: ss, schema: sv, cel: cel.NewValidator(ss, true, celconfig.PerCallLimit), builtin: builtin, defaults: hasDefaults(ss)}
}

// hasDefaults reports whether a schema declares a default anywhere.
func hasDefaults(s *structuralschema.Structural) bool {
	if s == nil {
		return false
	}
	if s.Default.Object != nil {
		return true
	}
	for _, p := range s.Properties {
		if hasDefaults(&p) {
			return true
		}
	}
	if s.AdditionalProperties != nil && hasDefaults(s.AdditionalProperties.Structural) {
		return true
	}
	return hasDefaults(s.Items)
}

// listTypeWarnings are what the list types of a built-in kind's schema
// (x-kubernetes-list-type map or set) find: the API server's validation
// of built-in kinds does not read them, so a duplicate it does not refuse
// itself (found holds what it does) is accepted, but server-side apply
// refuses it: a warning.
func listTypeWarnings(errs kfield.ErrorList, found []Finding) []Finding {
	var out []Finding
	for _, e := range errs {
		// The API server may refuse the duplicate at another entry of the
		// list (a topology spread constraint at its first).
		list := e.Field
		if i := strings.LastIndex(list, "["); i > 0 {
			list = list[:i]
		}
		covered := slices.ContainsFunc(found, func(f Finding) bool {
			return f.Field == e.Field || strings.HasPrefix(f.Field, e.Field+".") ||
				!f.Warning && strings.HasPrefix(f.Field, list+"[") && strings.Contains(f.Message, "Duplicate value")
		})
		if !covered {
			out = append(out, Finding{Field: e.Field, Warning: true, Message: e.ErrorBody() + ": the API server accepts it, but server-side apply refuses duplicate entries"})
		}
	}
	return out
}

// validate checks obj (a decoded JSON object; it is not changed).
func (v *objectValidator) validate(obj map[string]any) []Finding {
	if v.err != nil {
		return []Finding{{Message: fmt.Sprintf("cannot validate: its schema does not build: %v", v.err), Warning: true}}
	}
	var out []Finding
	add := func(errs kfield.ErrorList) {
		for _, e := range errs {
			out = append(out, Finding{Field: e.Field, Message: e.ErrorBody()})
		}
	}
	// Strict field validation: what pruning would drop. The root's
	// metadata is skipped by pruning (the API server checks it as
	// ObjectMeta), so a built-in kind's is checked with its schema.
	var unknown []string
	unknownFields(obj, v.structural, true, "", &unknown)
	if meta, ok := v.structural.Properties["metadata"]; ok && v.builtin {
		unknownFields(obj["metadata"], &meta, false, "metadata", &unknown)
	}
	for _, p := range unknown {
		out = append(out, unknownField(p))
	}
	// The API server applies a custom resource's schema defaults before
	// it validates: the schema and its CEL rules see them.
	if v.defaults {
		obj = manifest.DeepCopy(obj).(map[string]any)
		structuraldefaulting.Default(obj, v.structural)
	}
	add(validation.ValidateCustomResource(nil, obj, v.schema))
	listErrs := listtype.ValidateListSetsAndMaps(nil, v.structural, obj)
	if v.cel != nil {
		errs, _ := v.cel.Validate(context.Background(), nil, v.structural, obj, nil, celconfig.RuntimeCELCostBudget)
		add(errs)
	}
	if !v.builtin {
		add(listErrs)
	} else {
		errs, warns := validateBuiltin(obj, v.minor, v.namespaced)
		add(errs)
		out = append(out, warns...)
		out = append(out, listTypeWarnings(listErrs, out)...)
	}
	// The schema validator reports in map order.
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(strings.Compare(a.Field, b.Field), strings.Compare(a.Message, b.Message))
	})
	return out
}

// createValidator validates objects being created.
type createValidator struct{ *validate.SchemaValidator }

func (v createValidator) Validate(obj any, _ ...validation.ValidationOption) *validate.Result {
	return v.SchemaValidator.Validate(obj)
}

// metaFields are what pruning leaves alone at the root of a resource and
// of an embedded one.
var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// unknownFields lists the paths of the fields under x that the API
// server's pruning (k8s.io/apiextensions-apiserver schema/pruning) would
// drop: strict field validation's unknown fields. It reads x without the
// copy pruning would need.
func unknownFields(x any, s *structuralschema.Structural, root bool, at string, out *[]string) {
	if s != nil && s.XPreserveUnknownFields {
		// Kept as they are, but known nested schemas still prune.
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if p, ok := s.Properties[k]; ok {
					unknownFields(v, &p, false, join(at, k), out)
				} else if s.AdditionalProperties != nil {
					unknownFields(v, s.AdditionalProperties.Structural, false, join(at, k), out)
				}
			}
		case []any:
			for i, v := range x {
				unknownFields(v, s.Items, false, fmt.Sprintf("%s[%d]", at, i), out)
			}
		}
		return
	}
	switch x := x.(type) {
	case map[string]any:
		embedded := root || (s != nil && s.XEmbeddedResource)
		for k, v := range x {
			switch {
			case embedded && metaFields[k]:
			case s == nil:
				*out = append(*out, join(at, k))
			default:
				if p, ok := s.Properties[k]; ok {
					unknownFields(v, &p, false, join(at, k), out)
				} else if s.AdditionalProperties != nil {
					unknownFields(v, s.AdditionalProperties.Structural, false, join(at, k), out)
				} else {
					*out = append(*out, join(at, k))
				}
			}
		}
	case []any:
		var items *structuralschema.Structural
		if s != nil {
			items = s.Items
		}
		for i, v := range x {
			unknownFields(v, items, false, fmt.Sprintf("%s[%d]", at, i), out)
		}
	}
}

func unknownField(path string) Finding {
	return Finding{Field: path, Message: fmt.Sprintf("unknown field %q", path)}
}

// The published schemas of a few definitions disagree with what the API
// server accepts (facts kubectl-validate records in its schema patches):
// these types marshal themselves and take null, and IntOrString is
// either.
var nullableDefinitions = map[string]bool{
	"io.k8s.apimachinery.pkg.runtime.RawExtension":                                          true,
	"io.k8s.apimachinery.pkg.apis.meta.v1.Time":                                             true,
	"io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime":                                        true,
	"io.k8s.apimachinery.pkg.apis.meta.v1.Duration":                                         true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON":                         true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool":        true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray": true,
	"io.k8s.apimachinery.pkg.api.resource.Quantity":                                         true,
}

const (
	intOrString = "io.k8s.apimachinery.pkg.util.intstr.IntOrString"
	quantity    = "io.k8s.apimachinery.pkg.api.resource.Quantity"
)

// builtinOptional are fields the published schemas of some versions list
// as required (a Go field without omitempty) that the API server's
// validation lets be empty: by definition.
var builtinOptional = map[string][]string{
	// StatefulSets without a governing Service are accepted; 1.30's
	// schema made the field optional.
	"io.k8s.api.apps.v1.StatefulSetSpec": {"serviceName"},
}

// builtinEnums are values the API server's validation of built-in kinds
// accepts (k8s.io/kubernetes pkg/apis/*/validation) where the published
// schemas declare only a string: by definition and property.
var builtinEnums = map[string]map[string][]any{
	"io.k8s.api.core.v1.ServiceSpec": {
		"type":                  {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"},
		"ipFamilyPolicy":        {"PreferDualStack", "RequireDualStack", "SingleStack"},
		"externalTrafficPolicy": {"Cluster", "Local"},
		"internalTrafficPolicy": {"Cluster", "Local"},
		"sessionAffinity":       {"ClientIP", "None"},
	},
	"io.k8s.api.core.v1.ServicePort":   {"protocol": {"SCTP", "TCP", "UDP"}},
	"io.k8s.api.core.v1.ContainerPort": {"protocol": {"SCTP", "TCP", "UDP"}},
	"io.k8s.api.core.v1.Container": {
		"imagePullPolicy":          {"Always", "IfNotPresent", "Never"},
		"terminationMessagePolicy": {"FallbackToLogsOnError", "File"},
	},
	"io.k8s.api.core.v1.PodSpec": {
		"restartPolicy":    {"Always", "Never", "OnFailure"},
		"dnsPolicy":        {"ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"},
		"preemptionPolicy": {"Never", "PreemptLowerPriority"},
	},
	"io.k8s.api.core.v1.HTTPGetAction":             {"scheme": {"HTTP", "HTTPS"}},
	"io.k8s.api.core.v1.TopologySpreadConstraint":  {"whenUnsatisfiable": {"DoNotSchedule", "ScheduleAnyway"}},
	"io.k8s.api.core.v1.SeccompProfile":            {"type": {"Localhost", "RuntimeDefault", "Unconfined"}},
	"io.k8s.api.core.v1.NodeSelectorRequirement":   {"operator": {"DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn"}},
	"io.k8s.api.core.v1.HostPathVolumeSource":      {"type": {"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"}},
	"io.k8s.api.core.v1.PersistentVolumeClaimSpec": {"volumeMode": {"Block", "Filesystem"}},
	"io.k8s.api.core.v1.PersistentVolumeSpec": {
		"persistentVolumeReclaimPolicy": {"Delete", "Recycle", "Retain"},
		"volumeMode":                    {"Block", "Filesystem"},
	},
	"io.k8s.api.apps.v1.DeploymentStrategy":        {"type": {"Recreate", "RollingUpdate"}},
	"io.k8s.api.apps.v1.StatefulSetSpec":           {"podManagementPolicy": {"OrderedReady", "Parallel"}},
	"io.k8s.api.apps.v1.StatefulSetUpdateStrategy": {"type": {"OnDelete", "RollingUpdate"}},
	"io.k8s.api.apps.v1.DaemonSetUpdateStrategy":   {"type": {"OnDelete", "RollingUpdate"}},
	"io.k8s.api.networking.v1.HTTPIngressPath":     {"pathType": {"Exact", "ImplementationSpecific", "Prefix"}},
	"io.k8s.api.networking.v1.NetworkPolicyPort":   {"protocol": {"SCTP", "TCP", "UDP"}},
	"io.k8s.api.batch.v1.CronJobSpec":              {"concurrencyPolicy": {"Allow", "Forbid", "Replace"}},
	"io.k8s.api.batch.v1.JobSpec":                  {"completionMode": {"Indexed", "NonIndexed"}},
	"io.k8s.api.storage.v1.StorageClass": {
		"reclaimPolicy":     {"Delete", "Retain"},
		"volumeBindingMode": {"Immediate", "WaitForFirstConsumer"},
	},
}

// builtinSchema resolves the definition of a built-in kind into one
// schema without references: each $ref (or allOf holding one) replaced by
// the definition it names, the patches above applied, defaults dropped
// (drydock does not apply them). A definition met again inside itself
// (JSONSchemaProps) keeps any value.
func (a *KubeAPI) builtinSchema(name string) ([]byte, error) {
	r := resolver{defs: a.defs, done: map[string]map[string]any{}, open: map[string]bool{}}
	root, err := r.definition(name)
	if err != nil {
		return nil, err
	}
	return json.Marshal(root)
}

type resolver struct {
	defs map[string]json.RawMessage
	done map[string]map[string]any
	open map[string]bool
}

func (r *resolver) definition(name string) (map[string]any, error) {
	if s, ok := r.done[name]; ok {
		return s, nil
	}
	if r.open[name] {
		return map[string]any{"x-kubernetes-preserve-unknown-fields": true}, nil
	}
	switch name {
	case intOrString:
		return map[string]any{"x-kubernetes-int-or-string": true}, nil
	case quantity: // a number or a string, in every version (older schemas say string)
		return map[string]any{"nullable": true, "oneOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}}, nil
	}
	raw, ok := r.defs[name]
	if !ok {
		return nil, fmt.Errorf("schema %s not found", name)
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	r.open[name] = true
	err := r.walk(s)
	delete(r.open, name)
	if err != nil {
		return nil, err
	}
	if nullableDefinitions[name] {
		s["nullable"] = true
	}
	if optional := builtinOptional[name]; optional != nil {
		required, _ := s["required"].([]any)
		s["required"] = slices.DeleteFunc(required, func(r any) bool { f, _ := r.(string); return slices.Contains(optional, f) })
	}
	props, _ := s["properties"].(map[string]any)
	for prop, values := range builtinEnums[name] {
		if p, ok := props[prop].(map[string]any); ok {
			p["enum"] = values
		}
	}
	r.done[name] = s
	return s, nil
}

// walk resolves the references under s, in place.
func (r *resolver) walk(s map[string]any) error {
	delete(s, "default")
	delete(s, "x-kubernetes-group-version-kind")
	if s["format"] == "byte" && s["type"] == "string" {
		// Built-in byte strings may be empty; a CRD's may not.
		delete(s, "format")
		s["anyOf"] = []any{map[string]any{"format": "byte"}, map[string]any{"maxLength": 0}}
	}
	for _, key := range []string{"properties", "patternProperties"} {
		props, _ := s[key].(map[string]any)
		for k, v := range props {
			sub, err := r.node(v)
			if err != nil {
				return err
			}
			props[k] = sub
		}
	}
	for _, key := range []string{"items", "additionalProperties"} {
		if v, ok := s[key].(map[string]any); ok {
			sub, err := r.node(v)
			if err != nil {
				return err
			}
			s[key] = sub
		}
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := s[key].([]any)
		for i, v := range list {
			sub, err := r.node(v)
			if err != nil {
				return err
			}
			list[i] = sub
		}
	}
	return nil
}

// node resolves one subschema: a reference becomes a copy of what it
// names, with the referring node's nullable and extensions.
func (r *resolver) node(v any) (any, error) {
	s, ok := v.(map[string]any)
	if !ok {
		return v, nil
	}
	ref, _ := s["$ref"].(string)
	if all, ok := s["allOf"].([]any); ok && len(all) == 1 && ref == "" {
		if one, ok := all[0].(map[string]any); ok {
			ref, _ = one["$ref"].(string)
			if ref != "" {
				delete(s, "allOf")
			}
		}
	}
	if ref == "" {
		return s, r.walk(s)
	}
	target, err := r.definition(path.Base(ref))
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(target)+2)
	for k, v := range target {
		out[k] = v
	}
	for k, v := range s {
		switch {
		case k == "nullable" && v == true, strings.HasPrefix(k, "x-kubernetes-"):
			out[k] = v
		}
	}
	return out, nil
}

// validator returns the validator of a served kind (key: group/version/
// Kind), built once: concurrent callers of other kinds do not wait.
func (a *KubeAPI) validator(key string) *objectValidator {
	build, _ := a.validators.LoadOrStore(key, sync.OnceValue(func() *objectValidator {
		data, err := a.builtinSchema(a.kinds[key].Definition)
		if err != nil {
			return &objectValidator{err: err}
		}
		v := newObjectValidator(data, true)
		v.minor, v.namespaced = minorOf(a.Version), a.kinds[key].Namespaced
		return v
	}))
	return build.(func() *objectValidator)()
}

// Validate checks o as the version's API server checks an object it is
// asked to create. served is false when the version does not serve o's
// kind: nothing is checked (Lifecycle says whether it was removed).
func (a *KubeAPI) Validate(o *manifest.Object) (findings []Finding, served bool) {
	key := gvkKey(o.APIVersion(), o.Kind())
	if _, ok := a.kinds[key]; !ok {
		return nil, false
	}
	return a.validator(key).validate(o.Data), true
}

// Check validates o as the API server of the embedded Kubernetes version
// (KubeVersions) with the custom resources of crds (nil: none) would: a
// finding when the version no longer serves o's API or deprecates it
// (Lifecycle), then its schema's findings; a kind of a built-in API group
// that no release serves (a misspelt kind, a version that never existed)
// is refused (NotServed), not taken for a custom resource. checked is
// false when no schema knows o's kind: a custom resource whose definition
// is not among crds.
func Check(version string, crds *CRDs, o *manifest.Object) (findings []Finding, checked bool, err error) {
	lifecycle, builtin := Lifecycle(version, o.APIVersion(), o.Kind())
	if lifecycle != nil {
		findings = append(findings, *lifecycle)
	}
	api, err := LoadKubeAPI(version)
	if err != nil {
		return findings, false, err
	}
	fs, served := api.Validate(o)
	if !served && !builtin {
		fs, served = crds.Validate(o)
		// Not a custom resource: a kind of a built-in group that no
		// release serves in this version is refused.
		if f := NotServed(version, o.APIVersion(), o.Kind()); !served && f != nil {
			return append(findings, *f), true, nil
		}
	}
	return append(findings, fs...), served || builtin, nil
}

// join appends key k to a path as the API server's pruning prints it
// (plain dots, whatever the key holds): the text of its unknown-field
// messages, not a drydock field path.
func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}
