package parsers

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: no input makes a parser panic or hang; a library's panic is
// an error (guarded). Seeded from the fixtures, each with its parser.
func FuzzParse(f *testing.F) {
	names := Names()
	for _, c := range []string{"toml.toml", "hcl2.tf", "Dockerfile", "vcl.vcl", "hocon.conf", "ini.ini", "edn.edn", "nginx.conf"} {
		src, err := os.ReadFile(filepath.Join("testdata", c))
		if err != nil {
			f.Fatal(err)
		}
		p, _ := ForFile(c)
		if c == "hocon.conf" {
			p = HOCON
		}
		for i, n := range names {
			if n == p {
				f.Add(uint8(i), src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		name := names[int(which)%len(names)]
		switch name {
		case Jsonnet, CUE:
			t.Skip("evaluators: unbounded by design, as conftest's")
		case VCL, HOCON:
			t.Skip("their libraries loop on some input (TestParseDeadline): each would leave a goroutine spinning")
		}
		_, _ = Parse(name, src, Options{})
	})
}
