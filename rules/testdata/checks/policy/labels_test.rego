package k8s.labels

# Test files are not loaded by Load: this would not compile there.
test_not_loaded if {
	undefined_function_only_in_tests(1)
}
