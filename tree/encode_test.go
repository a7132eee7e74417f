package tree

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// checkEncode requires Encode to write what sigs.k8s.io/yaml.Marshal
// writes (or fail as it does), except where that function fails on
// characters go-yaml v2 writes but will not read back (C1 controls, DEL):
// there Encode's output must read back as the value.
func checkEncode(t *testing.T, data map[string]any) {
	t.Helper()
	want, wantErr := yaml.Marshal(data)
	got, gotErr := Encode(manifest.New(data))
	if wantErr != nil && strings.Contains(wantErr.Error(), "control characters are not allowed") && gotErr == nil {
		var back any
		if err := yaml.Unmarshal(got, &back); err != nil {
			t.Fatalf("Encode wrote what does not read back: %v\n%s", err, got)
		}
		return
	}
	if (wantErr != nil) != (gotErr != nil) {
		t.Fatalf("error %v, sigs.k8s.io/yaml's %v", gotErr, wantErr)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("Encode differs from sigs.k8s.io/yaml.Marshal (-want +got):\n%s", diff)
	}
}

// TestEncodeLikeSigsYAML: the values a JSON round trip changes (whole
// floats, huge numbers, invalid UTF-8, nil collections) and the strings
// YAML quotes, folds or writes as blocks.
func TestEncodeLikeSigsYAML(t *testing.T) {
	values := []any{
		3.0, math.Copysign(0, -1), 1e6, 1e20, 1e21, 5e20, -1e19, 1e19, 9.2233720368547758e18, 0.1, 1e-7, 1.5e300, math.MaxInt, int64(math.MinInt64),
		"", " lead", "trail ", "yes", "no", "on", "~", "null", "1e3", "0x1F", "012", "1_000", "12:30", "2024-01-01", ".5", "-", "- a", "a: b", "#c", "a #c",
		"\u0080c1", "del\x7f", "multi\nline", "multi\nline\n", "\n lead", "trailing\n\n", "tab\there", "quote ' and \"", "\x00ctl", "bad \xff utf8", "\u2028sep", "é",
		"a very long string with spaces that goes on well past eighty characters so that a YAML emitter would want to fold it somewhere",
		true, false, nil, []any{}, []any(nil), map[string]any{}, map[string]any(nil), []any{1.0, "x", []any{2.5}},
		map[string]any{"b": 1, "a": 2, "a10": 3, "a9": 4, "A": 5, "1": 6, "true": 7, "bad\xffkey": 8},
	}
	for _, v := range values {
		checkEncode(t, map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"v": v, "list": []any{v}}})
	}
	checkEncode(t, map[string]any{"nan": math.NaN()})
	checkEncode(t, nil)
}

// FuzzEncode compares Encode with sigs.k8s.io/yaml.Marshal on every
// object a YAML input decodes to.
func FuzzEncode(f *testing.F) {
	for _, seed := range []string{"a: 1.0\nb: [1e25, 'x', {c: null}]", "s: \"\\xff\\u2028 lead\"\nt: |\n  block\n", "k: [yes, '012', 1_000, .inf]"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := manifest.Decode("fuzz.yaml", data, manifest.DecodeOptions{})
		if err != nil {
			return
		}
		for _, o := range objs {
			checkEncode(t, o.Data)
		}
	})
}
