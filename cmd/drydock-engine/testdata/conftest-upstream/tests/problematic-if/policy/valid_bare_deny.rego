package main
import rego.v1

deny if {
    true
}
