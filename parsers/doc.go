// Package parsers reads configuration files as conftest v0.71.1's
// parsers do (github.com/open-policy-agent/conftest, parser/): one
// function per format, on top of the third-party libraries conftest
// uses, giving the JSON-like value conftest hands its policies
// (map[string]any, []any, string, json.Number, bool, nil).
//
// It also ports conftest's choice of a parser from a file's name
// (parser/parser.go NewFromPath). It reads no files itself except the
// imports a Jsonnet file makes, which stay below the directory of the
// file and are size-limited; it does not locate errors at lines (the
// libraries do not give positions conftest would show) and it is not
// the YAML reader of rendered inputs (see manifest).
package parsers
