// Package rules owns drydock's OPA/Rego checks over rendered objects: loading
// and compiling conftest-style policies once, evaluating them against every
// rendered object (or a whole cluster at once), and running the policies' own
// Rego unit tests. It is not a renderer and not a printer: it takes objects and
// returns results; cmd/drydock-engine formats them and picks the exit code.
//
// # Conftest conventions
//
// Policies follow conftest (github.com/open-policy-agent/conftest):
//
//   - Rules named deny, violation or warn, optionally with a suffix
//     (deny_no_latest, warn_a_b), are checks. deny and violation produce
//     failures, warn produces warnings. A check's value is a set (or array)
//     whose elements are either message strings or objects with a string
//     "msg"; the object's other keys become the result's Metadata. Every
//     failure and warning carries Metadata["query"], the rule's query
//     ("data.main.deny"), as conftest does. Elements of other types are
//     ignored; an object without a string msg is an evaluation error. A
//     package's __rego_metadata__ (id, title, severity... as appshield and
//     konstraint write it) is added to its results' Metadata under that
//     key; conftest itself does not read it.
//   - exception[rules] exempts named checks: a rule deny_foo, violation_foo
//     or warn_foo is exempt for an input when "foo" is in any array of
//     data.<namespace>.exception (a bare deny/violation/warn is named "").
//     An exempt check reports one Exception per match, whose Message is
//     conftest's query (data.main.exception[_][_] == "foo"), whether or not
//     the check would have fired, and none of its own results.
//   - Namespaces are Rego packages without the "data." prefix. Only the
//     namespaces in Options.Namespaces (default "main") are evaluated, or all
//     of them with Options.AllNamespaces. A selected namespace without
//     policies evaluates nothing (as in conftest). When any selected name
//     holds a glob character, each is a path.Match pattern over the
//     policies' namespaces (main.* matches main.gke, not main).
//   - A failing built-in (to_number("500m"), object.get on a non-object)
//     makes its expression undefined, so the rule does not fire for that
//     input, as in conftest and opa test; Options.StrictBuiltinErrors
//     (conftest --show-builtin-errors) makes it an evaluation error.
//   - conftest's built-ins are there: parse_config(parser, content) with
//     every parser of conftest (package parsers), parse_config_file(path)
//     and parse_combined_config_files(paths), whose paths are relative to
//     the calling policy's directory, parsed by the parser the name picks,
//     and must be regular files below Options.Root (the repository), of
//     at most manifest.MaxInputBytes; data.conftest.file is {"name":
//     base name, "dir": absolute directory} of the input's file
//     (Context.File), {"name": "Combined", "dir": working directory} in
//     combined mode.
//   - Options.Strict is OPA's strict compile mode (conftest --strict);
//     Options.Capabilities an OPA capabilities file (--capabilities).
//   - Options.DataPaths are JSON/YAML files or directories (searched
//     recursively for .json, .yaml, .yml), laid out under data as
//     conftest's --data lays them out (OPA's loader): a file given, or
//     directly in a directory given, is merged at the root of data, one in
//     a subdirectory under that subdirectory's path (sub/x.yaml is
//     data.sub); "a.b:path" loads path under data.a.b. Two files may not
//     set the same value, nor may one file given twice at one place.
//   - Rego v1 syntax is the default; Options.RegoV0 parses v0 (conftest's
//     --rego-version v0).
//   - Success counts follow conftest: per input and namespace, the number of
//     checks that evaluated to an empty set, raised to the number of check
//     rule definitions minus failures, warnings and exceptions when that is
//     larger (a check split over several rule bodies counts each body).
//   - Combined mode (conftest's --combine) evaluates a whole group once with
//     input = [{"path": p, "contents": object, "cluster": c, "output": o},
//     ...] sorted by path, then o, where p is the authored file the object
//     came from, as conftest names it (o when there is none), c its cluster
//     and o its file in the output tree: <cluster>/<namespace or
//     _cluster>/<kind>[.<group>]_<name>.yaml (tree.Path: a file name over 255
//     bytes is shortened, as the written file's is).
//
// # The render context
//
// The input document is the rendered object itself, unchanged, so policies
// written for conftest (input.kind, input.metadata.name, input.spec...) run
// as they are. Where the object came from is available through a built-in
// function instead of through input or data:
//
//	drydock.context() == {
//	    "cluster": "prod-eu", "namespace": "shop", "application": "shop",
//	    "component": "api", "source": "apps/shop.yaml:12",
//	}
//
// It is a custom built-in (registered with rego.FunctionDyn) whose value is
// carried per evaluation in the context.Context, so the compiled policies and
// the prepared queries are shared by all evaluations and all goroutines, and
// data stays the same for every evaluation. All five keys are always present
// (empty when unknown); in combined mode only "cluster" is set, to the
// group's name. In Rego unit tests (Verify) it returns the empty context and
// can be mocked: `deny with drydock.context as {"cluster": "prod", ...}`.
// Referring to a key it does not have is a type error at Load.
//
// # Sandbox
//
// Policies are untrusted input: they cannot reach the network, read the
// environment or files, or make results depend on chance or the clock. The
// compiler's capabilities are OPA's own minus the built-ins listed in the
// error a policy gets when it calls one: http.send and
// net.lookup_ip_addr (network); opa.runtime (environment); json.verify_schema
// and json.match_schema (a "$ref": "file:///..." in a schema reads local
// files, and remote refs fetch URLs); rand.intn, uuid.rfc4122,
// io.jwt.encode_sign and io.jwt.encode_sign_raw (random);
// providers.aws.sign_req (signs http.send requests, reads the clock);
// crypto.x509.parse_and_verify_certificates[_with_options] (read the wall
// clock directly). time.now_ns and io.jwt.decode_verify (which reads the
// evaluation time) are removed unless Options.Now is set, in which case they
// see that fixed instant in every evaluation. The pure net.cidr_* functions
// stay. A policy calling a removed built-in fails at Load with an ErrInvalid
// error naming the built-in and its file:line. AllowNet is empty. Verify
// keeps the clock built-ins so that tests can mock them (`with time.now_ns
// as ...`). print() output never goes to
// stdout: it is collected in Report.Prints (and TestResult.Output), and
// copied to Options.Debug when that is set.
//
// # Time and memory
//
// Evaluations run under a regosandbox.Budget: one per Eval call with
// Options.QueryTimeout, or the run's own (WithBudget). A namespace whose
// evaluation on one input outlives the time limit is cancelled (OPA stops
// at its next step: nothing goes on in the background) and is not
// evaluated on the inputs after it, under the same budget; past the
// budget's memory limit every evaluation is cancelled and none starts.
// One StopError per namespace names the rule that was running (a marker
// in the query records it), the input, the limit and the count of
// evaluations skipped. Namespaces are the unit because each is one query;
// the other namespaces go on.
package rules
