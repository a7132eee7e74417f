package cluster

import (
	"fmt"
	"sort"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// ResourceList is a Kubernetes ResourceList: amounts by resource name.
type ResourceList map[string]resource.Quantity

// Capacity is what the inventory says of a cluster's free resources, the
// figures Karmada's general replica estimator reads:
// status.resourceSummary and the resource models of spec.resourceModels.
type Capacity struct {
	Allocatable, Allocated, Allocating ResourceList
	// Models are the resource models by ascending grade, as Karmada's
	// API server stores them: the default models when the Cluster has
	// none, else the Cluster's with the first grade's minimums set to 0.
	Models []ResourceModel
	// Modelings are status.resourceSummary.allocatableModelings: how many
	// nodes of each grade the cluster has.
	Modelings []Modeling
}

// ResourceModel is one grade of spec.resourceModels: the minimum amount of
// each resource a node of that grade has.
type ResourceModel struct {
	Grade int64
	Min   ResourceList
}

// Modeling is one allocatableModelings entry.
type Modeling struct {
	Grade int64
	Count int64
}

// Taint is a spec.taints entry of a Cluster.
type Taint struct {
	Key, Value, Effect string
}

// String formats the taint as Kubernetes' Taint.ToString does.
func (t Taint) String() string {
	if t.Value == "" {
		return t.Key + ":" + t.Effect
	}
	return t.Key + "=" + t.Value + ":" + t.Effect
}

// Pods returns the "pods" amount of l, zero when absent.
func (l ResourceList) Pods() resource.Quantity {
	return l["pods"]
}

// decodeCapacity reads status.resourceSummary and spec.resourceModels; nil
// when the Cluster has no resourceSummary.
func decodeCapacity(obj *manifest.Object) (*Capacity, error) {
	models, err := decodeModels(obj) // validated whether or not they are used
	if err != nil {
		return nil, err
	}
	summary, ok := manifest.Lookup(obj.Data, "status", "resourceSummary")
	if !ok || summary == nil {
		return nil, nil
	}
	m, err := object(obj, fieldpath.New("status", "resourceSummary"), summary)
	if err != nil {
		return nil, err
	}
	c := &Capacity{Models: models}
	for _, f := range []struct {
		key string
		dst *ResourceList
	}{{"allocatable", &c.Allocatable}, {"allocated", &c.Allocated}, {"allocating", &c.Allocating}} {
		if *f.dst, err = decodeResourceList(obj, fieldpath.New("status", "resourceSummary", f.key), m[f.key]); err != nil {
			return nil, err
		}
	}
	if c.Modelings, err = decodeModelings(obj); err != nil {
		return nil, err
	}
	return c, nil
}

func decodeResourceList(obj *manifest.Object, path fieldpath.Path, v any) (ResourceList, error) {
	if v == nil {
		return nil, nil
	}
	m, err := object(obj, path, v)
	if err != nil {
		return nil, err
	}
	out := make(ResourceList, len(m))
	for _, name := range manifest.SortedKeys(m) {
		q, err := ParseQuantity(m[name])
		if err != nil {
			return nil, invalid(obj, path.Child(name), m[name], err.Error())
		}
		out[name] = q
	}
	return out, nil
}

// ParseQuantity reads a Kubernetes quantity written as a string or a
// number, as the API server decodes one.
func ParseQuantity(v any) (resource.Quantity, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case int64:
		s = strconv.FormatInt(x, 10)
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		return resource.Quantity{}, fmt.Errorf("quantities must be a string or a number, not %s", manifest.TypeName(v))
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return resource.Quantity{}, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	}
	return q, nil
}

// integer reads a required whole number.
func integer(obj *manifest.Object, path fieldpath.Path, v any) (int64, error) {
	if v == nil {
		return 0, clusterError(obj, path, "%s: Required value", path)
	}
	n, ok := v.(int64)
	if !ok {
		return 0, typeError(obj, path, v, "integer")
	}
	return n, nil
}

func decodeModelings(obj *manifest.Object) ([]Modeling, error) {
	l, err := list(obj, fieldpath.New("status", "resourceSummary", "allocatableModelings"))
	if err != nil {
		return nil, err
	}
	out := make([]Modeling, 0, len(l))
	for i, raw := range l {
		path := fieldpath.New("status", "resourceSummary", "allocatableModelings", i)
		m, err := object(obj, path, raw)
		if err != nil {
			return nil, err
		}
		var md Modeling
		if md.Grade, err = integer(obj, path.Child("grade"), m["grade"]); err != nil {
			return nil, err
		}
		if md.Grade < 0 {
			return nil, invalid(obj, path.Child("grade"), md.Grade, "must be greater than or equal to 0")
		}
		if md.Count, err = integer(obj, path.Child("count"), m["count"]); err != nil {
			return nil, err
		}
		out = append(out, md)
	}
	return out, nil
}

// model is a resource model as authored, with its maxima for validation.
type model struct {
	ResourceModel
	names []string
	max   []resource.Quantity
}

// decodeModels reads spec.resourceModels as Karmada's API server stores
// and validates them: sorted by grade, the first grade's minimums 0 and
// the last grade's maximums MaxInt64, then checked (ValidateClusterResourceModels);
// the default models when there are none.
func decodeModels(obj *manifest.Object) ([]ResourceModel, error) {
	l, err := list(obj, fieldpath.New("spec", "resourceModels"))
	if err != nil || len(l) == 0 {
		return defaultModels(), err
	}
	models := make([]model, 0, len(l))
	for i, item := range l {
		m, err := decodeModel(obj, fieldpath.New("spec", "resourceModels", i), item)
		if err != nil {
			return nil, err
		}
		models = append(models, m)
	}
	sort.SliceStable(models, func(i, j int) bool { return models[i].Grade < models[j].Grade })
	for _, name := range models[0].names {
		models[0].Min[name] = resource.Quantity{}
	}
	last := models[len(models)-1]
	for j := range last.max {
		last.max[j] = *resource.NewQuantity(maxInt64, resource.DecimalSI)
	}
	if msg := checkModels(models); msg != "" {
		return nil, invalid(obj, fieldpath.New("spec", "resourceModels"), l, msg)
	}
	out := make([]ResourceModel, len(models))
	for i, m := range models {
		out[i] = m.ResourceModel
	}
	return out, nil
}

func decodeModel(obj *manifest.Object, path fieldpath.Path, item any) (model, error) {
	m, err := object(obj, path, item)
	if err != nil {
		return model{}, err
	}
	md := model{ResourceModel: ResourceModel{Min: ResourceList{}}}
	if md.Grade, err = integer(obj, path.Child("grade"), m["grade"]); err != nil {
		return model{}, err
	}
	ranges, err := listValue(obj, path.Child("ranges"), m["ranges"])
	if err != nil {
		return model{}, err
	}
	for j, r := range ranges {
		rpath := path.Child("ranges").At(j)
		rm, err := object(obj, rpath, r)
		if err != nil {
			return model{}, err
		}
		name, _ := rm["name"].(string)
		if name == "" {
			return model{}, clusterError(obj, rpath, "%s.name: Required value", rpath)
		}
		var lo, hi resource.Quantity
		for _, b := range []struct {
			key string
			dst *resource.Quantity
		}{{"min", &lo}, {"max", &hi}} {
			if *b.dst, err = ParseQuantity(rm[b.key]); err != nil {
				return model{}, invalid(obj, rpath.Child(b.key), rm[b.key], err.Error())
			}
		}
		md.Min[name] = lo
		md.names = append(md.names, name)
		md.max = append(md.max, hi)
	}
	return md, nil
}

// checkModels is Karmada's ValidateClusterResourceModels on standardized
// models: its message, or "".
func checkModels(models []model) string {
	for i, m := range models {
		if i > 0 && m.Grade == models[i-1].Grade {
			return "The grade of each models should not be the same"
		}
		if i > 0 && len(models[i-1].names) != len(m.names) {
			return "The number of resource types should be the same"
		}
		for j, name := range m.names {
			lo := m.Min[name]
			if m.max[j].Cmp(lo) <= 0 {
				return "The max value of each resource must be greater than the min value"
			}
			if i == 0 {
				continue
			}
			prev := models[i-1]
			if prev.names[j] != name {
				return "The resource types of each models should be the same"
			}
			if prev.max[j].Cmp(lo) != 0 {
				return "Model intervals for resources must be contiguous and non-overlapping"
			}
		}
	}
	return ""
}

// defaultModels are the nine grades Karmada's API server gives a Cluster
// created without resource models (pkg/apis/cluster/mutation).
func defaultModels() []ResourceModel {
	const gib = 1024 * 1024 * 1024
	cpu := []int64{0, 1, 2, 4, 8, 16, 32, 64, 128}
	mem := []int64{0, 4, 16, 32, 64, 128, 256, 512, 1024}
	out := make([]ResourceModel, len(cpu))
	for g := range cpu {
		out[g] = ResourceModel{Grade: int64(g), Min: ResourceList{
			"cpu":    *resource.NewQuantity(cpu[g], resource.DecimalSI),
			"memory": *resource.NewQuantity(mem[g]*gib, resource.BinarySI),
		}}
	}
	return out
}

// decodeTaints reads spec.taints as Karmada's ValidateClusterTaints checks
// them: a valid label name as key, a label value as value, a known effect,
// unique by key and effect.
func decodeTaints(obj *manifest.Object) ([]Taint, error) {
	l, err := list(obj, fieldpath.New("spec", "taints"))
	if err != nil {
		return nil, err
	}
	var out []Taint
	seen := map[[2]string]bool{}
	for i, item := range l {
		path := fieldpath.New("spec", "taints", i)
		tm, err := object(obj, path, item)
		if err != nil {
			return nil, err
		}
		var t Taint
		for _, f := range []struct {
			key string
			dst *string
		}{{"key", &t.Key}, {"value", &t.Value}, {"effect", &t.Effect}} {
			if *f.dst, err = stringValue(obj, path.Child(f.key), tm[f.key]); err != nil {
				return nil, err
			}
		}
		if err := checkTaint(obj, path, t); err != nil {
			return nil, err
		}
		if seen[[2]string{t.Key, t.Effect}] {
			return nil, clusterError(obj, path, "%s: Duplicate value: %s: taints must be unique by key and effect pair", path, render(item))
		}
		seen[[2]string{t.Key, t.Effect}] = true
		out = append(out, t)
	}
	return out, nil
}

func checkTaint(obj *manifest.Object, path fieldpath.Path, t Taint) error {
	if t.Key == "" {
		return clusterError(obj, path, "%s.key: Required value", path)
	}
	if err := manifest.ValidLabelKey(t.Key); err != nil {
		return invalid(obj, path.Child("key"), t.Key, err.Error())
	}
	if err := manifest.ValidLabelValue(t.Value); err != nil {
		return invalid(obj, path.Child("value"), t.Value, err.Error())
	}
	switch t.Effect {
	case "NoSchedule", "PreferNoSchedule", "NoExecute":
		return nil
	case "":
		return clusterError(obj, path, "%s.effect: Required value", path)
	}
	return clusterError(obj, path.Child("effect"), "%s.effect: Unsupported value: %q: supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"", path, t.Effect)
}
