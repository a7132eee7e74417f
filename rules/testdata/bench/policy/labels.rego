package main

required_labels := {"app.kubernetes.io/name", "team"}

violation_labels contains {"msg": msg, "missing": missing} if {
	provided := {k | some k, _ in input.metadata.labels}
	missing := required_labels - provided
	count(missing) > 0
	msg := sprintf("%s %s is missing labels %v", [input.kind, input.metadata.name, missing])
}
