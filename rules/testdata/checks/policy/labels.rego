package k8s.labels

warn_team contains msg if {
	not input.metadata.labels.team
	msg := sprintf("%s %s has no team label", [input.kind, input.metadata.name])
}
