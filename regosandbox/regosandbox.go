// Package regosandbox is drydock's one list of the OPA built-ins that
// untrusted Rego (conftest policies, Gatekeeper templates) may not call,
// and the capabilities without them. It holds no drydock dependency so
// that every package compiling Rego applies the same sandbox.
package regosandbox

import (
	"slices"

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

// Capabilities returns base (OPA's own when nil) without the removed
// built-ins, and without the clock ones unless withClock; no network
// access is allowed.
func Capabilities(base *ast.Capabilities, withClock bool) *ast.Capabilities {
	caps := base
	if caps == nil {
		caps = ast.CapabilitiesForThisVersion()
	}
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
