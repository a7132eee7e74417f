package workflow

import (
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/resourcekeeper"
)

// stateKeep is what KubeVela's resource keeper does once a workflow has
// succeeded or is suspended (application_controller.go calls
// resourceKeeper.StateKeep, pkg/resourcekeeper/statekeep.go): it applies
// every object it dispatched again, from the resource tracker, through
// pkg/utils/apply's three-way patch. The objects are the ones written, so
// the patch changes nothing but this: a null entry of a map (an output a
// step left unresolved, `data: {key: null}`) is a deletion in that patch,
// so the key is gone from the stored object. An object the read-only
// policy selects is not applied, nor one whose apply-once strategy
// affects state keeping; an enabled apply-once policy without rules turns
// state keeping off.
func (w *workflowRun) stateKeep() {
	res := w.res.Resources
	if res != nil && res.ApplyOnce != nil && res.ApplyOnce.Enable && res.ApplyOnce.Rules == nil {
		return
	}
	for _, wr := range w.res.Writes {
		o := manifest.New(wr.Resource.Object)
		if res != nil && (res.ReadOnly.Matches(o) || res.ApplyOnce.FindStrategy(o).Affects(resourcekeeper.ApplyOnceOnStateKeep)) {
			continue
		}
		if dropNullEntries(wr.Resource.Object) {
			w.tracef("state keep %s %s: null entries deleted", o.Kind(), o.Name())
		}
	}
}

// dropNullEntries deletes the null entries of every map in v, as a merge
// patch's null deletes the key, and reports whether it deleted any. A
// ConfigMap's or Secret's data, and an object's labels or annotations,
// left empty by that are dropped too: these are Go maps with omitempty in
// the API types, stored as absent when empty.
func dropNullEntries(obj map[string]any) bool {
	omitEmpty := [][]string{{"metadata", "labels"}, {"metadata", "annotations"}}
	if manifest.String(obj, "apiVersion") == "v1" {
		switch manifest.String(obj, "kind") {
		case "ConfigMap":
			omitEmpty = append(omitEmpty, []string{"data"}, []string{"binaryData"})
		case "Secret":
			omitEmpty = append(omitEmpty, []string{"data"}, []string{"stringData"})
		}
	}
	var emptied [][]string // the maps the deletion leaves empty
	for _, path := range omitEmpty {
		if m := manifest.Map(obj, path...); len(m) > 0 && allNull(m) {
			emptied = append(emptied, path)
		}
	}
	if !deleteNulls(obj) {
		return false
	}
	for _, path := range emptied {
		delete(manifest.Map(obj, path[:len(path)-1]...), path[len(path)-1])
	}
	return true
}

// deleteNulls deletes the null entries of the maps in v, recursively
// (through lists too), and reports whether it deleted any.
func deleteNulls(v any) bool {
	deleted := false
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				deleted = true
				continue
			}
			deleted = deleteNulls(e) || deleted
		}
	case []any:
		for _, e := range x {
			deleted = deleteNulls(e) || deleted
		}
	}
	return deleted
}

// allNull reports whether every entry of m is null.
func allNull(m map[string]any) bool {
	for _, v := range m {
		if v != nil {
			return false
		}
	}
	return true
}
