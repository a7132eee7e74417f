package karmada

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestLabelAnnotationOverriderKarmadaRows are the 13 rows of Karmada's
// Test_applyLabelsOverriders and Test_applyAnnotationsOverriders
// (pkg/util/overridemanager at f8fdd02): a Deployment's labels or
// annotations after one overrider.
func TestLabelAnnotationOverriderKarmadaRows(t *testing.T) {
	fooBar := map[string]any{"foo": "foo", "bar": "bar"}
	composed := map[string]any{"testannotation/projectId": "c-m-lfx9lk92:p-v86cf", "foo": "foo"}
	tests := []struct {
		name, field, operator string
		start                 map[string]any // nil: the field is absent
		value, want           map[string]string
	}{
		{"test empty labels", "labels", OpAdd, nil, map[string]string{"test2": "test2"}, map[string]string{"test2": "test2"}},
		{"test labels replace", "labels", OpReplace, fooBar, map[string]string{"foo": "exist", "non-exist": "non-exist"}, map[string]string{"foo": "exist", "bar": "bar"}},
		{"test labels add", "labels", OpAdd, fooBar, map[string]string{"test": "test"}, map[string]string{"test": "test", "foo": "foo", "bar": "bar"}},
		{"test labels remove", "labels", OpRemove, fooBar, map[string]string{"foo": "foo", "non-exist": "non-exist"}, map[string]string{"bar": "bar"}},
		{"test empty annotations", "annotations", OpAdd, nil, map[string]string{"test2": "test2"}, map[string]string{"test2": "test2"}},
		{"test annotations replace", "annotations", OpReplace, fooBar, map[string]string{"foo": "exist", "non-exist": "non-exist"}, map[string]string{"foo": "exist", "bar": "bar"}},
		{"test annotations add", "annotations", OpAdd, fooBar, map[string]string{"test": "test"}, map[string]string{"test": "test", "foo": "foo", "bar": "bar"}},
		{"test annotations remove", "annotations", OpRemove, fooBar, map[string]string{"foo": "foo", "non-exist": "non-exist"}, map[string]string{"bar": "bar"}},
		{"test annotations remain the same (remove nothing)", "annotations", OpRemove, fooBar, map[string]string{}, map[string]string{"bar": "bar", "foo": "foo"}},
		{"test annotations remain the same (replace absent)", "annotations", OpReplace, fooBar, map[string]string{"test": "test"}, map[string]string{"bar": "bar", "foo": "foo"}},
		{"test annotations remain the same (remove absent)", "annotations", OpRemove, fooBar, map[string]string{"test": "test"}, map[string]string{"bar": "bar", "foo": "foo"}},
		{"test add composed annotation", "annotations", OpAdd, fooBar, map[string]string{"testannotation/projectId": "c-m-lfx9lk92:p-v86cf"},
			map[string]string{"foo": "foo", "bar": "bar", "testannotation/projectId": "c-m-lfx9lk92:p-v86cf"}},
		{"test remove composed annotation", "annotations", OpRemove, composed, map[string]string{"testannotation/projectId": "c-m-lfx9lk92:p-v86cf"}, map[string]string{"foo": "foo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := workload("Deployment", "nginx")
			md := doc["metadata"].(map[string]any)
			if tt.start != nil {
				md[tt.field] = manifestCopy(tt.start)
			}
			ops := labelAnnotationPatches(doc, tt.field, &LabelAnnotationOverrider{Operator: tt.operator, Value: tt.value})
			d := &document{data: doc}
			if _, err := d.patch(ops); err != nil {
				t.Fatal(err)
			}
			out := d.data
			got := map[string]string{}
			m, _ := out["metadata"].(map[string]any)[tt.field].(map[string]any)
			for k, v := range m {
				got[k], _ = v.(string)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.field, diff)
			}
		})
	}
}
