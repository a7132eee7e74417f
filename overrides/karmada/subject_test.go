package karmada

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestErrorSubjects: a policy's errors name it as a subject of kind and
// name (no text pre-formatted into the kind), printed as Karmada names
// objects: "OverridePolicy default/bad".
func TestErrorSubjects(t *testing.T) {
	tests := []struct {
		name, src string
		want      manifest.Subject
		text      string
	}{
		{"namespaced", "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: bad, namespace: default}\nspec:\n  overrideRules:\n  - overriders: {labelsOverrider: [{operator: add, value: {team: not a valid label value!}}]}\n",
			manifest.Subject{Kind: "OverridePolicy", Name: "default/bad", Bare: true}, "OverridePolicy default/bad"},
		{"cluster-scoped", "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: bad}\nspec:\n  overrideRules:\n  - overriders: {labelsOverrider: [{operator: add, value: {team: not a valid label value!}}]}\n",
			manifest.Subject{Kind: "ClusterOverridePolicy", Name: "bad", Bare: true}, "ClusterOverridePolicy bad"},
		// The schema is checked before the name is read: the kind alone.
		{"a schema violation", "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: bad, namespace: default}\nspec:\n  overrideRules:\n  - overriders: {plaintext: [{path: /a, operator: nope}]}\n",
			manifest.Subject{Kind: "OverridePolicy"}, "OverridePolicy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseOne(t, tt.src)
			var me *manifest.Error
			if !errors.As(err, &me) {
				t.Fatalf("error %v: want a manifest.Error", err)
			}
			if d := cmp.Diff([]manifest.Subject{tt.want}, me.Subjects); d != "" {
				t.Errorf("subjects (-want +got):\n%s", d)
			}
			if got := me.Subjects[0].String(); got != tt.text {
				t.Errorf("subject text %q, want %q", got, tt.text)
			}
		})
	}
}
