package karmada

import (
	"encoding/json"

	jsonpatch "github.com/evanphx/json-patch/v5"
)

// The tests check the in-memory patcher against the library Karmada uses.

// exactPatch is Karmada's applyJSONPatch: marshal, patch, unmarshal.
func exactPatch(doc map[string]any, ops []patchOp) (map[string]any, error) {
	patchJSON, err := marshalPatch(ops)
	if err != nil {
		return nil, err
	}
	patch, err := jsonpatch.DecodePatch(patchJSON)
	if err != nil {
		return nil, err
	}
	docJSON, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	out, err := patch.Apply(docJSON)
	if err != nil {
		return nil, err
	}
	return decodeObject(out)
}
