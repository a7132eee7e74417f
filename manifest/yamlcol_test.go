package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestYAMLErrorPlace: a syntax error is reported at the line (and, where
// it can be told, the column) of the problem, counted from the top of
// the file whatever document of the stream it is in — not at the line of
// the construct go-yaml v3 was parsing (a list's first line for a key
// indented wrongly in it), and an unclosed quote at its quote.
func TestYAMLErrorPlace(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"mapping value indented into a scalar", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n   bad: indent\n",
			"in.yaml:5:7: invalid YAML near line 5: mapping values are not allowed in this context"},
		{"two mapping values on a line", "a: b: c\n", "in.yaml:1:5: invalid YAML near line 1: mapping values are not allowed in this context"},
		{"tab indenting a key", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n",
			"in.yaml:4:1: invalid YAML near line 4: found character that cannot start any token"},
		{"tab after a key", "a:\n  b: 1\n\tc: 2\n", "in.yaml:3:1: invalid YAML near line 3: found a tab character that violates indentation"},
		{"reserved indicator", "a: 1\nb: @x\n", "in.yaml:2:4: invalid YAML near line 2: found character that cannot start any token"},
		{"key indented one too few in a list", "spec:\n  components:\n    - name: web\n      type: webservice\n     properties:\n        image: n\n",
			"in.yaml:5:6: invalid YAML near line 5: did not find expected '-' indicator"},
		{"key indented one too few", "metadata:\n  name: x\n labels: {}\nspec: 1\n", "in.yaml:3:2: invalid YAML near line 3: did not find expected key"},
		{"entry in a mapping", "a:\n  b: 1\n  - c\n", "in.yaml:3:3: invalid YAML near line 3: did not find expected key"},
		{"mapping after a list", "- a\nb: 1\n", "in.yaml:2:1: invalid YAML near line 2: did not find expected '-' indicator"},
		{"unclosed double quote", "a:\n  b: \"abc\n  c: 2\n",
			"in.yaml:2:6: invalid YAML near line 2: found unexpected end of stream (a quoted string opened here is never closed)"},
		{"unclosed single quote on the first line", "b: 'abc\nc: 1\n",
			"in.yaml:1:4: invalid YAML near line 1: found unexpected end of stream (a quoted string opened here is never closed)"},
		{"unclosed flow sequence", "a: [1, 2\n", "in.yaml:1:4: invalid YAML near line 1: did not find expected ',' or ']' (the '[' here is never closed)"},
		{"unclosed flow mapping in a sequence", "a: [1, {b: 2\n", "in.yaml:1:8: invalid YAML near line 1: did not find expected ',' or '}' (the '{' here is never closed)"},
		{"unclosed flow sequence before a line", "a: 1\nb: 2\nc: [1, 2\nd: 4\n",
			"in.yaml:4: invalid YAML near line 4: did not find expected ',' or ']' (the '[' opened at in.yaml:3:4)"},
		{"bad document in the middle", "a: 1\n---\nb: 2\nc: [1, 2\nd: 3\n---\ne: 5\n",
			"in.yaml:5: invalid YAML near line 5: did not find expected ',' or ']' (the '[' opened at in.yaml:4:4)"},
		{"bad indentation in the third document", "a: 1\n---\nb: 2\n---\nx:\n  y: 1\n z: 2\n---\ne: 5\n",
			"in.yaml:7:2: invalid YAML near line 7: did not find expected key"},
		{"two document separators on a line", "---\n---\na: 1\n--- ---\nb: 2\n",
			"in.yaml:5:2: invalid YAML near line 5: mapping values are not allowed in this context"},
		{"after a document end marker", "a: 1\n...\n---\nb: 1\n  c: 2\n",
			"in.yaml:5:4: invalid YAML near line 5: mapping values are not allowed in this context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode("in.yaml", []byte(tc.src), DecodeOptions{})
			if diff := cmp.Diff(tc.want, Format(err, nil)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestYAMLErrorDocument: a document decoded again on its own (Document)
// reports a syntax error at the file's line, as the whole stream does.
func TestYAMLErrorDocument(t *testing.T) {
	d := &Document{file: "in.yaml", text: []byte("---\nx:\n  y: 1\n z: 2\n"), line: 10}
	_, err := d.Decode()
	if diff := cmp.Diff("in.yaml:13:2: invalid YAML near line 13: did not find expected key", Format(err, nil)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
