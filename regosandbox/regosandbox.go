// Package regosandbox is drydock's one list of the OPA built-ins that
// untrusted Rego (conftest policies, Gatekeeper templates) may not call,
// the capabilities without them, and the Budget of time and memory that
// Rego runs under in one run. It holds no drydock dependency so that
// every package evaluating Rego applies the same sandbox.
package regosandbox

import (
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Removed maps each built-in the sandbox takes away to the reason.
var Removed = map[string]string{
	"http.send":              "it reaches the network",
	"net.lookup_ip_addr":     "it reaches the network",
	"opa.runtime":            "it reads the environment",
	"json.verify_schema":     "a $ref in the schema reads local files or URLs",
	"json.match_schema":      "a $ref in the schema reads local files or URLs",
	"rand.intn":              "its result is random",
	"uuid.rfc4122":           "its result is random",
	"io.jwt.encode_sign":     "its result is random",
	"io.jwt.encode_sign_raw": "its result is random",
	"providers.aws.sign_req": "it signs http.send requests and reads the clock",
	"crypto.x509.parse_and_verify_certificates":              "it reads the wall clock",
	"crypto.x509.parse_and_verify_certificates_with_options": "it reads the wall clock",
}

// Clock lists the built-ins that read the evaluation time: removed too
// unless the caller pins that time.
var Clock = map[string]string{
	"time.now_ns":          "it reads the clock",
	"io.jwt.decode_verify": "it reads the clock",
}

// Capabilities returns a copy of base (OPA's own when nil) without the
// removed built-ins, and without the clock ones unless withClock; no
// network access is allowed. base itself is not changed.
func Capabilities(base *ast.Capabilities, withClock bool) *ast.Capabilities {
	if base == nil {
		base = ast.CapabilitiesForThisVersion()
	}
	copied := *base // the caller's capabilities stay as they are
	caps := &copied
	caps.Builtins = slices.DeleteFunc(slices.Clone(caps.Builtins), func(b *ast.Builtin) bool {
		_, gone := Removed[b.Name]
		_, timed := Clock[b.Name]
		return gone || (timed && !withClock)
	})
	caps.AllowNet = []string{}
	return caps
}

// Why is the reason the sandbox has no built-in name ("" when it has it).
func Why(name string, withClock bool) string {
	if why, gone := Removed[name]; gone {
		return why
	}
	if why, timed := Clock[name]; timed && !withClock {
		return why
	}
	return ""
}

// Explain rewords OPA's "undefined function X" errors among errs: for a
// name in extra, to extra[X] (a whole message, for a caller's own missing
// built-ins); for a built-in the sandbox removes (see Why), to "built-in X
// is not available in drydock's sandbox: <why>", followed by clockHint
// when X reads the clock. Other errors are left as they are.
func Explain(errs ast.Errors, withClock bool, clockHint string, extra map[string]string) {
	for _, e := range errs {
		name, ok := strings.CutPrefix(e.Message, "undefined function ")
		if !ok {
			continue
		}
		if msg, ok := extra[name]; ok {
			e.Message = msg
			continue
		}
		why := Why(name, withClock)
		if why == "" {
			continue
		}
		if _, timed := Clock[name]; timed {
			why += clockHint
		}
		e.Message = fmt.Sprintf("built-in %s is not available in drydock's sandbox: %s", name, why)
	}
}
