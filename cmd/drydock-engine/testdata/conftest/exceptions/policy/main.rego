package main

deny_run_as_root contains "runs as root" if input.kind == "Pod"

deny_privileged contains "privileged" if input.kind == "Pod"

warn_no_limits contains "no limits" if input.kind == "Pod"

exception contains rules if {
	input.metadata.name == "legacy"
	rules := ["run_as_root", "no_limits"]
}
