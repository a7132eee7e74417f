package main

deny if {
	input.kind == "Pod"
}
