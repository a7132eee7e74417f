package manifest

import "testing"

// go-yaml gives no column; where its message tells the place, the error
// has one.
func TestYAMLErrorColumn(t *testing.T) {
	for src, want := range map[string]string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n   bad: indent\n": "in.yaml:5:7: invalid YAML near line 5: mapping values are not allowed in this context",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n":                 "in.yaml:4:1: invalid YAML near line 4: found character that cannot start any token",
		"a: [1, 2\n": "in.yaml:1: invalid YAML near line 1: did not find expected ',' or ']'",
	} {
		_, err := Decode("in.yaml", []byte(src), DecodeOptions{})
		if err == nil || Format(err, nil) != want {
			t.Errorf("%q: error %v, want %s", src, err, want)
		}
	}
}
