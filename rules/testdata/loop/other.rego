package other

deny contains msg if {
	not input.metadata.labels.team
	msg := "no team label"
}
