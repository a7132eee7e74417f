package main

deny_run_as_root contains msg if {
	input.kind == "Deployment"
	not input.spec.template.spec.securityContext.runAsNonRoot
	msg := sprintf("%s must set runAsNonRoot", [input.metadata.name])
}
