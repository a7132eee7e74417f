# Copied unchanged from conftest v0.71.1 examples/kubernetes/policy/kubernetes.rego (Apache-2.0):
# the policy set of the plain-manifest benchmarks (bench_test.go).
package kubernetes
import rego.v1

is_service if {
	input.kind = "Service"
}

is_deployment if {
	input.kind = "Deployment"
}
