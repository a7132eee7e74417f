package stepexec

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/parser"
)

// providers holds the CUE of KubeVela's provider packages, copied
// unchanged from upstream: providers/<name>/*.cue is the package
// "vela/<name>". The legacy package vela/op joins several, as
// kubevela pkg/workflow/providers/legacy/legacy.go GetLegacyTemplate does.
//
//go:embed providers
var providers embed.FS

// velaPrefix is the import path prefix of KubeVela's internal packages
// (kubevela/pkg cue/cuex/runtime/package.go).
const velaPrefix = "vela/"

// packageNames lists the provider packages a template may import.
func packageNames() []string {
	entries, _ := fs.ReadDir(providers, "providers")
	var out []string
	for _, e := range entries {
		out = append(out, velaPrefix+e.Name())
	}
	sort.Strings(out)
	return out
}

// buildPackage builds the instance of a vela/<name> import, as
// kubevela/pkg cue/util/import.go BuildImport does: every file of the
// package, without a package clause, under the package name.
func buildPackage(importPath string) (*build.Instance, error) {
	src, err := packageSource(importPath)
	if err != nil {
		return nil, err
	}
	bi := &build.Instance{PkgName: path.Base(importPath), ImportPath: importPath}
	f, err := parser.ParseFile(importPath, src)
	if err != nil {
		return nil, err
	}
	if err := bi.AddSyntax(f); err != nil {
		return nil, err
	}
	return bi, nil
}

// sources memoises packageSource's joined files by import path: they
// are read once per process, not for every step that imports them.
var sources sync.Map // import path → []byte

// packageSource is the source of a vela/<name> package: the files of a
// package joined into one, in name order, as legacy.go's
// GetLegacyTemplate joins vela/op's.
func packageSource(importPath string) ([]byte, error) {
	if src, ok := sources.Load(importPath); ok {
		return src.([]byte), nil
	}
	name := strings.TrimPrefix(importPath, velaPrefix)
	dir := path.Join("providers", name)
	entries, err := fs.ReadDir(providers, dir)
	if err != nil || name == "" || strings.Contains(name, "/") {
		return nil, fmt.Errorf("import %q: no such package (KubeVela's are %s)", importPath, strings.Join(packageNames(), ", "))
	}
	var src []byte
	for _, e := range entries {
		b, err := providers.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		src = append(append(src, b...), '\n')
	}
	sources.Store(importPath, src)
	return src, nil
}

// velaImports returns the instances of the vela/* packages f imports.
func velaImports(f *ast.File) ([]*build.Instance, error) {
	var out []*build.Instance
	seen := map[string]bool{}
	for _, spec := range f.Imports {
		p := strings.Trim(spec.Path.Value, `"`)
		if !strings.HasPrefix(p, velaPrefix) || seen[p] {
			continue
		}
		seen[p] = true
		bi, err := buildPackage(p)
		if err != nil {
			return nil, err
		}
		out = append(out, bi)
	}
	return out, nil
}
