package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/loader"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/drydock-dev/drydock/manifest"
)

// ErrInvalid marks errors caused by the policies, their data or their
// evaluation (bad input, exit code 2), as opposed to drydock's own faults.
var ErrInvalid = errors.New("invalid policy")

// invalid marks err as ErrInvalid, its message (which starts with a
// file:line) unchanged.
func invalid(err error) error { return manifest.Mark(ErrInvalid, err) }

// listFiles is manifest.ListFiles, its error marked invalid: the files
// under paths that keep accepts, sorted and without duplicates.
func listFiles(paths []string, keep func(name string) bool) ([]string, error) {
	files, err := manifest.ListFiles(paths, keep)
	if err != nil {
		return nil, invalid(err)
	}
	return files, nil
}

func isPolicy(name string) bool { return strings.HasSuffix(name, ".rego") && !isTest(name) }
func isTest(name string) bool   { return strings.HasSuffix(name, "_test.rego") }
func isRego(name string) bool   { return strings.HasSuffix(name, ".rego") }

func isData(name string) bool {
	switch filepath.Ext(name) {
	case ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// parseModules parses files as Rego modules of the given version.
func parseModules(files []string, v ast.RegoVersion, caps *ast.Capabilities) (map[string]*ast.Module, error) {
	if len(files) == 0 {
		return nil, nil
	}
	mods := make(map[string]*ast.Module, len(files))
	var errs ast.Errors
	for _, f := range files {
		src, err := manifest.ReadFile(f)
		if err != nil {
			return nil, invalid(fmt.Errorf("read policy: %w", err))
		}
		m, err := ast.ParseModuleWithOpts(f, string(src), ast.ParserOptions{
			RegoVersion:       v,
			ProcessAnnotation: true,
			Capabilities:      caps,
		})
		var perrs ast.Errors
		switch {
		case errors.As(err, &perrs):
			errs = append(errs, perrs...)
		case err != nil:
			return nil, invalid(fmt.Errorf("%s: %w", f, err))
		case m == nil:
			errs = append(errs, ast.NewError(ast.ParseErr, &ast.Location{File: f, Row: 1}, "empty module"))
		default:
			mods[f] = m
		}
	}
	if len(errs) > 0 {
		return nil, compileError(errs, false)
	}
	return mods, nil
}

// compileError turns OPA's errors into one ErrInvalid error listing each as
// file:line:col: code: message, sorted; its position is the first one's.
func compileError(errs ast.Errors, withClock bool) error {
	explainRemoved(errs, withClock)
	errs.Sort()
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = formatASTError(e)
	}
	if len(errs) > 0 && located(errs[0].Location) {
		l := errs[0].Location
		lines[0] = errs[0].Code + ": " + errs[0].Message
		return invalid(manifest.At(locPos(l), "%s", strings.Join(lines, "\n")))
	}
	return invalid(errors.New(strings.Join(lines, "\n")))
}

// located reports whether OPA's location l names a file, line and column
// (then the error is located there, and its text starts with the place).
func located(l *ast.Location) bool { return l != nil && l.File != "" && l.Row > 0 && l.Col > 0 }

func formatASTError(e *ast.Error) string {
	if e.Location == nil {
		return e.Code + ": " + e.Message
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.Location.File, e.Location.Row, e.Location.Col, e.Code, e.Message)
}

// checkShapes rejects deny/violation/warn rules that cannot be a set of
// messages, so a check can never silently pass: a boolean (`deny if
// { ... }`: true, never messages; conftest rejects the v1 form, drydock
// both), a scalar (`deny := 5`, `deny := "x"`, `deny := null`) and a
// partial object (`deny[k] := v`). A set or array literal, or a value
// computed by an expression, is left to evaluation.
func checkShapes(mods map[string]*ast.Module) error {
	var errs ast.Errors
	for _, m := range mods {
		for _, r := range m.Rules {
			name, ok := checkRoot(r)
			if !ok {
				continue
			}
			if msg := shapeProblem(r, name); msg != "" {
				errs = append(errs, ast.NewError(ast.CompileErr, r.Head.Location, "%s", msg))
			}
		}
	}
	if len(errs) > 0 {
		return compileError(errs, false)
	}
	return nil
}

// checkRoot returns the check name (deny, violation or warn, with
// optional _suffixes) a rule of its package defines, also through a
// reference head (`deny[k] := v`).
func checkRoot(r *ast.Rule) (string, bool) {
	v, ok := r.Head.Ref()[0].Value.(ast.Var)
	if !ok {
		return "", false
	}
	name := string(v)
	return name, failureRule().MatchString(name) || warningRule().MatchString(name)
}

// shapeProblem says why the check rule r (named name) cannot be a set of
// messages, or "".
func shapeProblem(r *ast.Rule, name string) string {
	fix := fmt.Sprintf("write `%s contains msg if { ... }` (v0: `%s[msg] { ... }`)", name, name)
	if len(r.Head.Ref()) > 1 && r.Head.Value != nil {
		return fmt.Sprintf("rule %s is an object (%s[key] := value), not a set of messages: %s", name, name, fix)
	}
	switch r.Head.DocKind() {
	case ast.PartialObjectDoc:
		return fmt.Sprintf("rule %s is an object (%s[key] := value), not a set of messages: %s", name, name, fix)
	case ast.CompleteDoc:
		if r.Head.Value == nil {
			return ""
		}
		switch r.Head.Value.Value.(type) {
		case ast.Boolean:
			return fmt.Sprintf("rule %s is a boolean: %s", name, fix)
		case ast.Number, ast.String, ast.Null, ast.Object:
			return fmt.Sprintf("rule %s is a single %s, not a set of messages: %s", name, ast.ValueName(r.Head.Value.Value), fix)
		}
	}
	return ""
}

// loadData loads the data files under paths as conftest's --data does
// (conftest v0.71.1 policy/engine.go LoadWithData: OPA's file loader,
// every file not named .json, .yaml or .yml left out), and returns a store
// holding them. Where a document goes under data is OPA's loader's rule
// (opa v1/loader/loader.go allRec): a file given as a path, or directly
// in a directory given, at the root of data; a file in a subdirectory
// under that subdirectory's path (--data policy reads
// policy/exceptions/x.yaml as data.exceptions); "a.b:path" puts path's
// documents under data.a.b. A document merged at the root must be an
// object; two files may not set the same value.
//
// The files are found by drydock's walk (inside the repository, no
// directory links, no submodules), so the loader reads only those; a
// path given that is not a data file is an error (conftest ignores it).
func loadData(paths []string) (storage.Store, error) {
	files, keep, err := dataFiles(paths)
	if err != nil {
		return nil, err
	}
	docs := map[string]any{}
	if len(files) > 0 {
		res, err := loader.NewFileLoader().Filtered(paths, func(p string, info fs.FileInfo, depth int) bool {
			return !keep[filepath.Clean(p)]
		})
		if err != nil {
			return nil, dataError(files, err)
		}
		docs = res.Documents
	}
	return inmem.NewFromObjectWithOpts(docs, inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true)), nil
}

// SplitDataPath splits a data path as OPA's loader, and so conftest's
// --data, reads it: "a.b:dir" is dir loaded under data.a.b. prefix is ""
// for a path loaded at the root of data.
func SplitDataPath(p string) (prefix, path string) {
	parts, path := loader.SplitPrefix(p)
	return strings.Join(parts, "."), path
}

// JoinDataPath is the data path that loads path under data.<prefix>
// (at the root when prefix is ""): the inverse of SplitDataPath.
func JoinDataPath(prefix, path string) string {
	if prefix == "" {
		return path
	}
	return prefix + ":" + path
}

// dataFiles lists the data files under paths (each optionally prefixed
// "a.b:", SplitDataPath), and the set of paths the loader may enter: those
// files and the directories leading to them.
func dataFiles(paths []string) ([]string, map[string]bool, error) {
	keep := map[string]bool{}
	places := map[string]bool{}
	var all []string
	for _, p := range paths {
		prefix, root := SplitDataPath(p)
		root = filepath.Clean(root)
		files, err := listFiles([]string{root}, isData)
		if err != nil {
			return nil, nil, err
		}
		if len(files) == 1 && files[0] == root && !isData(root) {
			return nil, nil, invalid(fmt.Errorf("%s: not a data file: only .json, .yaml and .yml files are data (conftest ignores the others)", root))
		}
		keep[root] = true
		for _, f := range files {
			for d := filepath.Clean(f); !keep[d]; d = filepath.Dir(d) {
				keep[d] = true
			}
			if err := loadedTwice(places, dataPlace(prefix, root, f), f); err != nil {
				return nil, nil, err
			}
		}
		all = append(all, files...)
	}
	slices.Sort(all)
	return slices.Compact(all), keep, nil
}

// dataPlace is where OPA's loader puts the file f found under root (a
// path given, with its prefix): prefix, then f's directory below root.
func dataPlace(prefix, root, f string) []string {
	var place []string
	if prefix != "" {
		place = strings.Split(prefix, ".")
	}
	if rel, err := filepath.Rel(root, filepath.Dir(f)); err == nil && f != root && rel != "." {
		place = append(place, strings.Split(filepath.ToSlash(rel), "/")...)
	}
	return place
}

// loadedTwice refuses the file f loaded a second time at place (seen
// holds the places and files loaded so far) when it sets a value, as
// conftest v0.71.1 does: its loader (OPA v1.21.1) merges the file with
// itself, and two files may not set the same value. OPA v1.22's loader,
// drydock's, loads such a file once.
func loadedTwice(seen map[string]bool, place []string, f string) error {
	key := strings.Join(place, "\x00") + "\x01" + filepath.Clean(f)
	if !seen[key] {
		seen[key] = true
		return nil
	}
	res, err := loader.NewFileLoader().All([]string{JoinDataPath("doc", f)})
	if err != nil || !setsValue(res.Documents["doc"]) {
		return nil // a syntax error is reported by the load
	}
	ref := ast.Ref{ast.DefaultRootDocument}
	for _, k := range place {
		ref = append(ref, ast.StringTerm(k))
	}
	return invalid(fmt.Errorf("%s: merge error: the file is given twice at %s and sets values there (conftest merges it with itself)", f, ref))
}

// setsValue reports whether the document doc holds anything but objects.
func setsValue(doc any) bool {
	m, ok := doc.(map[string]any)
	if !ok {
		return true
	}
	for _, v := range m {
		if setsValue(v) {
			return true
		}
	}
	return false
}

// dataError explains why OPA's loader refused the data files. Its syntax
// errors carry no position ("error converting YAML to JSON: yaml: line 1:
// ...", "invalid character '}' ..."), so the files are read again to find
// the first syntax error with its file:line; OPA's own errors are kept
// when there is none (a merge conflict between files).
func dataError(files []string, err error) error {
	for _, f := range files {
		src, rerr := manifest.ReadFile(f)
		if rerr != nil {
			return invalid(rerr)
		}
		if serr := dataSyntaxError(f, src); serr != nil {
			return invalid(serr)
		}
	}
	var lerrs loader.Errors
	if errors.As(err, &lerrs) {
		return invalid(errors.Join(lerrs...))
	}
	return invalid(fmt.Errorf("load data: %w", err))
}

// dataSyntaxError is the syntax error of the data file f, positioned, or
// nil. JSON is checked as JSON (YAML would accept a trailing comma).
func dataSyntaxError(f string, src []byte) error {
	if filepath.Ext(f) != ".json" {
		_, err := manifest.DecodeValues(f, src, 1, manifest.DecodeOptions{})
		return err
	}
	var v any
	var se *json.SyntaxError
	if err := json.Unmarshal(src, &v); errors.As(err, &se) {
		at := max(0, min(int(se.Offset)-1, len(src)))
		line := 1 + bytes.Count(src[:at], []byte("\n"))
		col := at - bytes.LastIndexByte(src[:at], '\n')
		return manifest.At(manifest.Pos{File: f, Line: line, Col: col}, "invalid JSON: %s", se)
	}
	return nil
}
