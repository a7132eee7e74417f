package gatekeeper

import (
	"errors"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/regosandbox"
)

// ErrInvalid is wrapped by every error caused by the templates, constraints
// or suites (bad input), as opposed to drydock's own faults.
var ErrInvalid = errors.New("invalid gatekeeper policy")

// errSchema marks a constraint that its template's CRD schema rejects (a
// suite's `invalid: true` test passes on it, as gator's constraints.ErrSchema).
var errSchema = errors.New("constraint does not match its schema")

// invalid marks err as ErrInvalid, its text (which starts with
// file:line:col) unchanged.
func invalid(err error) error { return manifest.Mark(ErrInvalid, err) }

// errAt is an ErrInvalid error at pos.
func errAt(pos manifest.Pos, format string, args ...any) error {
	return invalid(manifest.At(pos, format, args...))
}

// externalData is Gatekeeper's built-in for external data providers.
const externalData = "external_data"

// capabilities is OPA's own in drydock's sandbox (package regosandbox),
// clock included: results must not depend on when they are computed.
// external_data is not among OPA's, so a template calling it fails to
// compile.
func capabilities() *ast.Capabilities { return regosandbox.Capabilities(nil, false) }

// unavailable rewords the "undefined function X" compile errors about
// the built-ins the sandbox removed and about external_data.
func unavailable(errs ast.Errors) {
	regosandbox.Explain(errs, false, "", map[string]string{
		externalData: "external_data is not supported: drydock evaluates templates offline, without Gatekeeper's external data providers",
	})
}
