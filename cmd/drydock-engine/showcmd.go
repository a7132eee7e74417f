package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/policy"
)

// runShow prints a definition: its kind, where it comes from, and its
// parameters with their types, defaults and +usage docs.
func runShow(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("show", "show [TYPE] [-d DEFS]... [--suite NAME]", "Without TYPE, lists the definition types there are. With it, prints the definition of a component, trait, policy or workflow step type: where it\ncomes from (builtin/<name>.cue for drydock's own) and its parameters.")
	fs := cmd.fs
	var defPaths []string
	fs.StringArrayVarP(&defPaths, "definitions", "d", nil, "file or directory of definitions (repeatable); replaces built-ins of the same name")
	noBuiltins := fs.Bool("no-builtins", false, "do not use drydock's built-in definitions")
	var fields string
	registerFieldValidation(fs, &fields)
	var sf suiteFlags
	sf.register(fs)
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	fv, err := fieldValidation(fields)
	if err != nil {
		return cmd.fail(stderr, err)
	}
	suite, _, ok, err := sf.inputs(fs)
	if err != nil {
		return cmd.usageError(stderr, err)
	}
	if ok { // the suite's definitions, as render --suite reads them
		if !fs.Changed("definitions") {
			defPaths = suite.DefinitionPaths
		}
		if !fs.Changed("no-builtins") {
			*noBuiltins = suite.NoBuiltins
		}
		if !fs.Changed("field-validation") {
			fv = suite.FieldValidation
		}
	}
	if fs.NArg() > 1 {
		return cmd.fail(stderr, errors.New("give one definition type (webservice, scaler, topology, deploy, ...)"))
	}
	defs, warnings, err := pipeline.LoadDefinitionsFields(defPaths, *noBuiltins, fv)
	if err != nil {
		return reportError(stderr, err)
	}
	printWarnings(stderr, warnings)
	kinds := []string{render.KindComponent, render.KindTrait, render.KindPolicy, render.KindWorkflowStep}
	if fs.NArg() == 0 {
		listTypes(stdout, defs, kinds)
		return exitOK
	}
	typ := fs.Arg(0)
	var found []*render.Definition
	for _, kind := range kinds {
		if d := defs.Get(kind, typ); d != nil {
			found = append(found, d)
		}
	}
	if len(found) == 0 && policy.Builtin(typ) {
		fmt.Fprintf(stdout, "policy %s: KubeVela implements it without a PolicyDefinition; drydock emulates it (see its documentation for the properties)\n", typ)
		return exitOK
	}
	if len(found) == 0 {
		var names []string // every definition's, parsed only now
		for _, kind := range kinds {
			names = append(names, defs.Names(kind)...)
		}
		fmt.Fprintf(stderr, "drydock show: no definition of type %q%s\n", typ, manifest.DidYouMean(typ, names))
		return exitUsage
	}
	e := cueval.New(defs)
	for i, d := range found {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "%s %s (%s)\n", d.Kind, d.Name, d.Source)
		params, err := e.Parameters(d)
		if err != nil {
			return reportError(stderr, err)
		}
		if len(params) == 0 {
			fmt.Fprintln(stdout, "  no parameters")
			continue
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  PARAMETER\tTYPE\tDEFAULT\tDESCRIPTION")
		for _, p := range params {
			def := p.Default
			if p.Required {
				def = "(required)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", p.Path, p.Type, def, p.Usage)
		}
		tw.Flush()
	}
	return exitOK
}

// listTypes prints the definition types there are, a line per kind (the
// policies KubeVela implements without a definition among the policies),
// and how to see one.
func listTypes(w io.Writer, defs *render.Definitions, kinds []string) {
	labels := map[string]string{render.KindComponent: "components", render.KindTrait: "traits",
		render.KindPolicy: "policies", render.KindWorkflowStep: "workflow steps"}
	for _, kind := range kinds {
		names := defs.Names(kind)
		if kind == render.KindPolicy {
			names = slices.Compact(slices.Sorted(slices.Values(append(names, policy.BuiltinTypes()...))))
		}
		if len(names) == 0 {
			names = []string{"(none)"}
		}
		fmt.Fprintf(w, "%s: %s\n", labels[kind], strings.Join(names, ", "))
	}
	fmt.Fprintln(w, "Run 'drydock show TYPE' for a type's origin and parameters.")
}
