package main

# Counts to 100 million for every object: a rule that would run for minutes.
deny contains msg if {
	n := count([x | some x in numbers.range(1, 100000000)])
	msg := sprintf("%d", [n])
}
