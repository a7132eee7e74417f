package charts

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/strvals"

	"github.com/drydock-dev/drydock/manifest"
)

// ErrValuesReference is wrapped by every error about a valuesFrom entry
// (missing object or key, unsupported kind, unreadable values, a
// targetPath that does not merge).
var ErrValuesReference = errors.New("chart values reference")

// errResourceNotFound is chartutil's ErrResourceNotFound: the ConfigMap or
// Secret is not on the cluster (yet: Reconcile tries again once other
// producers have added objects).
var errResourceNotFound = errors.New("resource not found")

// valuesRef is one entry of a HelmRelease's spec.valuesFrom (fluxcd/pkg
// apis/meta ValuesReference).
type valuesRef struct {
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	ValuesKey  string `json:"valuesKey"`
	TargetPath string `json:"targetPath"`
	Optional   bool   `json:"optional"`
	Literal    bool   `json:"literal"`
}

// key is ValuesReference.GetValuesKey: values.yaml unless set.
func (r valuesRef) key() string {
	if r.ValuesKey == "" {
		return "values.yaml"
	}
	return r.ValuesKey
}

// valuesFromReferences composes a release's values as fluxcd/pkg
// chartutil.ChartValuesFromReferences does: each reference in order
// (a YAML document merged over the result, or with targetPath one value
// set through Helm's strvals after spec.values were merged in), then
// values over all. Like the controller it merges without deep copies, so
// that a targetPath into a list spec.values also holds writes through to
// it (chartutil's "target path precedence over all" case). values must be
// the caller's own copy. lookup finds a ConfigMap or Secret of namespace;
// warn is told each optional reference that is skipped.
func valuesFromReferences(lookup func(kind, name string) *manifest.Object, namespace string, values map[string]any, refs []valuesRef, warn func(string)) (map[string]any, error) {
	result := map[string]any{}
	for _, ref := range refs {
		data, err := referencedData(lookup, namespace, ref)
		if err != nil {
			if ref.Optional {
				warn(err.Error())
				continue
			}
			return nil, err
		}
		if ref.TargetPath != "" {
			result = mergeMaps(result, values)
			merge := replacePathValue
			if ref.Literal {
				merge = replacePathLiteralValue
			}
			if err := merge(result, ref.TargetPath, data); err != nil {
				return nil, refError(namespace, ref, "failed to merge value: %w", err)
			}
			continue
		}
		vals, err := common.ReadValues([]byte(data))
		if err != nil {
			return nil, refError(namespace, ref, "failed to read values data: %w", err)
		}
		result = mergeMaps(result, vals)
	}
	return mergeMaps(result, values), nil
}

// referencedData is the value of ref's key in its ConfigMap or Secret.
func referencedData(lookup func(kind, name string) *manifest.Object, namespace string, ref valuesRef) (string, error) {
	if ref.Kind != "ConfigMap" && ref.Kind != "Secret" {
		return "", refError(namespace, ref, "unsupported values reference kind (ConfigMap or Secret)")
	}
	o := lookup(ref.Kind, ref.Name)
	if o == nil {
		return "", refError(namespace, ref, "%w", errResourceNotFound)
	}
	data, ok := objectData(o, ref.key())
	if !ok {
		return "", refError(namespace, ref, "key not found")
	}
	return data, nil
}

// objectData is a ConfigMap's data (or binaryData) key, or a Secret's
// data key decoded (stringData as the API server folds it into data).
func objectData(o *manifest.Object, key string) (string, bool) {
	if o.Kind() == "Secret" {
		if v, ok := manifest.Lookup(o.Data, "stringData", key); ok {
			s, _ := v.(string)
			return s, true
		}
		v, ok := manifest.Lookup(o.Data, "data", key)
		if !ok {
			return "", false
		}
		s, _ := v.(string)
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return s, true
		}
		return string(b), true
	}
	if v, ok := manifest.Lookup(o.Data, "data", key); ok {
		s, _ := v.(string)
		return s, true
	}
	if v, ok := manifest.Lookup(o.Data, "binaryData", key); ok {
		s, _ := v.(string)
		b, err := base64.StdEncoding.DecodeString(s)
		return string(b), err == nil
	}
	return "", false
}

// refError is chartutil's ErrValuesReference text: could not resolve
// [optional] Kind chart values reference 'ns/name' with key 'k': reason.
func refError(namespace string, ref valuesRef, format string, args ...any) error {
	what := "could not resolve"
	if ref.Optional {
		what += " optional"
	}
	if ref.Kind != "" {
		what += " " + ref.Kind
	}
	return fmt.Errorf("%s %w '%s/%s' with key '%s': %w", what, ErrValuesReference, namespace, ref.Name, ref.key(), fmt.Errorf(format, args...))
}

// mergeMaps is fluxcd/pkg chartutil.MergeMaps: b over a, maps merged
// recursively, anything else replaced; a's maps are shared, not copied.
func mergeMaps(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if v, ok := v.(map[string]any); ok {
			if bv, ok := out[k].(map[string]any); ok {
				out[k] = mergeMaps(bv, v)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// replacePathValue is chartutil.ReplacePathValue: path=value through
// Helm's strvals (ParseIntoString for a quoted value, unquoted).
func replacePathValue(values map[string]any, path, value string) error {
	single := strings.HasPrefix(value, "'") && strings.HasSuffix(value, "'")
	double := strings.HasPrefix(value, `"`) && strings.HasSuffix(value, `"`)
	if single || double {
		return strvals.ParseIntoString(path+"="+strings.Trim(value, `'"`), values)
	}
	return strvals.ParseInto(path+"="+value, values)
}

// literalEscaper escapes strvals' syntax in a value (backslash first).
var literalEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `[`, `\[`, `]`, `\]`, `{`, `\{`, `}`, `\}`)

// replacePathLiteralValue is chartutil.ReplacePathLiteralValue: the value
// verbatim at path, `\.` escapes still read in the path.
func replacePathLiteralValue(values map[string]any, path, value string) error {
	return strvals.ParseIntoString(path+"="+literalEscaper.Replace(value), values)
}

// jsonValues is spec.values as helm-controller's GetValues reads it: JSON
// decoded afresh (numbers float64), so the caller owns the copy.
func jsonValues(v any) (map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("spec.values is not an object: %w", err)
	}
	return out, nil
}
