# Copied unchanged from conftest v0.71.1 examples/kubernetes/policy/violation.rego (Apache-2.0):
# the policy set of the plain-manifest benchmarks (bench_test.go).
package main
import rego.v1

import data.kubernetes

name := input.metadata.name

violation := [{"msg": msg, "details": {}}] if {
	kubernetes.is_deployment
	msg := sprintf("Found deployment %s but deployments are not allowed", [name])
}
