package main

# Certificates in annotations must not have expired.
deny contains msg if {
	expiry := time.parse_rfc3339_ns(input.metadata.annotations["cert-expiry"])
	expiry < time.now_ns()
	msg := sprintf("certificate of %s expired", [input.metadata.name])
}
