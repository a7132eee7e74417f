# Copied unchanged from conftest v0.71.1 examples/kubernetes/policy/warn.rego (Apache-2.0):
# the policy set of the plain-manifest benchmarks (bench_test.go).
package main
import rego.v1

import data.kubernetes

name := input.metadata.name

warn contains msg if {
	kubernetes.is_service
	msg = sprintf("Found service %s but services are not allowed", [name])
}
