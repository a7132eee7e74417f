package manifest

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecodeJSONFile: .json files are read as conftest's JSON parser
// (encoding/json) reads them.
func TestDecodeJSONFile(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      any
		pos       string
	}{
		{"positioned where written", "\n  {\"a\": 1}\n", map[string]any{"a": int64(1)}, "f.json:2:3"},
		{"byte order mark", "\xef\xbb\xbf{\"a\": 1}", map[string]any{"a": int64(1)}, "f.json:1:1"},
		{"last duplicate wins", `{"a": 1, "a": 2}`, map[string]any{"a": int64(2)}, "f.json:1:1"},
		{"surrogate pair escape: read, at the first line", `{"a": "\ud83d\ude00"}`, map[string]any{"a": "😀"}, "f.json:1"},
		{"array", `[1, {"b": true}]`, []any{int64(1), map[string]any{"b": true}}, "f.json:1:1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, err := DecodeJSONFile("f.json", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, v.Data); d != "" || v.Pos.String() != tt.pos {
				t.Errorf("value at %s (want %s), -want +got:\n%s", v.Pos, tt.pos, d)
			}
		})
	}
	for _, tt := range []struct{ name, src, want string }{
		{"empty", "", "f.json: invalid JSON: EOF"},
		{"out of range", `{"e": 1E400}`, "f.json: invalid JSON: number 1E400 is out of range"},
		{"trailing data", "{}\n{}", "f.json: invalid JSON: invalid character after top-level value"},
		{"syntax", "{\n  \"a\": 1,\n}", "f.json:3:1: invalid JSON: invalid character '}'"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeJSONFile("f.json", []byte(tt.src))
			if !errors.Is(err, ErrInvalidJSON) || !errors.Is(err, ErrInvalidYAML) || !strings.HasPrefix(Format(err, nil), tt.want) {
				t.Errorf("error %v, want %q (ErrInvalidJSON)", err, tt.want)
			}
		})
	}
}
