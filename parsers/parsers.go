package parsers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The parsers, by the names conftest's --parser and parse_config take
// (conftest parser/parser.go).
const (
	CODEOWNERS = "codeowners"
	CUE        = "cue"
	CycloneDX  = "cyclonedx"
	Dockerfile = "dockerfile"
	DotEnv     = "dotenv"
	EDN        = "edn"
	Groovy     = "groovy"
	HCL1       = "hcl1"
	HCL2       = "hcl2"
	HOCON      = "hocon"
	Ignore     = "ignore"
	INI        = "ini"
	JSON       = "json"
	JSONC      = "jsonc"
	Jsonnet    = "jsonnet"
	Nginx      = "nginx"
	Properties = "properties"
	SPDX       = "spdx"
	TextProto  = "textproto"
	TOML       = "toml"
	VCL        = "vcl"
	XML        = "xml"
	YAML       = "yaml"
)

// ErrUnknown is the error of a parser name conftest does not have (a
// --parser flag, a parse_config call, a file extension).
var ErrUnknown = errors.New("unknown parser")

// Options are what some parsers need beyond the bytes.
type Options struct {
	// Path is the file the bytes come from: a Jsonnet file's imports
	// are resolved in its directory (none without it).
	Path string
	// ProtoFiles are the .proto files giving textproto's message types
	// (conftest --proto-file-dirs).
	ProtoFiles []string
}

// unmarshal is one parser: bytes to a value in any JSON-like form,
// normalised by Parse.
type unmarshal func(src []byte, o Options) (any, error)

// table maps each name to its parser (conftest parser/parser.go New).
var table = map[string]unmarshal{
	CODEOWNERS: parseCodeowners,
	CUE:        parseCUE,
	CycloneDX:  parseCycloneDX,
	Dockerfile: parseDockerfile,
	DotEnv:     parseDotEnv,
	EDN:        parseEDN,
	Groovy:     parseGroovy,
	HCL1:       parseHCL1,
	HCL2:       parseHCL2,
	HOCON:      parseHOCON,
	Ignore:     parseIgnore,
	INI:        parseINI,
	JSON:       parseJSON,
	JSONC:      parseJSONC,
	Jsonnet:    parseJsonnet,
	Nginx:      parseNginx,
	Properties: parseProperties,
	SPDX:       parseSPDX,
	TextProto:  parseTextProto,
	TOML:       parseTOML,
	VCL:        parseVCL,
	XML:        parseXML,
	YAML:       parseYAML,
}

// Names lists the parsers, sorted.
func Names() []string {
	names := make([]string, 0, len(table))
	for n := range table {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Known reports whether name is a parser.
func Known(name string) bool {
	_, ok := table[name]
	return ok
}

// Parse parses src with the named parser, as conftest's parser of that
// name does, and returns the value normalised to encoding/json's forms
// with numbers as json.Number (what conftest's value becomes in Rego).
func Parse(name string, src []byte, o Options) (any, error) {
	f, ok := table[name]
	if !ok {
		return nil, fmt.Errorf("%w %q (parsers: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
	}
	v, err := guarded(f, src, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return normalise(v)
}

// Deadline bounds one parse. go-vcl and go-akka's HOCON loop forever
// on some malformed input (an unterminated VCL string: conftest hangs
// there); past Deadline Parse returns ErrHung and the parse goes on in
// the background, where nothing can stop it.
var Deadline = time.Minute

// ErrHung is the error of a parse that did not end within Deadline.
var ErrHung = errors.New("the parser did not finish: its library loops on some malformed input")

// guarded runs f within Deadline, a panic of its library (go-vcl and
// go-akka panic on some malformed input, crashing conftest) becoming an
// error.
func guarded(f unmarshal, src []byte, o Options) (any, error) {
	type result struct {
		v   any
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{nil, fmt.Errorf("malformed input: %v", r)}
			}
		}()
		v, err := f(src, o)
		done <- result{v, err}
	}()
	timer := time.NewTimer(Deadline)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.v, r.err
	case <-timer.C:
		return nil, fmt.Errorf("%w (after %s)", ErrHung, Deadline)
	}
}

// normalise turns v into encoding/json's forms by a round trip, numbers
// kept exact as json.Number, as OPA's ast.InterfaceToValue converts a
// value it does not know.
func normalise(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return out, nil
}

// ForFile is the parser conftest picks for a file by its name (conftest
// parser/parser.go NewFromPath): Dockerfile names, YAML, HCL2 for
// .hcl/.tf/.tfvars, ignore files, .env files, nginx.conf, Jenkinsfiles,
// textproto, CODEOWNERS, else the extension itself when it names a
// parser; "-" (standard input) is YAML. An error wraps ErrUnknown.
func ForFile(path string) (string, error) {
	if path == "-" {
		return YAML, nil
	}
	base := strings.ToLower(filepath.Base(path))
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	switch {
	case base == "dockerfile" || strings.HasPrefix(base, "dockerfile.") || ext == "dockerfile":
		return Dockerfile, nil
	case ext == "yml" || ext == "yaml":
		return YAML, nil
	case ext == "hcl" || ext == "tf" || ext == "tfvars":
		return HCL2, nil
	case ext == "gitignore" || ext == "dockerignore":
		return Ignore, nil
	case base == ".env" || strings.HasPrefix(base, ".env.") || ext == "env":
		return DotEnv, nil
	case base == "nginx.conf":
		return Nginx, nil
	case base == "jenkinsfile" || strings.HasPrefix(base, "jenkinsfile."):
		return Groovy, nil
	case ext == "textproto" || ext == "textpb":
		return TextProto, nil
	case base == "codeowners":
		return CODEOWNERS, nil
	case Known(ext):
		return ext, nil
	}
	return "", fmt.Errorf("%s: no parser for its name (%w for extension %q): give one with --parser", path, ErrUnknown, ext)
}
