package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/drydock-dev/drydock/manifest"
)

// conftest's configuration file, read in conftest mode (test --conftest,
// verify --conftest) as conftest v0.71.1 reads it: internal/commands/
// default.go has viper look for "conftest" with each of viper's
// extensions, in this order, in the working directory (the first that is
// a file wins: conftest.json before conftest.toml), or read the file
// CONFTEST_CONFIG_FILE names; test.go and verify.go bind their flags to
// viper, whose precedence is a flag given, then the environment
// (CONFTEST_ + the key upper-cased, - as _), then the file, then the
// flag's default; runner.TestRunner and VerifyRunner take the values
// (mapstructure, weakly typed: "true" and 1 are true, a string is split on
// commas into a list). Keys are case-insensitive; conftest ignores keys it
// does not know (drydock warns).

// conftestExts are viper v1.21's SupportedExts, in its search order.
var conftestExts = []string{"json", "toml", "yaml", "yml", "properties", "props", "prop", "hcl", "tfvars", "dotenv", "env", "ini"}

// conftestKey is where a conftest configuration key goes in drydock: the
// flag of drydock test and of drydock verify that carries it ("": not a
// key of that conftest command, which ignores it; "-" for a key refused
// or without effect), or why drydock refuses it, or why it has no effect.
type conftestKey struct {
	test, verify string
	refuse       string
	noEffect     string
}

// both is a key of conftest test and verify, carried by the drydock flag
// of the same name.
func both(flag string) conftestKey { return conftestKey{test: flag, verify: flag} }

// conftestKeys are the keys conftest test and verify read (the flags
// test.go and verify.go bind, which TestRunner, VerifyRunner and the
// output options take), by the drydock flag that carries each. A key
// whose flag drydock does not have is refused as not supported yet: when
// the flag comes, the key works.
var conftestKeys = map[string]conftestKey{
	"all-namespaces":      {test: "all-namespaces"},
	"capabilities":        both("capabilities"),
	"combine":             {test: "combine"},
	"data":                both("data"),
	"fail-on-warn":        {test: "fail-on-warn"},
	"github-hide-passed":  both("github-hide-passed"),
	"ignore":              {test: "ignore"},
	"junit-hide-message":  both("junit-hide-message"),
	"namespace":           both("namespace"),
	"no-color":            both("no-color"),
	"no-fail":             {test: "no-fail"},
	"output":              both("output"),
	"parser":              {test: "parser"},
	"policy":              both("policy"),
	"proto-file-dirs":     both("proto-file-dirs"),
	"quiet":               both("quiet"),
	"rego-version":        both("rego-version"),
	"report":              {verify: "report"},
	"show-builtin-errors": both("show-builtin-errors"),
	"stdin-filename":      {test: "stdin-filename"},
	"strict":              both("strict"),
	"suppress-exceptions": {test: "suppress-exceptions"},
	"tls":                 {test: "-", noEffect: "drydock downloads no policies"},
	"trace":               both("trace"),
	"update":              {test: "-", refuse: "it downloads policies, and drydock never reaches the network: download them with conftest pull and give their directory as policy"},
	"var-values":          {verify: "var-values"},
}

// applyConftestConfig sets the flags of fs (drydock command, "test" or
// "verify") that the command line left unset from conftest's environment
// variables and configuration file, as conftest does. Unknown keys are
// warned about on stderr. A key drydock cannot honour is an error naming
// it.
func applyConftestConfig(fs *pflag.FlagSet, command string, stderr io.Writer) error {
	given := ""
	if f := fs.Lookup("config-file"); f != nil && f.Changed {
		given = f.Value.String()
	}
	file, settings, err := readConftestConfig(given)
	if err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		if _, ok := conftestKeys[k]; !ok {
			fmt.Fprintf(stderr, "drydock: %s: unknown key %q: conftest ignores it, and so does drydock\n", file, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(conftestKeys)) {
		spec := conftestKeys[k]
		flag := spec.test
		if command == "verify" {
			flag = spec.verify
		}
		v, from, ok := conftestValue(k, file, settings)
		if flag == "" || !ok {
			continue
		}
		if err := applyConftestKey(fs, flag, spec, k, from, v, stderr); err != nil {
			return err
		}
	}
	return nil
}

// conftestValue is the value of key k, from the environment, else from
// the file's settings, and where it came from ("CONFTEST_X" or "FILE
// key k"). An empty environment variable is unset, as viper has it.
func conftestValue(k, file string, settings map[string]any) (any, string, bool) {
	env := "CONFTEST_" + strings.ToUpper(strings.ReplaceAll(k, "-", "_"))
	if v, ok := os.LookupEnv(env); ok && v != "" {
		return v, env, true
	}
	v, ok := settings[k]
	return v, fmt.Sprintf("%s key %s", file, k), ok
}

// applyConftestKey sets flag from the value v of key k (from names where
// it came from), unless the command line gave the flag.
func applyConftestKey(fs *pflag.FlagSet, flag string, spec conftestKey, k, from string, v any, stderr io.Writer) error {
	switch {
	case spec.refuse != "":
		return fmt.Errorf("%s: not supported by drydock: %s", from, spec.refuse)
	case spec.noEffect != "":
		fmt.Fprintf(stderr, "drydock: %s has no effect: %s\n", from, spec.noEffect)
		return nil
	}
	f := fs.Lookup(flag)
	if f == nil {
		return fmt.Errorf("%s: not supported by drydock yet (drydock has no --%s flag)", from, flag)
	}
	if fs.Changed(flag) {
		return nil // the command line wins
	}
	values, err := conftestFlagValues(f.Value.Type(), v)
	if err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	for _, s := range values {
		if err := fs.Set(flag, s); err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
	}
	return nil
}

// conftestFlagValues are the values to set a flag of type typ (pflag's
// name) to, decoded from v as conftest's mapstructure decodes it: weakly
// typed, a string split on commas into a list.
func conftestFlagValues(typ string, v any) ([]string, error) {
	switch typ {
	case "bool":
		b, err := weakBool(v)
		return []string{strconv.FormatBool(b)}, err
	case "stringArray", "stringSlice":
		return weakList(v)
	}
	s, err := weakString(v)
	return []string{s}, err
}

// weakBool is v as a bool, as mapstructure's weak decoding reads it.
func weakBool(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		if x == "" {
			return false, nil
		}
		b, err := strconv.ParseBool(x)
		if err != nil {
			return false, fmt.Errorf("cannot parse %q as a bool", x)
		}
		return b, nil
	case int64:
		return x != 0, nil
	case int:
		return x != 0, nil
	case float64:
		return x != 0, nil
	}
	return false, fmt.Errorf("expected a bool, got %s", typeName(v))
}

// weakString is v as a string, as mapstructure's weak decoding reads it.
func weakString(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		if x {
			return "1", nil
		}
		return "0", nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case int:
		return strconv.Itoa(x), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	return "", fmt.Errorf("expected a string, got %s", typeName(v))
}

// weakList is v as a list of strings: a string split on commas (viper's
// StringToSliceHookFunc), a list element by element, one value alone.
func weakList(v any) ([]string, error) {
	switch x := v.(type) {
	case string:
		if x == "" {
			return nil, nil
		}
		return strings.Split(x, ","), nil
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			s, err := weakString(e)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			out[i] = s
		}
		return out, nil
	}
	s, err := weakString(v)
	return []string{s}, err
}

// typeName names the type of a decoded configuration value.
func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "a table"
	case []any:
		return "a list"
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("%T", v)
}

// readConftestConfig finds and reads conftest's configuration file: its
// name and its settings, keys lower-cased ("" and none without a file).
// The file is given (--config-file), else CONFTEST_CONFIG_FILE's, else
// the working directory's conftest.<ext>.
func readConftestConfig(given string) (string, map[string]any, error) {
	file, ok := given, given != ""
	if !ok {
		file, ok = os.LookupEnv("CONFTEST_CONFIG_FILE")
	}
	if !ok || file == "" {
		file = findConftestConfig()
		if file == "" {
			return "", nil, nil
		}
	}
	src, err := manifest.ReadFile(file)
	if err != nil {
		return "", nil, fmt.Errorf("conftest configuration: %w", err)
	}
	settings, err := decodeConftestConfig(file, src)
	if err != nil {
		return "", nil, err
	}
	lower := make(map[string]any, len(settings))
	for k, v := range settings {
		lower[strings.ToLower(k)] = v
	}
	return file, lower, nil
}

// findConftestConfig is the conftest.<ext> file of the working directory
// viper reads (the first of its extensions that is not a directory), or
// "".
func findConftestConfig() string {
	for _, ext := range conftestExts {
		name := "conftest." + ext
		if info, err := os.Stat(name); err == nil && !info.IsDir() {
			return name
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return name // unreadable: reading it says why
		}
	}
	return ""
}

// decodeConftestConfig decodes the configuration file by its extension,
// with the decoders viper v1.21 uses.
func decodeConftestConfig(file string, src []byte) (map[string]any, error) {
	settings := map[string]any{}
	var err error
	switch ext := strings.TrimPrefix(filepath.Ext(file), "."); ext {
	case "json":
		err = json.Unmarshal(src, &settings)
	case "toml":
		err = toml.Unmarshal(src, &settings)
	case "yaml", "yml":
		err = yaml.Unmarshal(src, &settings)
	case "dotenv", "env":
		return nil, fmt.Errorf("%s: not supported by drydock yet: write conftest's configuration as conftest.toml, .yaml or .json", file)
	default:
		// conftest: "While parsing config: decoder not found for this
		// format" (and for a name without extension, "Unsupported Config
		// Type").
		return nil, fmt.Errorf("%s: conftest cannot read this format either (it reads conftest.toml, .yaml, .yml, .json and .env)", file)
	}
	if err != nil {
		return nil, configSyntaxError(file, src, err)
	}
	return settings, nil
}

// configSyntaxError is err, the decoder's error on the configuration
// file's text src, located at its line where the decoder says which.
func configSyntaxError(file string, src []byte, err error) error {
	var terr *toml.DecodeError
	var jerr *json.SyntaxError
	switch {
	case errors.As(err, &terr):
		line, col := terr.Position()
		return manifest.At(manifest.Pos{File: file, Line: line, Col: col}, "%s", terr.Error())
	case errors.As(err, &jerr):
		at := max(0, min(int(jerr.Offset)-1, len(src)))
		line := 1 + bytes.Count(src[:at], []byte("\n"))
		return manifest.At(manifest.Pos{File: file, Line: line, Col: at - bytes.LastIndexByte(src[:at], '\n')}, "invalid JSON: %s", jerr)
	case strings.HasPrefix(err.Error(), "yaml:"):
		return manifest.YAMLError(file, src, err)
	}
	return fmt.Errorf("%s: %w", file, err)
}
