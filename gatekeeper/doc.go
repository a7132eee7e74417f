// Package gatekeeper evaluates OPA Gatekeeper ConstraintTemplates and
// Constraints offline against Kubernetes objects, as `gator verify` and
// Gatekeeper's audit do, and runs gator's test suites. It compiles the
// templates' Rego with OPA itself and their CEL with the Kubernetes API
// server's ValidatingAdmissionPolicy machinery (k8s.io/apiserver); it does
// not depend on Gatekeeper.
//
// # Templates
//
// A ConstraintTemplate (templates.gatekeeper.sh, any version) defines the
// kind of its constraints in spec.crd.spec.names.kind; metadata.name must
// be that kind lowercased. Its single target (admission.k8s.gatekeeper.sh)
// holds Rego either as targets[0].rego and targets[0].libs, always Rego
// v0, or as targets[0].code[] with engine Rego, whose source.rego and
// source.libs are v1 when source.version is "v1" and v0 otherwise; the
// legacy rego wins when both are written, as in Gatekeeper. A template
// whose code has an entry of engine K8sNativeValidation (CEL) is evaluated
// with its CEL, as gator does: its Rego, if any, is ignored (see CEL
// below). With Options.RegoOnly (gator --enable-k8s-native-validation=false)
// the CEL code is ignored instead: a template is evaluated with its Rego,
// and a template with CEL only fails to load, as gator has no driver for
// it.
//
// Each template is compiled on its own, with Gatekeeper's restrictions:
// its package is ignored (the module becomes data.template), it must have
// a rule named violation (`violation[{"msg": m}] { ... }` in v0,
// `violation contains {"msg": m} if { ... }` in v1; a v1 ref head
// `violation[...] if` does not count), libs must declare a package under
// lib (lib.<name>), imports may only be data.lib.* and future.*, and data
// may only be referred to as data.inventory and data.lib. Errors name the
// template and the file:line:col in the template's YAML where the Rego is
// written.
//
// Templates run in drydock's sandbox: the built-ins that reach the network
// (http.send, net.lookup_ip_addr), read the environment (opa.runtime) or
// the clock (time.now_ns, io.jwt.decode_verify, x509 verification), or are
// random (rand.intn, uuid.rfc4122, io.jwt.encode_sign...) are removed, so a
// template calling one fails to load. Gatekeeper's external_data is refused
// the same way: there are no external data providers offline. Under a
// regosandbox.Budget (Set.WithBudget, Verify's budget) each Rego
// evaluation is bounded in time and memory; a template that outlives the
// time limit on one object is not evaluated again under that budget, for
// any of its constraints (see Check and StopError). CEL is not bounded.
//
// # CEL
//
// The source of a K8sNativeValidation entry (the first, if several) is
// Gatekeeper's: validations [{expression, message, messageExpression}],
// variables [{name, expression}], matchCondition (singular) [{name,
// expression}] and failurePolicy (Fail, the default, or Ignore); other
// keys are ignored. Expressions are compiled, once, in the API server's
// CEL environment (its function libraries: quantity, lists, regex, url,
// ip and cidr, strings, format...; its cost limits, per expression and
// per review), with what Gatekeeper declares:
//
//	object, oldObject    the request's objects (object is null on DELETE)
//	request              the AdmissionRequest (kind, resource, name, namespace, operation "" for an object, userInfo...)
//	namespaceObject      null, as in gator
//	variables.params     the constraint's spec.parameters with their defaults, null when it has none
//	variables.anyObject  object, or oldObject on DELETE
//	variables.<name>     the template's variables, in order
//	params               the whole constraint (spec.enforcementAction defaulted), only in variables' expressions
//
// Variables named params or anyObject, variables and match conditions
// named gatekeeper_internal_*, and a failurePolicy other than Fail or
// Ignore are refused. An expression that
// does not compile (a syntax or type error, a validation that is not a
// bool, a messageExpression that is not a string) makes the template fail
// to load, at its file:line (and column, in a block scalar).
//
// A review evaluates the match conditions first: one false skips the
// object. Each validation that is false is a violation whose message is
// its messageExpression's value when that is a non-empty single-line
// string, else its message, else "failed expression: <expression>",
// trimmed. An evaluation error (of a validation or a match condition, or
// running out of budget) is a violation carrying the API server's text
// ("expression '...' resulted in error: no such key: spec") under
// failurePolicy Fail, and nothing under Ignore. CEL violations have no
// details.
//
// # Constraints
//
// A Constraint has apiVersion constraints.gatekeeper.sh/* and a template's
// kind. It is checked the way its CRD would be: spec.match's types, its
// globs (^\*?[-:a-z0-9]*\*?$) and source enum, and spec.parameters against
// the template's openAPIV3Schema (type, enum, required, properties,
// additionalProperties, items, x-kubernetes-int-or-string; undeclared
// fields are refused unless the template is a legacy v1beta1/v1alpha1 one
// or the schema preserves unknown fields). The schema's defaults are
// applied to the parameters; a constraint without parameters gets {}.
//
// # Evaluation
//
// For each object and constraint whose spec.match selects it, a Rego
// template's violation set is evaluated with
//
//	input.review     = {"uid": "", "kind": {group, version, kind}, "resource": {"group": "", "version": "", "resource": ""},
//	                    "name": ..., "namespace": ... (absent when empty), "operation": "", "userInfo": {},
//	                    "object": the object, "oldObject": null, "options": null, "namespaceObject": {}}
//	input.parameters = the constraint's spec.parameters
//	data.inventory   = cluster[apiVersion][Kind][name] and namespace[ns][apiVersion][Kind][name] of the
//	                   objects of the review (Set.Review: all of them; a suite case: its inventory files)
//
// Each element with a string msg is a Violation (an element without msg is
// dropped, a non-string msg is an error); identical msg and details
// collapse into one. An evaluation error (a conflict, say) becomes a
// violation whose message is the error, at its place in the template file,
// as Gatekeeper reports it. The enforcement action (spec.enforcementAction,
// "deny" when absent, empty when written empty, not validated) is carried on each violation and does
// not change evaluation. A "scoped" constraint must have
// scopedEnforcementActions ([{action, enforcementPoints: [{name}]}]); the
// actions whose enforcement points name gator's, gator.gatekeeper.sh, or
// "*" are the violation's ScopedEnforcementActions, as gator reports them
// (its scopedActions); a scoped constraint with none is not evaluated, as
// in gator. Other enforcement points (validation.gatekeeper.sh,
// audit.gatekeeper.sh, vap.k8s.io) are not drydock's.
//
// # Match
//
// spec.match follows Gatekeeper: all its parts must hold, in this order.
// kinds: any entry whose kinds (empty, "*" or the kind) and apiGroups
// (empty, "*" or the group, "" for core) both hold; versions are ignored.
// scope: Cluster selects objects without metadata.namespace and Namespace
// objects, Namespaced the others; other values select everything.
// namespaces and excludedNamespaces are globs (x* prefix, *x suffix, *x*
// contains, else exact) over the object's namespace, a Namespace's own
// name; a cluster-scoped object passes both. labelSelector selects on the
// object's labels. namespaceSelector selects Namespaces on their own
// labels, passes cluster-scoped objects, and selects a namespaced object on
// the labels of its Namespace among the reviewed objects (a suite case's
// inventory); when that Namespace is missing, or a selector is invalid,
// the constraint autorejects the object: a violation "unable to match
// constraints: ... missing Namespace" with the constraint's action, as
// Gatekeeper does.
//
// That is how gator verify and Gatekeeper's audit match. gator test gives
// every object a Namespace first: an object without metadata.namespace is
// in a Namespace with no name and no labels, and an object of namespace
// default is in an unlabeled default Namespace when the objects have none.
// So in gator test a cluster-scoped object is not selected by scope:
// Cluster and is by Namespaced, fails namespaces (unless a glob matches
// ""), and is judged by namespaceSelector on no labels; an object of an
// absent default Namespace is not autorejected. Options.EmptyNamespace
// matches as gator test does. name is a glob over metadata.name (or generateName for
// a pattern ending in *). Objects are reviewed as source Original.
//
// # Suites
//
// Verify runs gator's suites (kind Suite, apiVersion test.gatekeeper.sh/*)
// as gator verify does: paths are relative to the suite's directory; each
// test's template and constraint files hold one object each; every case
// is reviewed alone with its inventory files as data.inventory (the object
// itself is not in it); an AdmissionReview object is reviewed as its
// request is written. An assertion counts the violations whose message
// matches its message regexp (all when absent; every violation counts,
// whatever its enforcement action) and wants violations: yes (at least
// one, the default), no (none) or an integer (exactly that many). Suites
// are parsed as YAML 1.2 (go.yaml.in/yaml/v3), so yes and no are strings;
// the objects, templates and constraints as Kubernetes reads YAML.
//
// # Divergences from Gatekeeper
//
//   - A CEL expression that does not compile is an error at load; gator
//     loads the template and reports "compilation error: ..." on every
//     object (a variable's only where it is used), or nothing under
//     failurePolicy Ignore.
//   - CEL runs with the cel-go the API server's module requires (v0.26),
//     where gator v3.23.1 links v0.30; the Kubernetes libraries are the
//     same (k8s.io/apiserver v0.36.2), the core may differ in details.
//   - Mutation, expansion templates (a suite test's expansion) and
//     referential data sync configuration are not supported; every object
//     given to Set.Review is in data.inventory, as if all were synced.
//   - The CRD schema checks cover the OpenAPI keywords listed above, not
//     formats, patterns or CEL validation rules in the template's schema.
//   - Problems in a suite file (an empty assertions list, an invalid
//     violations value or regexp, an object file with several objects) are
//     errors naming the file:line, where gator fails the case.
//   - gator test reviews every object it reads, the templates and
//     constraints included, and puts them all in data.inventory; Set.Review
//     reviews the objects it is given.
package gatekeeper
