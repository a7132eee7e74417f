package rules

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// Documents reads a file's documents as conftest's parser for its
// extension does: manifest.DecodeJSONFile (encoding/json) for .json,
// else YAMLDocuments.
func Documents(file string, src []byte) ([]manifest.Value, error) {
	if strings.EqualFold(filepath.Ext(file), ".json") {
		v, err := manifest.DecodeJSONFile(file, src)
		return []manifest.Value{v}, err
	}
	return YAMLDocuments(file, src)
}

// YAMLDocuments reads a YAML file's documents as conftest's YAML
// parser does, so rules see the same inputs: the file is split at every
// "---" line between two line breaks, and each part is one document, there
// even when it is empty or only comments (null: a trailing "---" or a
// license header above the first "---" is one). Where conftest reads only
// the first document of a part (after a "--- # comment" separator),
// drydock keeps the others too rather than drop them. Values are YAML 1.1,
// as sigs.k8s.io/yaml reads them, the last of duplicate keys winning; a
// List stays one document.
func YAMLDocuments(file string, src []byte) ([]manifest.Value, error) {
	parts := conftestParts(src)
	var out []manifest.Value
	for _, p := range parts {
		vals, err := manifest.DecodeValues(file, p.text, p.line, manifest.DecodeOptions{KeepLists: true, LastKeyWins: true})
		if err != nil {
			return nil, err
		}
		if len(vals) == 0 {
			// Nothing but comments, or nothing: named by its "---" line.
			line := p.line
			if line > 1 && len(bytes.TrimSpace(p.text)) == 0 {
				line--
			}
			out = append(out, manifest.Value{Pos: manifest.Pos{File: file, Line: line}})
			continue
		}
		out = append(out, vals[0])
		for _, v := range vals[1:] {
			if v.Data != nil {
				out = append(out, v)
			}
		}
	}
	return out, nil
}

// part is a piece of a file as conftest splits it, with the line it
// starts at.
type part struct {
	text []byte
	line int
}

// conftestParts splits src where conftest's YAML parser does: at each
// "\n---\n" ("\r\n---\r\n" when the file has any CRLF); a file starting
// with a directive ("%") keeps its first separator.
func conftestParts(src []byte) []part {
	lb := []byte("\n")
	if bytes.Contains(src, []byte("\r\n")) {
		lb = []byte("\r\n")
	}
	sep := slices.Concat(lb, []byte("---"), lb)
	var parts []part
	line, rest := 1, src
	for {
		i := bytes.Index(rest, sep)
		if i < 0 {
			parts = append(parts, part{rest, line})
			break
		}
		parts = append(parts, part{rest[:i], line})
		line += bytes.Count(rest[:i+len(sep)], []byte("\n"))
		rest = rest[i+len(sep):]
	}
	if bytes.HasPrefix(src, []byte("%")) && len(parts) > 1 {
		// The directive's document runs to the second separator.
		joined := part{src[:len(parts[0].text)+len(sep)+len(parts[1].text)], 1}
		parts = append([]part{joined}, parts[2:]...)
	}
	return parts
}
