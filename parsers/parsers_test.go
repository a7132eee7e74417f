package parsers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// canonical is v as canonical JSON: map keys sorted, numbers as
// written.
func canonical(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// decodeJSON reads b keeping numbers as json.Number.
func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

type parseCase struct{ file, parser string }

func readCases(t *testing.T) []parseCase {
	t.Helper()
	f, err := os.Open("testdata/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []parseCase
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) != 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		cases = append(cases, parseCase{fields[0], fields[1]})
	}
	return cases
}

// TestParseAsConftest compares each parser's value with conftest's: the
// expected files are the output of the real conftest v0.71.1 binary,
// `conftest parse [--parser P] FILE` (testdata/gen.sh), decoded and
// encoded again canonically as drydock's value is.
func TestParseAsConftest(t *testing.T) {
	cases := readCases(t)
	if len(cases) < 25 {
		t.Fatalf("only %d cases read", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", c.file)
			parser := c.parser
			if parser == "-" {
				var err error
				if parser, err = ForFile(path); err != nil {
					t.Fatal(err)
				}
			}
			seen[parser] = true
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			o := Options{Path: path}
			if parser == TextProto {
				o.ProtoFiles = []string{"testdata/protos/test.proto"}
			}
			got, err := Parse(parser, src, o)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata", "expected", c.file+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(canonical(t, decodeJSON(t, want)), canonical(t, got)); diff != "" {
				t.Errorf("%s as %s: (-conftest +drydock)\n%s", c.file, parser, diff)
			}
		})
	}
	for _, n := range Names() {
		if !seen[n] {
			t.Errorf("parser %s has no case", n)
		}
	}
}
