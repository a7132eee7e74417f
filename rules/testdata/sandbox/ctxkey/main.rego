package main

deny contains msg if {
	drydock.context().clusterr == "x"
	msg := "m"
}
