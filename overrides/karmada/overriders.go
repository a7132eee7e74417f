package karmada

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// Kinds whose containers imageOverrider (without predicate),
// commandOverrider and argsOverrider find by themselves.
const (
	kindPod         = "Pod"
	kindReplicaSet  = "ReplicaSet"
	kindDeployment  = "Deployment"
	kindDaemonSet   = "DaemonSet"
	kindStatefulSet = "StatefulSet"
	kindJob         = "Job"
)

// containersPath returns where a kind keeps its containers.
func containersPath(kind string) []string {
	switch kind {
	case kindPod:
		return []string{"spec", "containers"}
	case kindReplicaSet, kindDeployment, kindDaemonSet, kindStatefulSet, kindJob:
		return []string{"spec", "template", "spec", "containers"}
	}
	return nil
}

// imagePatches is Karmada's buildPatches for one ImageOverrider.
func imagePatches(doc map[string]any, o *ImageOverrider) ([]patchOp, error) {
	if o.HasPredicate {
		cur, err := imageAtPredicate(doc, o.PredicatePath)
		if err != nil {
			return nil, fmt.Errorf("failed to obtain imageValue with predicate path(%s), error: %v", o.PredicatePath, err)
		}
		if !strings.HasPrefix(o.PredicatePath, "/") {
			return nil, fmt.Errorf("imagePath should be start with / character")
		}
		img, err := overrideImage(cur, o)
		if err != nil {
			return nil, err
		}
		return []patchOp{{op: OpReplace, path: o.PredicatePath, value: img}}, nil
	}
	kind := manifest.String(doc, "kind")
	fields := containersPath(kind)
	if fields == nil {
		return nil, nil
	}
	images, err := typedImages(doc, fields)
	if err != nil {
		return nil, fmt.Errorf("failed to convert %s from unstructured object: %v", kind, err)
	}
	prefix := "/" + strings.Join(fields[:len(fields)-1], "/")
	ops := make([]patchOp, 0, len(images))
	for i, cur := range images {
		img, err := overrideImage(cur, o)
		if err != nil {
			return nil, err
		}
		ops = append(ops, patchOp{op: OpReplace, path: prefix + "/containers/" + strconv.Itoa(i) + "/image", value: img})
	}
	return ops, nil
}

// typedImages reads the container images the way converting the object to
// its typed form does: absent or null levels mean no containers, an absent
// image is "", and a value of the wrong type is a conversion error.
func typedImages(doc map[string]any, fields []string) ([]string, error) {
	var cur any = doc
	for _, f := range fields[:len(fields)-1] {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: expected an object, found %s", f, manifest.TypeName(cur))
		}
		cur = m[f]
		if cur == nil {
			return nil, nil
		}
	}
	m, ok := cur.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("spec: expected an object, found %s", manifest.TypeName(cur))
	}
	raw := m["containers"]
	if raw == nil {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("containers: expected an array, found %s", manifest.TypeName(raw))
	}
	images := make([]string, len(list))
	for i, c := range list {
		if c == nil {
			continue
		}
		cm, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("containers[%d]: expected an object, found %s", i, manifest.TypeName(c))
		}
		switch img := cm["image"].(type) {
		case nil:
		case string:
			images[i] = img
		default:
			return nil, fmt.Errorf("containers[%d].image: expected a string, found %s", i, manifest.TypeName(img))
		}
	}
	return images, nil
}

// imageAtPredicate is Karmada's obtainImageValue: a walk of the slash
// separated segments (no ~ unescaping) where a list consumes the next
// segment as its index.
func imageAtPredicate(doc map[string]any, path string) (string, error) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	cur := doc
	for i := 0; i < len(segs)-1; i++ {
		switch v := cur[segs[i]].(type) {
		case map[string]any:
			cur = v
		case []any:
			idx, err := strconv.ParseInt(segs[i+1], 10, 32)
			if err != nil {
				return "", fmt.Errorf("path(%s) of rawObj's is not number", segs[i+1])
			}
			if idx < 0 || int(idx) >= len(v) {
				return "", fmt.Errorf("index out of range [%d] with length %d", idx, len(v))
			}
			m, ok := v[idx].(map[string]any)
			if !ok {
				return "", fmt.Errorf("path(%s) of rawObj's element is not map[string]interface{}", segs[i+1])
			}
			cur = m
			i++
		default:
			return "", fmt.Errorf("path(%s) of rawObj's type is not map[string]interface{} and []interface{}", segs[i])
		}
	}
	img, ok := cur[segs[len(segs)-1]].(string)
	if !ok {
		return "", fmt.Errorf("failed to convert path(%s) to string", segs[len(segs)-1])
	}
	return img, nil
}

// commandArgsPatches is Karmada's buildCommandArgsPatches; target is
// "command" or "args".
func commandArgsPatches(doc map[string]any, target string, o *CommandArgsOverrider) ([]patchOp, error) {
	fields := containersPath(manifest.String(doc, "kind"))
	if fields == nil {
		return nil, nil
	}
	slash := strings.Join(fields, "/")
	containers, err := nestedSlice(doc, fields)
	if err != nil {
		return nil, fmt.Errorf("failed to retrieves path(%s) from rawObj, error: %v", slash, err)
	}
	var ops []patchOp
	for i, c := range containers {
		cm, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("container %d at %s is %s, not an object", i, slash, manifest.TypeName(c))
		}
		if name, ok := cm["name"].(string); !ok || name != o.ContainerName {
			continue
		}
		path := "/" + slash + "/" + strconv.Itoa(i) + "/" + target
		if cm[target] == nil {
			ops = append(ops, patchOp{op: OpAdd, path: path, value: overrideCommandArgs([]string{}, o)})
			continue
		}
		list, ok := cm[target].([]any)
		if !ok {
			return nil, fmt.Errorf("%s of container %d at %s is %s, not an array", target, i, slash, manifest.TypeName(cm[target]))
		}
		cur := make([]string, 0, len(list))
		for _, v := range list {
			cur = append(cur, fmt.Sprintf("%s", v))
		}
		ops = append(ops, patchOp{op: OpReplace, path: path, value: overrideCommandArgs(cur, o)})
	}
	return ops, nil
}

func overrideCommandArgs(cur []string, o *CommandArgsOverrider) []string {
	switch o.Operator {
	case OpAdd:
		return append(cur, o.Value...)
	case OpRemove:
		out := make([]string, 0, len(cur))
		for _, v := range cur {
			if !slices.Contains(o.Value, v) {
				out = append(out, v)
			}
		}
		return out
	}
	return cur
}

// nestedSlice is unstructured.NestedSlice: a missing or null level is not
// found, a non-object level or a non-list value an error.
func nestedSlice(doc map[string]any, fields []string) ([]any, error) {
	var cur any = doc
	for _, f := range fields {
		if cur == nil {
			return nil, nil
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf(".%s accessor error: %v is of the type %T, expected map[string]interface{}", f, cur, cur)
		}
		v, ok := m[f]
		if !ok {
			return nil, nil
		}
		cur = v
	}
	list, ok := cur.([]any)
	if !ok {
		return nil, fmt.Errorf(".%s accessor error: %v is of the type %T, expected []interface{}", strings.Join(fields, "."), cur, cur)
	}
	return list, nil
}

// labelAnnotationPatches is Karmada's buildLabelAnnotationOverriderPatches
// on metadata.<field>. Like Karmada it may create the map in doc before any
// patch.
func labelAnnotationPatches(doc map[string]any, field string, o *LabelAnnotationOverrider) []patchOp {
	var ops []patchOp
	for _, key := range manifest.SortedKeys(o.Value) {
		switch o.Operator {
		case OpRemove, OpReplace:
			current, _ := nestedStringMap(doc, field)
			if _, ok := current[key]; !ok {
				continue
			}
		case OpAdd:
			if _, exists := nestedStringMap(doc, field); !exists {
				if !setMetadataMap(doc, field) {
					continue
				}
			}
		}
		ops = append(ops, patchOp{
			op:    o.Operator,
			path:  "/metadata/" + field + "/" + strings.ReplaceAll(key, "/", "~1"),
			value: o.Value[key],
		})
	}
	return ops
}

// nestedStringMap is unstructured.NestedStringMap on metadata.<field>: the
// map exists only if it is a map of strings.
func nestedStringMap(doc map[string]any, field string) (map[string]any, bool) {
	meta, ok := doc["metadata"].(map[string]any)
	if !ok {
		return nil, false
	}
	m, ok := meta[field].(map[string]any)
	if !ok {
		return nil, false
	}
	for _, v := range m {
		if _, ok := v.(string); !ok {
			return nil, false
		}
	}
	return m, true
}

// setMetadataMap is unstructured.SetNestedStringMap(doc, {}, metadata,
// field); it fails when metadata is not a map.
func setMetadataMap(doc map[string]any, field string) bool {
	meta, ok := doc["metadata"].(map[string]any)
	if !ok {
		if doc["metadata"] != nil {
			return false
		}
		meta = map[string]any{}
		doc["metadata"] = meta
	}
	meta[field] = map[string]any{}
	return true
}

// scalarDocError is json-patch's refusal of a document that is a JSON
// string, number or bool (its error, kept as it is): Kind is which.
type scalarDocError struct {
	kind string
	err  error
}

func (e *scalarDocError) Error() string { return e.err.Error() }
func (e *scalarDocError) Unwrap() error { return e.err }

// applyPatch is patch.Apply on doc; json-patch's refusal of a scalar
// document (an error of its internal JSON decoder, whose type cannot be
// named) is a *scalarDocError, the document's kind read from doc itself.
func applyPatch(patch jsonpatch.Patch, doc []byte) ([]byte, error) {
	out, err := patch.Apply(doc)
	if err != nil {
		if kind := scalarKind(doc); kind != "" {
			return nil, &scalarDocError{kind: kind, err: err}
		}
	}
	return out, err
}

// scalarKind is the JSON kind of doc when it is a string, number or bool
// (as encoding/json names them in its errors), else "".
func scalarKind(doc []byte) string {
	if !json.Valid(doc) {
		return "" // refused as invalid, not as a scalar
	}
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	tok, err := d.Token()
	if err != nil {
		return ""
	}
	switch tok.(type) {
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "bool"
	}
	return ""
}

// fieldOverride is Karmada's applyFieldOverriders for one FieldOverrider:
// the string at FieldPath is patched as a JSON or YAML document and set
// back, without a round trip of the object.
func fieldOverride(doc map[string]any, f *FieldOverrider) error {
	tokens, err := pointerTokens(f.FieldPath)
	if err != nil {
		return err
	}
	v, err := pointerGet(doc, tokens)
	if err != nil {
		return err
	}
	s, ok := v.(string)
	if !ok || len(tokens) == 0 {
		//lint:ignore ST1005 Karmada's message, kept verbatim
		return fmt.Errorf("Get object's value by overrider's path(%s) is not string", f.FieldPath)
	}
	var out []byte
	switch {
	case len(f.YAML) > 0:
		out, err = yamlFieldPatch([]byte(s), f.YAML)
	case len(f.JSON) > 0:
		out, err = jsonFieldPatch([]byte(s), f.JSON)
	}
	if err != nil {
		// json-patch's decoder error is Karmada's own wording; say what it means.
		var se *scalarDocError
		if errors.As(err, &se) {
			return fmt.Errorf("%w (the text at %s is a %s, not an object or list the patch can change)", se.err, f.FieldPath, se.kind)
		}
		return err
	}
	pointerSet(doc, tokens, string(out))
	return nil
}

func fieldPatch(ops []Operation) (jsonpatch.Patch, error) {
	p := make([]patchOp, len(ops))
	for i := range ops {
		raw, err := ops[i].valueJSON()
		if err != nil {
			return nil, err
		}
		p[i] = patchOp{op: ops[i].Operator, path: ops[i].Path, raw: raw}
	}
	data, err := marshalPatch(p)
	if err != nil {
		return nil, err
	}
	return jsonpatch.DecodePatch(data)
}

// jsonFieldPatch is Karmada's applyRawJSONPatch.
func jsonFieldPatch(raw []byte, ops []Operation) ([]byte, error) {
	patch, err := fieldPatch(ops)
	if err != nil {
		return nil, err
	}
	return applyPatch(patch, raw)
}

// yamlFieldPatch is Karmada's applyRawYAMLPatch: YAML (1.1, first document)
// to JSON, patch, back to YAML.
func yamlFieldPatch(raw []byte, ops []Operation) ([]byte, error) {
	data, err := yaml.YAMLToJSON(raw)
	if err != nil {
		return nil, err
	}
	patch, err := fieldPatch(ops)
	if err != nil {
		return nil, err
	}
	if data, err = applyPatch(patch, data); err != nil {
		return nil, err
	}
	return yaml.JSONToYAML(data)
}

// pointerTokens splits a JSON pointer as go-openapi/jsonpointer.New does.
func pointerTokens(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if !strings.HasPrefix(p, "/") {
		return nil, fmt.Errorf("%s", errPointer)
	}
	tokens := strings.Split(p[1:], "/")
	for i, t := range tokens {
		tokens[i] = unescape(t)
	}
	return tokens, nil
}

// pointerGet is go-openapi/jsonpointer's Get on the JSON data model.
func pointerGet(doc map[string]any, tokens []string) (any, error) {
	var cur any = doc
	for _, t := range tokens {
		switch c := cur.(type) {
		case nil:
			return nil, fmt.Errorf("nil value has not field %q", t)
		case map[string]any:
			v, ok := c[t]
			if !ok {
				return nil, fmt.Errorf("object has no key %q", t)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil {
				return nil, err
			}
			if i < 0 || i >= len(c) {
				return nil, fmt.Errorf("index out of bounds array[0,%d] index '%d'", len(c)-1, i)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("invalid token reference %q", t)
		}
	}
	return cur, nil
}

// pointerSet stores v at a path pointerGet has just resolved.
func pointerSet(doc map[string]any, tokens []string, v string) {
	var cur any = doc
	for i, t := range tokens {
		last := i == len(tokens)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[t] = v
				return
			}
			cur = c[t]
		case []any:
			n, _ := strconv.Atoi(t)
			if last {
				c[n] = v
				return
			}
			cur = c[n]
		}
	}
}
