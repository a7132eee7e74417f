// Package check owns `drydock test` as a library: it reads a suite
// configuration (drydock.yaml, LoadConfig), selects the suites of a shard
// (Shard), and runs each suite (Run): render its inputs with pipeline,
// compare its golden tree with golden (or update it), and evaluate its
// OPA rules with rules. The outcome is a typed Result: per suite the
// checks that ran, the findings (each with its check, level, message and
// place in the authored input), and the exit code the results call for
// (Result.ExitCode, following DESIGN.md's contract).
//
// check is not a printer and not a CLI: it never writes to standard
// output or error, reads flags or the environment, or exits. Package
// report formats a Result (text, JSON, JUnit, SARIF, GitHub); cmd/drydock-engine
// owns the flags, the environment (CI, GITHUB_STEP_SUMMARY) and the exit.
// It does not render, compare or evaluate by itself: those stay in
// pipeline, golden and rules, and the definition tests' rendering and
// assertions in deftest, which check only calls and reads.
package check
