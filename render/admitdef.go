package render

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/parser"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// ErrDefinitionDenied is wrapped by AdmitDefinition's refusals.
var ErrDefinitionDenied = errors.New("definition denied")

// AdmitDefinition checks a definition as KubeVela's validating webhook
// for its kind does when it is applied (pkg/webhook/core.oam.dev/v1beta1/
// *definition), so that a definition KubeVela refuses is refused even if
// no application uses it:
//
//   - ComponentDefinition: the workload names a type or a definition
//     (ValidateWorkload); the CUE template compiles and validates
//     (ValidateCuexTemplate);
//   - TraitDefinition: a definitionRef or a template
//     (ValidateDefinitionReference); the template as for components;
//   - PolicyDefinition: the template compiles and validates
//     (ValidateCueTemplate); a CUE schematic (ValidatePolicyDefinition);
//   - all: spec.version is x.y.z (ValidateSemanticVersion).
//
// Validation errors that only say `context` is not defined are ignored,
// as the webhook ignores them, and so is the legacy syntax the webhook
// upgrades before it validates (list arithmetic). A template importing KubeVela's own
// packages (vela/...) is not compiled: drydock does not provide them to
// templates. The webhook's check that output kinds exist in the cluster
// needs the API server's resources and is not made.
func AdmitDefinition(d *Definition) error {
	key := admitKey{kind: d.Kind, name: d.Name, template: d.Template, spec: d.spec}
	key.spec.obj = nil
	if _, ok := admitted.Load(key); ok {
		return nil
	}
	if err := admit(d); err != nil {
		return err
	}
	admitted.Store(key, true)
	return nil
}

// admitted remembers the definitions AdmitDefinition admitted, so that a
// process loading the same definitions again (drydock test's suites,
// benchmarks) compiles each template once. Only admissions are kept: a
// refusal's message depends on where the definition was authored.
var admitted sync.Map

// admitKey is everything an admission depends on.
type admitKey struct {
	kind, name, template string
	spec                 defSpec
}

func admit(d *Definition) error {
	switch d.Kind {
	case KindComponent:
		if !d.spec.workload && d.spec.obj == nil {
			return manifest.At(d.Source, "%s %q: spec.workload: Required value (vela def makes the spec of the attributes: give attributes.workload)", d.Kind, d.Name)
		}
		if !d.spec.workload {
			return d.denied(fieldpath.New("spec", "workload"), "neither the type nor the definition of the workload field in the ComponentDefinition %s can be empty", d.Name)
		}
	case KindTrait:
		if d.spec.ref == "" && strings.TrimSpace(d.Template) == "" {
			return d.denied(fieldpath.New("spec"), "if definition reference is omitted, patch or output with GVK is required")
		}
	case KindPolicy:
		if !d.spec.cue {
			return d.denied(fieldpath.New("spec"), "invalid PolicyDefinition: [policy must have a CUE schematic]")
		}
	}
	if d.Kind != KindWorkflowStep && d.Kind != KindWorkload && d.spec.cue {
		if err := validateTemplate(d); err != nil {
			return err
		}
	}
	if v := d.spec.version; v != "" && !semver(v) {
		return d.denied(fieldpath.New("spec", "version"), "Not a valid version")
	}
	return nil
}

// denied is a refusal located at the authored field (the definition for
// a `vela def` file).
func (d *Definition) denied(field fieldpath.Path, format string, args ...any) error {
	pos := d.Source
	if d.spec.obj != nil {
		pos = d.spec.obj.FieldPos(field)
	}
	return manifest.At(pos, "%s %q: %w: %s", d.Kind, d.Name, ErrDefinitionDenied, fmt.Sprintf(format, args...))
}

// contextNotFound is the webhook's ContextRegex.
var contextNotFound = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^.+:\sreference\s"context"\snot\sfound$`) })

// errorFieldLabel is KubeVela's errorFieldLabelRe (pkg/cue/upgrade): an
// unquoted `error` field label, which the webhook's legacy-syntax upgrade
// quotes before it validates.
var errorFieldLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\berror\s*[?!]?\s*:`) })

// upgraded reports whether the webhook's legacy-syntax upgrade
// (EnsureCueVersionCompatibility, on by default) would remove the error:
// list arithmetic it rewrites to list.Concat and list.Repeat.
func upgraded(msg string) bool {
	return strings.Contains(msg, "is superseded by list.Concat") || strings.Contains(msg, "is superseded by list.Repeat")
}

// validateTemplate compiles and validates d's template as the webhook's
// ValidateCueTemplate does, reporting the first error that is not about
// `context`, at its place in the template.
func validateTemplate(d *Definition) error {
	// An unquoted error label is rewritten before validating: drydock
	// does not rewrite, so it does not judge such a template.
	if usesVelaPackages(d) || errorFieldLabel().MatchString(d.Template) {
		return nil
	}
	v := cuecontext.New(cuecontext.EvaluatorVersion(cuecontext.EvalV2)).CompileString(d.Template, cue.Filename(d.TemplateFile))
	err := v.Err()
	if err == nil {
		err = v.Validate()
	}
	for _, e := range cueerrors.Errors(err) {
		if contextNotFound().MatchString(e.Error()) || upgraded(e.Error()) {
			continue
		}
		pos, where := d.Source, ""
		for _, p := range CUEPositions(v, e) {
			if !p.IsValid() {
				continue
			}
			if d.placed {
				pos = TokenPos(p)
			} else {
				where = fmt.Sprintf(" line %d:%d", p.Line(), p.Column())
			}
			break
		}
		msg := e.Error()
		if format, args := e.Msg(); strings.HasPrefix(format, "package %q ") && len(args) > 0 {
			msg = fmt.Sprintf("import %q: package not found (a template may import CUE's standard library)", args[0])
		}
		return manifest.At(pos, "%s %q: %w: template%s: %s", d.Kind, d.Name, ErrDefinitionDenied, where, msg)
	}
	return nil
}

// usesVelaPackages reports whether d's template imports KubeVela's
// packages (vela/op, vela/kube, ...), which only KubeVela's compiler
// resolves.
func usesVelaPackages(d *Definition) bool {
	f, err := parser.ParseFile(d.TemplateFile, d.Template, parser.ImportsOnly)
	if err != nil {
		return false
	}
	for _, spec := range f.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); p == "vela" || strings.HasPrefix(p, "vela/") {
			return true
		}
	}
	return false
}

// semver is the webhook's ValidateSemanticVersion: three dot-separated
// integers.
func semver(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil {
			return false
		}
	}
	return true
}
