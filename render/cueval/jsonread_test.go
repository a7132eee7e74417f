package cueval

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestFastJSONObject: the one-pass reader of MarshalJSON's objects reads
// them as manifest.DecodeJSON does (ints as int64, other numbers as
// float64, escapes, UTF-8), and leaves to it what it does not take.
func TestFastJSONObject(t *testing.T) {
	tests := []struct {
		name, src string
		fast      bool
	}{
		{"empty", `{}`, true},
		{"nested", `{"a":{"b":[1,2,{"c":null}],"d":[]},"e":{}}`, true},
		{"whitespace", " { \"a\" : [ 1 , true ] ,\n\t\"b\":false } ", true},
		{"ints", `{"a":0,"b":-1,"c":9223372036854775807,"d":-9223372036854775808}`, true},
		{"past int64", `{"a":9223372036854775808,"b":-9223372036854775809}`, true},
		{"floats", `{"a":0.5,"b":-1.25,"c":1.0,"d":1E+2,"e":1e-7,"f":2.5e3}`, true},
		{"past float64", `{"a":1e400}`, true},
		{"escapes", `{"a\"b":"x\"y\\z\n\t\u00e9\u2028\/","c":"\ud83d\ude00"}`, true},
		{"unicode", `{"é":"日本語"}`, true},
		{"html", `{"a":"<b>&</b>"}`, true},
		{"duplicate keys", `{"a":1,"a":2}`, true},
		{"invalid UTF-8", "{\"a\":\"\xff\"}", false},
		{"control character", "{\"a\":\"\x01\"}", false},
		{"trailing data", `{"a":1} x`, false},
		{"not an object", `[1]`, false},
		{"leading zero", `{"a":01}`, false},
		{"bare minus", `{"a":-}`, false},
		{"truncated", `{"a":[1,`, false},
		{"bad literal", `{"a":nul}`, false},
		{"missing colon", `{"a" 1}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := fastJSONObject([]byte(tt.src))
			if ok != tt.fast {
				t.Fatalf("read it: %v, want %v", ok, tt.fast)
			}
			want, wantErr := manifest.DecodeJSON([]byte(tt.src))
			m, err := decodeJSONObject([]byte(tt.src))
			if (err != nil) != (wantErr != nil || !isMap(want)) {
				t.Fatalf("error %v, DecodeJSON's %v (%T)", err, wantErr, want)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(want, any(m)); diff != "" {
				t.Errorf("decodeJSONObject (-DecodeJSON +got):\n%s", diff)
			}
			if ok {
				if diff := cmp.Diff(want, any(got)); diff != "" {
					t.Errorf("fastJSONObject (-DecodeJSON +got):\n%s", diff)
				}
			}
		})
	}
}

func isMap(v any) bool { _, ok := v.(map[string]any); return ok }
