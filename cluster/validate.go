package cluster

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// decodeCluster reads a Cluster object's fields drydock uses, checking
// their types as the API server decodes them and their values as Karmada's
// ValidateCluster does (labels, provider, region and zones as label
// values, taints). spec.syncMode is not required: inventories describe
// KubeVela clusters too.
func decodeCluster(obj *manifest.Object) (*Cluster, error) {
	c := &Cluster{Name: obj.Name(), Source: obj.Pos}
	var err error
	if c.Labels, err = stringMap(obj, fieldpath.New("metadata", "labels")); err != nil {
		return nil, err
	}
	if err := validLabels(obj, c.Labels); err != nil {
		return nil, err
	}
	annotations, err := stringMap(obj, fieldpath.New("metadata", "annotations"))
	if err != nil {
		return nil, err
	}
	c.ControlPlane = annotations[AnnotationControlPlane]
	for _, f := range []struct {
		path fieldpath.Path
		dst  *string
	}{{fieldpath.New("spec", "provider"), &c.Provider}, {fieldpath.New("spec", "region"), &c.Region}} {
		if *f.dst, err = labelValueField(obj, f.path); err != nil {
			return nil, err
		}
	}
	if c.Zones, err = zones(obj); err != nil {
		return nil, err
	}
	if c.KubernetesVersion, err = stringField(obj, fieldpath.New("status", "kubernetesVersion")); err != nil {
		return nil, err
	}
	return c, nil
}

// lookupPath reads the value at path.
func lookupPath(obj *manifest.Object, path fieldpath.Path) (any, bool) {
	return fieldpath.Get(obj.Data, path)
}

// stringField reads an optional string field at a path of plain keys.
func stringField(obj *manifest.Object, path fieldpath.Path) (string, error) {
	v, _ := lookupPath(obj, path)
	return stringValue(obj, path, v)
}

// stringValue reads v, found at path, as an optional string.
func stringValue(obj *manifest.Object, path fieldpath.Path, v any) (string, error) {
	if v == nil {
		return "", nil
	}
	s, isString := v.(string)
	if !isString {
		return "", typeError(obj, path, v, "string")
	}
	return s, nil
}

// labelValueField reads an optional string field that must be a valid
// label value (provider, region).
func labelValueField(obj *manifest.Object, path fieldpath.Path) (string, error) {
	s, err := stringField(obj, path)
	if err == nil && s != "" {
		if verr := manifest.ValidLabelValue(s); verr != nil {
			return "", invalid(obj, path, s, verr.Error())
		}
	}
	return s, err
}

// stringMap reads an optional map of strings.
func stringMap(obj *manifest.Object, path fieldpath.Path) (map[string]string, error) {
	v, ok := lookupPath(obj, path)
	if !ok || v == nil {
		return nil, nil
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return nil, typeError(obj, path, v, "object")
	}
	out := make(map[string]string, len(m))
	for _, k := range manifest.SortedKeys(m) {
		s, isString := m[k].(string)
		if !isString {
			return nil, typeError(obj, path.Child(k), m[k], "string")
		}
		out[k] = s
	}
	return out, nil
}

// validLabels checks label keys and values as ValidateObjectMeta does.
func validLabels(obj *manifest.Object, labels map[string]string) error {
	for _, k := range manifest.SortedKeys(labels) {
		if err := manifest.ValidLabelKey(k); err != nil {
			return invalid(obj, fieldpath.New("metadata", "labels"), k, err.Error())
		}
		if err := manifest.ValidLabelValue(labels[k]); err != nil {
			return invalid(obj, fieldpath.New("metadata", "labels", k), labels[k], err.Error())
		}
	}
	return nil
}

// zones reads spec.zones: a list of label values.
func zones(obj *manifest.Object) ([]string, error) {
	l, err := list(obj, fieldpath.New("spec", "zones"))
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(l))
	for i, z := range l {
		path := fieldpath.New("spec", "zones", i)
		s, ok := z.(string)
		if !ok {
			return nil, typeError(obj, path, z, "string")
		}
		if err := manifest.ValidLabelValue(s); err != nil {
			return nil, invalid(obj, path, s, err.Error())
		}
		out = append(out, s)
	}
	return out, nil
}

// list reads an optional list field at a path of plain keys.
func list(obj *manifest.Object, path fieldpath.Path) ([]any, error) {
	v, _ := lookupPath(obj, path)
	return listValue(obj, path, v)
}

// listValue reads v, found at path, as an optional list.
func listValue(obj *manifest.Object, path fieldpath.Path, v any) ([]any, error) {
	if v == nil {
		return nil, nil
	}
	l, isList := v.([]any)
	if !isList {
		return nil, typeError(obj, path, v, "array")
	}
	return l, nil
}

// object reads list item i of path as an object.
func object(obj *manifest.Object, path fieldpath.Path, v any) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, typeError(obj, path, v, "object")
	}
	return m, nil
}

// typeError is the API server's message for a value of the wrong type.
func typeError(obj *manifest.Object, path fieldpath.Path, v any, want string) error {
	got := manifest.TypeName(v)
	return clusterError(obj, path, "%s: Invalid value: %q: %s in body must be of type %s: %q", path, got, path, want, got)
}

// invalid is a field.Invalid error: the value rendered as the API server
// renders it (strings quoted, numbers plain, the rest as JSON).
func invalid(obj *manifest.Object, path fieldpath.Path, v any, msg string) error {
	return clusterError(obj, path, "%s: Invalid value: %s: %s", path, render(v), msg)
}

// clusterError is a refusal of a Cluster about the field at path,
// positioned there: `file:line:col: Cluster "name": message`.
func clusterError(obj *manifest.Object, path fieldpath.Path, format string, args ...any) error {
	return &manifest.Error{Pos: obj.FieldPos(path), Subjects: []manifest.Subject{{Kind: "Cluster", Name: obj.Name()}},
		Field: path, Err: fmt.Errorf(format, args...)}
}

// render formats a bad value as apimachinery's field errors do.
func render(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case int64, float64, bool:
		return fmt.Sprint(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// maxInt64 is the max of the last resource model, as Karmada stores it.
const maxInt64 = math.MaxInt64
