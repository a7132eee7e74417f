package parsers

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestForFile is conftest's choice of a parser by name: the facts of
// conftest v0.71.1's parser/parser_test.go TestNewFromPath (translated)
// and the special names of parser/parser.go NewFromPath.
func TestForFile(t *testing.T) {
	cases := map[string]string{
		"-":                   YAML,
		"dir/deployment.yaml": YAML,
		"x.YML":               YAML,
		"Dockerfile":          Dockerfile,
		"dockerfile.debug":    Dockerfile,
		"Dockerfile.prod":     Dockerfile,
		"dev.Dockerfile":      Dockerfile,
		"main.tf":             HCL2,
		"prod.tfvars":         HCL2,
		"config.hcl":          HCL2,
		".gitignore":          Ignore,
		"x/.dockerignore":     Ignore,
		".env":                DotEnv,
		".env.prod":           DotEnv,
		"prod.env":            DotEnv,
		"nginx.conf":          Nginx,
		"Jenkinsfile":         Groovy,
		"Jenkinsfile.release": Groovy,
		"a.textproto":         TextProto,
		"a.textpb":            TextProto,
		"CODEOWNERS":          CODEOWNERS,
		".github/CODEOWNERS":  CODEOWNERS,
		"a.json":              JSON,
		"a.jsonc":             JSONC,
		"a.toml":              TOML,
		"a.ini":               INI,
		"a.cue":               CUE,
		"a.edn":               EDN,
		"a.xml":               XML,
		"a.jsonnet":           Jsonnet,
		"a.properties":        Properties,
		"a.vcl":               VCL,
		"a.hocon":             HOCON,
		"a.hcl1":              HCL1,
		"a.spdx":              SPDX,
		"a.groovy":            Groovy,
		"sbom.cyclonedx":      CycloneDX,
		"A.TOML":              TOML,
	}
	got := map[string]string{}
	for f := range cases {
		p, err := ForFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
		got[f] = p
	}
	if diff := cmp.Diff(cases, got); diff != "" {
		t.Error(diff)
	}
	for _, f := range []string{"README.md", "Makefile", "a.conf", "a.tfplan", "noextension", "LICENSE", "file.unknown"} {
		if p, err := ForFile(f); !errors.Is(err, ErrUnknown) {
			t.Errorf("%s: got %q, %v; want ErrUnknown", f, p, err)
		}
	}
}

// TestParseErrors: a parser conftest lacks, and input each parser
// refuses, are errors; each bad input was run through the real binary
// (`conftest parse --parser P FILE`: exit 1 for every one).
func TestParseErrors(t *testing.T) {
	if _, err := Parse("csv", nil, Options{}); !errors.Is(err, ErrUnknown) {
		t.Errorf("csv: %v, want ErrUnknown", err)
	}
	bad := map[string]string{
		JSON:       "{",
		JSONC:      "{",
		TOML:       "a = ",
		HCL1:       "a = {",
		HCL2:       "resource {",
		CUE:        "a: {",
		INI:        "[section",
		DotEnv:     "A=\"unterminated",
		Properties: "a=${b",
		EDN:        "{:a",
		Jsonnet:    "{a: }",
		YAML:       "a: [",
		Dockerfile: "FROM",
		Groovy:     "pipeline {",
		TextProto:  "a: 1",
		Nginx:      "http {",
		// conftest v0.71.1 panics (exit 2) on this, go-vcl's panic:
		// `printf 'backend default {\n .host = \n' > b.vcl; conftest parse b.vcl`
		VCL:       "backend default {\n .host = \n",
		SPDX:      "SPDXVersion SPDX-2.2",
		CycloneDX: "<bom",
	}
	// Accepted as conftest accepts them (conftest parse gives "" and
	// {"sub": {"vcl_recv": []}}): XML and VCL parsers are lenient.
	for p, src := range map[string]string{XML: "<a><b></a>", VCL: "sub vcl_recv {"} {
		if _, err := Parse(p, []byte(src), Options{}); err != nil {
			t.Errorf("%s refuses %q: %v", p, src, err)
		}
	}
	for p, src := range bad {
		if _, err := Parse(p, []byte(src), Options{}); err == nil {
			t.Errorf("%s accepts %q", p, src)
		}
	}
}

// TestJsonnetImports: an import is read from the file's directory, never
// outside it, and a snippet without a file imports nothing.
func TestJsonnetImports(t *testing.T) {
	src := []byte(`(import 'lib.libsonnet').name`)
	v, err := Parse(Jsonnet, src, Options{Path: "testdata/x.jsonnet"})
	if err != nil || v != "web" {
		t.Errorf("import from the file's directory: %v, %v", v, err)
	}
	if _, err := Parse(Jsonnet, src, Options{}); err == nil {
		t.Errorf("a snippet imports: %v", err)
	}
	if _, err := Parse(Jsonnet, []byte(`import '../parsers.go'`), Options{Path: "testdata/x.jsonnet"}); err == nil {
		t.Error("an import leaves the directory")
	}
}

// TestParseDeadline: go-vcl loops forever on an unterminated string
// (conftest v0.71.1 hangs: `printf 'acl = fprivate"\n' > h.vcl;
// timeout 10 conftest parse h.vcl` exits 124); drydock gives ErrHung.
func TestParseDeadline(t *testing.T) {
	old := Deadline
	Deadline = 200 * time.Millisecond
	defer func() { Deadline = old }()
	_, err := Parse(VCL, []byte("acl = fprivate\"\n"), Options{})
	if !errors.Is(err, ErrHung) {
		t.Errorf("error %v, want ErrHung", err)
	}
}
