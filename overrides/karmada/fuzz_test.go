package karmada

import (
	"errors"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// FuzzParseApply parses policies from arbitrary YAML and applies them to an
// arbitrary object: nothing may panic and errors wrap their sentinels
// (FuzzNativePatch checks the patching against the library).
func FuzzParseApply(f *testing.F) {
	f.Add(benchPolicies, benchObject)
	f.Add(copHead+"metadata: {name: p}\nspec: {overriders: {plaintext: [{path: /spec/a/-1, operator: add, value: {x: 1.0}}]}}",
		"apiVersion: v1\nkind: K\nmetadata: {name: c}\nspec: {a: [1, 2]}")
	f.Add(copHead+"metadata: {name: p}\nspec: {overriders: {labelsOverrider: [{operator: add, value: {a~1b: x, c/d: y}}]}}",
		"apiVersion: v1\nkind: K\nmetadata: {name: c, labels: {a/b: z}}")
	f.Add(copHead+"metadata: {name: p}\nspec: {overrideRules: [{overriders: {fieldOverrider: [{fieldPath: /data/a, yaml: [{subPath: /k, operator: add, value: [1]}]}]}}]}",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 'k: v'}")
	f.Fuzz(func(t *testing.T, policySrc, objSrc string) {
		pobjs, err := manifest.Decode("p.yaml", []byte(policySrc), manifest.DecodeOptions{})
		if err != nil {
			return
		}
		var policies []*Policy
		for _, o := range pobjs {
			if !IsPolicy(o) {
				continue
			}
			p, err := Parse(o)
			if err != nil {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("Parse error %v does not wrap ErrInvalid", err)
				}
				continue
			}
			policies = append(policies, p)
		}
		objs, err := manifest.Decode("o.yaml", []byte(objSrc), manifest.DecodeOptions{})
		if err != nil || len(objs) == 0 {
			return
		}
		if _, _, err := Apply(objs[0], testCluster, policies); err != nil && !errors.Is(err, ErrApply) {
			t.Fatalf("Apply error %v does not wrap ErrApply", err)
		}
	})
}
