package main

deny contains msg if {
	opa.runtime().env.CI == "true"
	msg := "runs in CI"
}
