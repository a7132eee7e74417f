package main

# Fine on every object.
warn_replicas contains msg if {
	input.spec.replicas > 100
	msg := "many replicas"
}

# Counts to a billion for every object: hours, unless stopped.
deny_loop contains msg if {
	n := count([x | some x in numbers.range(1, 1000000000)])
	msg := sprintf("%d", [n])
}
