// Package revision computes the revision values KubeVela v1.11's
// controller writes, so that a render equals what a live cluster holds:
// the application-revision hash (the app.oam.dev/app-revision-hash label)
// over the Application's spec and everything its revision records (the
// definitions it uses, external policies and workflow, referred objects),
// and a component's spec hash (context.revision).
//
// It mirrors KubeVela's API structs (types.go) because KubeVela hashes Go
// values, not JSON. It does not decide which revision number an
// Application is at (render.Application.Revision) nor where labels go
// (render/cueval).
package revision

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mitchellh/hashstructure/v2"
)

// SpecHash is KubeVela's ComputeSpecHash (kubevela 5a44b5f
// pkg/controller/utils/utils.go): hashstructure v2 in FormatV2 (FNV-64
// over the Go value), printed in lowercase hex without leading zeros.
func SpecHash(v any) (string, error) {
	h, err := hashstructure.Hash(v, hashstructure.FormatV2, nil)
	if err != nil {
		return "", fmt.Errorf("hash: %w", err)
	}
	return strconv.FormatUint(h, 16), nil
}

// decode reads v, a JSON-shaped value (maps, lists, strings, numbers,
// bools), into out as KubeVela's typed decoding does: the JSON is Go's
// (keys sorted, compact, HTML-escaped), which is what the API server
// serves and what sigs.k8s.io/yaml makes of YAML, so a RawExtension holds
// the bytes KubeVela's would.
func decode(v any, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}

// normalizeProperties re-encodes a component's properties through a map,
// as gatherRevisionSpec does before hashing (kubevela 5a44b5f
// pkg/controller/core.oam.dev/v1beta1/application/revision.go): numbers go
// through float64, keys are sorted. Properties that are not a JSON object
// stay as they are.
func normalizeProperties(r *RawExtension) {
	if r == nil || r.Raw == nil {
		return
	}
	var obj map[string]any
	if err := json.Unmarshal(r.Raw, &obj); err != nil {
		return
	}
	if b, err := json.Marshal(obj); err == nil {
		r.Raw = b
	}
}
