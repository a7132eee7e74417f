package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/kvapi"
)

// checkDefSpec is the check `vela def` (and the addon loader) makes of a
// CUE definition file before it becomes an object: its attributes, with
// the template at schematic.cue.template, decode strictly into the
// definition kind's spec type (kubevela pkg/definition/definition.go
// FromCUE and validateSpec, utils.StrictUnmarshal). An unknown attribute
// (a trait's attributes.workload) or one of the wrong type is refused in
// its words.
func checkDefSpec(m cue.Value, d *Definition) error {
	attrs := m.LookupPath(cue.ParsePath("attributes"))
	spec := map[string]any{}
	if attrs.Exists() {
		if err := attrs.Decode(&spec); err != nil {
			return manifest.At(cuePos(attrs, d.Source), "%s %q: attributes: %s", d.Kind, d.Name, CUEMessage(err))
		}
	}
	schematic, _ := spec["schematic"].(map[string]any)
	if schematic == nil {
		schematic = map[string]any{}
		spec["schematic"] = schematic
	}
	cueField, _ := schematic["cue"].(map[string]any)
	if cueField == nil {
		cueField = map[string]any{}
		schematic["cue"] = cueField
	}
	cueField["template"] = "" // FromCUE sets the template here.
	bs, err := json.Marshal(spec)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(bs))
	dec.DisallowUnknownFields()
	if err := dec.Decode(defSpecType(d.Kind)); err != nil {
		at := cuePos(attrs, d.Source)
		field, ok := strings.CutPrefix(err.Error(), "json: unknown field ")
		field = strings.Trim(field, `"`)
		if te := (*json.UnmarshalTypeError)(nil); !ok && errors.As(err, &te) {
			field = te.Field
		}
		if f := attrs.LookupPath(cue.ParsePath(field)); field != "" && f.Exists() {
			at = cuePos(f, at)
		}
		return manifest.At(at, "%s %q: invalid definition spec: %s", d.Kind, d.Name, err)
	}
	return nil
}

// defSpecType is a new value of the spec type of kind: KubeVela's own
// (package kvapi mirrors apis/core.oam.dev/v1beta1 and common, names
// included), so that decoding errors read as KubeVela's (`Go struct
// field TraitDefinitionSpec.podDisruptive`).
func defSpecType(kind string) any {
	switch kind {
	case KindComponent:
		return &kvapi.ComponentDefinitionSpec{}
	case KindTrait:
		return &kvapi.TraitDefinitionSpec{}
	case KindPolicy:
		return &kvapi.PolicyDefinitionSpec{}
	}
	return &kvapi.WorkflowStepDefinitionSpec{}
}
