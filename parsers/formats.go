package parsers

// Each parser below ports conftest v0.71.1's wrapper of the same name
// (parser/<name>/<name>.go, Apache-2.0) onto the same library.

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"

	"cuelang.org/go/cue/cuecontext"
	cueformat "cuelang.org/go/cue/format"
	toml "github.com/BurntSushi/toml"
	"github.com/CycloneDX/cyclonedx-go"
	"github.com/KeisukeYamashita/go-vcl/vcl"
	xj "github.com/basgys/goxml2json"
	hocon "github.com/go-akka/configuration"
	hoconvalue "github.com/go-akka/configuration/hocon"
	"github.com/go-ini/ini"
	hcl1 "github.com/hashicorp/hcl"
	"github.com/hmarr/codeowners"
	prop "github.com/magiconair/properties"
	"github.com/muhammadmuzzammil1998/jsonc"
	goignore "github.com/shteou/go-ignore"
	"github.com/spdx/tools-golang/tagvalue"
	"github.com/subosito/gotenv"
	"github.com/tmccombs/hcl2json/convert"
	"olympos.io/encoding/edn"
)

// parseJSON: parser/json/json.go (a UTF-8 byte order mark is dropped).
func parseJSON(src []byte, _ Options) (any, error) {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	var v any
	if err := json.Unmarshal(src, &v); err != nil {
		return nil, fmt.Errorf("unmarshal json: %w", err)
	}
	return v, nil
}

// parseJSONC: parser/jsonc/jsonc.go.
func parseJSONC(src []byte, _ Options) (any, error) {
	var v any
	if err := jsonc.Unmarshal(src, &v); err != nil {
		return nil, fmt.Errorf("unmarshal jsonc: %w", err)
	}
	return v, nil
}

// parseTOML: parser/toml/toml.go.
func parseTOML(src []byte, _ Options) (any, error) {
	var v any
	if err := toml.Unmarshal(src, &v); err != nil {
		return nil, fmt.Errorf("unmarshal toml: %w", err)
	}
	return v, nil
}

// parseHCL1: parser/hcl1/hcl1.go.
func parseHCL1(src []byte, _ Options) (any, error) {
	var v any
	if err := hcl1.Unmarshal(src, &v); err != nil {
		return nil, fmt.Errorf("unmarshal hcl: %w", err)
	}
	return v, nil
}

// parseHCL2: parser/hcl2/hcl2.go (hcl2json).
func parseHCL2(src []byte, _ Options) (any, error) {
	b, err := convert.Bytes(src, "", convert.Options{})
	if err != nil {
		return nil, fmt.Errorf("convert to bytes: %w", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("unmarshal hcl2: %w", err)
	}
	return v, nil
}

// parseCUE: parser/cue/cue.go, with drydock's cuelang.org/go.
func parseCUE(src []byte, _ Options) (any, error) {
	out, err := cueformat.Source(src)
	if err != nil {
		return nil, fmt.Errorf("format cue: %w", err)
	}
	b, err := cuecontext.New().CompileBytes(out).MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("marshal json: %w", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("unmarshal cue json: %w", err)
	}
	return v, nil
}

// parseINI: parser/ini/ini.go: sections but DEFAULT, values that read
// as numbers or booleans converted.
func parseINI(src []byte, _ Options) (any, error) {
	cfg, err := ini.Load(src)
	if err != nil {
		return nil, fmt.Errorf("read ini file: %w", err)
	}
	out := map[string]map[string]any{}
	for _, s := range cfg.Sections() {
		if s.Name() == "DEFAULT" {
			continue
		}
		out[s.Name()] = scalars(s.KeysHash(), finite)
	}
	return out, nil
}

// scalars converts each value that number accepts to a float64, each
// that strconv.ParseBool accepts to a bool (conftest's ini and hocon).
func scalars(keys map[string]string, number func(string) (float64, bool)) map[string]any {
	out := make(map[string]any, len(keys))
	for k, s := range keys {
		out[k] = scalar(s, number)
	}
	return out
}

func scalar(s string, number func(string) (float64, bool)) any {
	if f, ok := number(s); ok {
		return f
	}
	if b, err := strconv.ParseBool(s); err == nil {
		return b
	}
	return s
}

// finite is conftest ini's number test: a float, not NaN or infinite.
func finite(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
}

// anyFloat is conftest hocon's number test: whatever ParseFloat takes
// (NaN and Inf then fail to encode, as in conftest).
func anyFloat(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// parseHOCON: parser/hocon/hocon.go.
func parseHOCON(src []byte, _ Options) (any, error) {
	root := hocon.ParseString(string(src))
	out := map[string]any{}
	for _, key := range root.Root().GetObject().GetKeys() {
		out[key] = hoconObject(root, root.GetConfig(key), key)
	}
	return out, nil
}

func hoconObject(root, cfg *hocon.Config, path string) map[string]any {
	out := map[string]any{}
	for _, key := range cfg.Root().GetObject().GetKeys() {
		p := path + "." + key
		if root.IsObject(p) {
			out[key] = hoconObject(root, root.GetConfig(p), p)
		} else {
			out[key] = hoconScalar(root.GetValue(p))
		}
	}
	return out
}

func hoconScalar(v *hoconvalue.HoconValue) any { return scalar(v.String(), anyFloat) }

// parseDotEnv: parser/dotenv/dotenv.go.
func parseDotEnv(src []byte, _ Options) (any, error) {
	env, err := gotenv.StrictParse(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("read .env file: %w", err)
	}
	return env, nil
}

// parseProperties: parser/properties/properties.go.
func parseProperties(src []byte, _ Options) (any, error) {
	p, err := prop.LoadString(string(src))
	if err != nil {
		return nil, fmt.Errorf("parse properties file: %w", err)
	}
	return p.Map(), nil
}

// parseIgnore: parser/ignore/ignore.go: the entries, in a list of one
// (one document).
func parseIgnore(src []byte, _ Options) (any, error) {
	entries, err := goignore.ParseIgnoreBytes(src)
	if err != nil {
		return nil, fmt.Errorf("parse ignore bytes: %w", err)
	}
	return [][]goignore.Entry{entries}, nil
}

// parseXML: parser/xml/xml.go (goxml2json).
func parseXML(src []byte, _ Options) (any, error) {
	res, err := xj.Convert(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("unmarshal xml: %w", err)
	}
	var v any
	if err := json.Unmarshal(res.Bytes(), &v); err != nil {
		return nil, fmt.Errorf("convert xml to json: %w", err)
	}
	return v, nil
}

// parseVCL: parser/vcl/vcl.go.
func parseVCL(src []byte, _ Options) (any, error) {
	out := map[string]any{}
	if errs := vcl.Decode(src, &out); len(errs) > 0 {
		return nil, fmt.Errorf("decode vcl: %w", errs[0])
	}
	return out, nil
}

// parseSPDX: parser/spdx/spdx.go (tag-value documents).
func parseSPDX(src []byte, _ Options) (any, error) {
	doc, err := tagvalue.Read(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("read spdx tag-value: %w", err)
	}
	return doc, nil
}

// parseCycloneDX: parser/cyclonedx/cyclonedx.go: JSON, else XML.
func parseCycloneDX(src []byte, _ Options) (any, error) {
	format := cyclonedx.BOMFileFormatJSON
	if !json.Valid(src) {
		format = cyclonedx.BOMFileFormatXML
	}
	bom := new(cyclonedx.BOM)
	if err := cyclonedx.NewBOMDecoder(bytes.NewReader(src), format).Decode(bom); err != nil {
		return nil, fmt.Errorf("decode CycloneDX BOM: %w", err)
	}
	if format == cyclonedx.BOMFileFormatJSON {
		var v any
		err := json.Unmarshal(src, &v)
		return v, err
	}
	var data cyclonedx.BOM
	if err := xml.Unmarshal(src, &data); err != nil {
		return nil, fmt.Errorf("unmarshal xml: %w", err)
	}
	return data, nil
}

// parseEDN: parser/edn/edn.go: keys and scalars other than strings
// become their fmt %v text, as conftest's.
func parseEDN(src []byte, _ Options) (any, error) {
	var v any
	if err := edn.Unmarshal(src, &v); err != nil {
		return nil, fmt.Errorf("unmarshal EDN: %w", err)
	}
	return ednClean(v), nil
}

func ednClean(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = ednClean(x)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[fmt.Sprintf("%v", k)] = ednClean(x)
		}
		return out
	case string:
		return v
	default:
		return fmt.Sprintf("%v", v)
	}
}

// codeownersRule is one rule of a CODEOWNERS file as conftest gives it
// (parser/codeowners/codeowners.go).
type codeownersRule struct {
	Pattern    string            `json:"pattern"`
	Owners     []codeownersOwner `json:"owners"`
	Comment    string            `json:"comment"`
	LineNumber int               `json:"lineNumber"`
}

type codeownersOwner struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// parseCodeowners: parser/codeowners/codeowners.go.
func parseCodeowners(src []byte, _ Options) (any, error) {
	rules, err := codeowners.ParseFile(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("failed to parse CODEOWNERS: %w", err)
	}
	var out struct {
		Rules []codeownersRule `json:"rules"`
	}
	for _, r := range rules {
		owners := make([]codeownersOwner, len(r.Owners))
		for i, o := range r.Owners {
			owners[i] = codeownersOwner{Type: o.Type, Value: o.Value}
		}
		out.Rules = append(out.Rules, codeownersRule{Pattern: r.RawPattern(), Owners: owners, Comment: r.Comment, LineNumber: r.LineNumber})
	}
	return out, nil
}
