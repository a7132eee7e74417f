package cluster

import (
	"fmt"
	"sort"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"

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
	summary, ok := manifest.Lookup(obj.Data, "status", "resourceSummary")
	if !ok || summary == nil {
		return nil, nil
	}
	m, ok := summary.(map[string]any)
	if !ok {
		return nil, fieldError(obj, "status.resourceSummary", summary, "must be an object")
	}
	c := &Capacity{}
	var err error
	for _, f := range []struct {
		key string
		dst *ResourceList
	}{{"allocatable", &c.Allocatable}, {"allocated", &c.Allocated}, {"allocating", &c.Allocating}} {
		if *f.dst, err = decodeResourceList(obj, "status.resourceSummary."+f.key, m[f.key]); err != nil {
			return nil, err
		}
	}
	if c.Modelings, err = decodeModelings(obj, m["allocatableModelings"]); err != nil {
		return nil, err
	}
	if c.Models, err = decodeModels(obj); err != nil {
		return nil, err
	}
	return c, nil
}

func decodeResourceList(obj *manifest.Object, path string, v any) (ResourceList, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fieldError(obj, path, v, "must be an object")
	}
	out := make(ResourceList, len(m))
	for name, raw := range m {
		q, err := ParseQuantity(raw)
		if err != nil {
			return nil, fieldError(obj, path+"."+name, raw, err.Error())
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
		return resource.Quantity{}, fmt.Errorf("quantities must be a string or a number")
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return resource.Quantity{}, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	}
	return q, nil
}

func decodeModelings(obj *manifest.Object, v any) ([]Modeling, error) {
	l, _ := v.([]any)
	out := make([]Modeling, 0, len(l))
	for i, raw := range l {
		path := manifest.Path("status", "resourceSummary", "allocatableModelings", i)
		m, _ := raw.(map[string]any)
		grade, gok := m["grade"].(int64)
		count, cok := m["count"].(int64)
		if !gok || grade < 0 {
			return nil, fieldError(obj, path+".grade", m["grade"], "must be a non-negative integer")
		}
		if !cok {
			return nil, fieldError(obj, path+".count", m["count"], "must be an integer")
		}
		out = append(out, Modeling{Grade: grade, Count: count})
	}
	return out, nil
}

// decodeModels reads spec.resourceModels as Karmada's API server stores
// them: sorted by grade with the first grade's minimums 0, or the default
// models when there are none.
func decodeModels(obj *manifest.Object) ([]ResourceModel, error) {
	raw, _ := manifest.Lookup(obj.Data, "spec", "resourceModels")
	l, _ := raw.([]any)
	if len(l) == 0 {
		return defaultModels(), nil
	}
	out := make([]ResourceModel, 0, len(l))
	for i, item := range l {
		path := manifest.Path("spec", "resourceModels", i)
		m, _ := item.(map[string]any)
		grade, ok := m["grade"].(int64)
		if !ok || grade < 0 {
			return nil, fieldError(obj, path+".grade", m["grade"], "must be a non-negative integer")
		}
		model := ResourceModel{Grade: grade, Min: ResourceList{}}
		ranges, _ := m["ranges"].([]any)
		for j, r := range ranges {
			rm, _ := r.(map[string]any)
			name, _ := rm["name"].(string)
			q, err := ParseQuantity(rm["min"])
			if err != nil {
				return nil, fieldError(obj, manifest.Path("spec", "resourceModels", i, "ranges", j, "min"), rm["min"], err.Error())
			}
			model.Min[name] = q
		}
		out = append(out, model)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Grade < out[j].Grade })
	for name := range out[0].Min {
		out[0].Min[name] = resource.Quantity{}
	}
	return out, nil
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

// decodeTaints reads spec.taints.
func decodeTaints(obj *manifest.Object) ([]Taint, error) {
	raw, _ := manifest.Lookup(obj.Data, "spec", "taints")
	l, _ := raw.([]any)
	var out []Taint
	for i, item := range l {
		path := manifest.Path("spec", "taints", i)
		m, _ := item.(map[string]any)
		t := Taint{Key: manifest.String(m, "key"), Value: manifest.String(m, "value"), Effect: manifest.String(m, "effect")}
		if t.Key == "" {
			return nil, fmt.Errorf("%s: Cluster %q: %s.key: Required value", obj.FieldPos(path), obj.Name(), path)
		}
		switch t.Effect {
		case "NoSchedule", "PreferNoSchedule", "NoExecute":
		default:
			return nil, fmt.Errorf("%s: Cluster %q: %s.effect: Unsupported value: %q: supported values: \"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"",
				obj.FieldPos(path+".effect"), obj.Name(), path, t.Effect)
		}
		out = append(out, t)
	}
	return out, nil
}

func fieldError(obj *manifest.Object, path string, v any, msg string) error {
	if s, ok := v.(string); ok {
		v = strconv.Quote(s)
	}
	return fmt.Errorf("%s: Cluster %q: %s: Invalid value: %v: %s", obj.FieldPos(path), obj.Name(), path, v, msg)
}
