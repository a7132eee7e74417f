package kustomize

// postBuild substitution: a port of fluxcd/pkg/kustomize v1.41.0
// kustomize_varsub.go (SubstituteVariables, LoadVariables,
// varSubstitution), Apache-2.0, reading ConfigMaps and Secrets through a
// Lookup instead of a controller-runtime client, with
// github.com/fluxcd/pkg/envsubst itself.

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/fluxcd/pkg/envsubst"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// substituteKey, set to "disabled" as a label or annotation, turns
// substitution off for one object.
const substituteKey = "kustomize.toolkit.fluxcd.io/substitute"

// varNamePattern is what a variable's name must match.
const varNamePattern = "^[_[:alpha:]][_[:alpha:][:digit:]]*$"

// isVarName reports whether s matches varNamePattern (ASCII letters,
// digits and underscores, not starting with a digit).
func isVarName(s string) bool {
	for i, c := range s {
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// substituter substitutes postBuild variables, loading substituteFrom
// once, when the first object needs it.
type substituter struct {
	in     buildInput
	vars   map[string]string
	loaded bool
}

func newSubstituter(in buildInput) *substituter { return &substituter{in: in} }

// substitute replaces ${VAR} in res unless res disables it.
func (s *substituter) substitute(res *resource.Resource) error {
	if res.GetLabels()[substituteKey] == "disabled" || res.GetAnnotations()[substituteKey] == "disabled" {
		return nil
	}
	if !s.loaded {
		vars, err := s.loadVariables()
		if err != nil {
			return err
		}
		s.vars, s.loaded = vars, true
	}
	always := s.in.spec.PostBuild.SubstituteStrategy == "Always"
	if len(s.vars) == 0 && !always {
		return nil
	}
	data, err := res.AsYAML()
	if err != nil {
		return err
	}
	out, err := varSubstitution(data, s.vars, s.in.strict)
	if err != nil {
		return fmt.Errorf("envsubst error: %w", err)
	}
	if err := res.UnmarshalJSON(out); err != nil {
		return fmt.Errorf("UnmarshalJSON: %w", err)
	}
	return nil
}

// loadVariables merges substituteFrom's ConfigMaps and Secrets in order,
// then postBuild.substitute over them; newlines are dropped from values.
func (s *substituter) loadVariables() (map[string]string, error) {
	vars := map[string]string{}
	ns := s.in.ks.Namespace()
	for _, ref := range s.in.spec.PostBuild.SubstituteFrom {
		var o *manifest.Object
		if s.in.lookup != nil && (ref.Kind == "ConfigMap" || ref.Kind == "Secret") {
			o = s.in.lookup(ref.Kind, ns, ref.Name)
		}
		if o == nil && (ref.Kind == "ConfigMap" || ref.Kind == "Secret") {
			if ref.Optional {
				continue
			}
			return nil, fmt.Errorf("substitute from '%s/%s' error: %w: %ss %q not found in namespace %q (add it to the inputs or set optional: true)",
				ref.Kind, ref.Name, ErrSubstituteFrom, strings.ToLower(ref.Kind), ref.Name, ns)
		}
		data, err := objectData(o, ref.Kind)
		if err != nil {
			return nil, fmt.Errorf("substitute from '%s/%s' error: %w", ref.Kind, ref.Name, err)
		}
		for k, v := range data {
			vars[k] = strings.ReplaceAll(v, "\n", "")
		}
	}
	for k, v := range s.in.spec.PostBuild.Substitute {
		vars[k] = strings.ReplaceAll(v, "\n", "")
	}
	return vars, nil
}

// objectData is a ConfigMap's data, or a Secret's data decoded from
// base64 with stringData over it (as the API server stores it).
func objectData(o *manifest.Object, kind string) (map[string]string, error) {
	switch kind {
	case "ConfigMap":
		return manifest.StringMap(o.Data, "data"), nil
	case "Secret":
		out := map[string]string{}
		for k, v := range manifest.StringMap(o.Data, "data") {
			b, err := base64.StdEncoding.DecodeString(v)
			if err != nil {
				return nil, fmt.Errorf("data.%s: %w", k, err)
			}
			out[k] = string(b)
		}
		for k, v := range manifest.StringMap(o.Data, "stringData") {
			out[k] = v
		}
		return out, nil
	}
	return nil, nil
}

// varSubstitution is fluxcd/pkg/kustomize's varSubstitution: validate
// the names, run envsubst (an unset variable is empty unless strict),
// and return the result as JSON.
func varSubstitution(data []byte, vars map[string]string, strict bool) ([]byte, error) {
	for _, v := range manifest.SortedKeys(vars) {
		if !isVarName(v) {
			return nil, fmt.Errorf("'%s' var name is invalid, must match '%s'", v, varNamePattern)
		}
	}
	output, err := envsubst.Eval(string(data), func(s string) (string, bool) {
		if strict {
			v, ok := vars[s]
			return v, ok
		}
		return vars[s], true
	})
	if err != nil {
		return nil, fmt.Errorf("variable substitution failed: %w", err)
	}
	j, err := yaml.YAMLToJSON([]byte(output))
	if err != nil {
		return nil, fmt.Errorf("YAMLToJSON: %w", err)
	}
	return j, nil
}
