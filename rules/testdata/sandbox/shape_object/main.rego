package main

deny[k] := v if {
	k := input.kind
	v := "x"
}
