// Package deftest owns definition tests: unit tests of KubeVela
// component, trait and policy definitions (the *_test.yaml files of a
// drydock.yaml suite). A test renders one definition with the properties
// and context it gives — the Application, the workload a trait patches
// and the member cluster built as objects in memory and handed to
// pipeline, never written out as YAML — and checks its assertions on
// what rendered: values at field paths, the objects present, the render's
// error (kept as the error value pipeline returned, manifest.Error and
// all), the definition's health and status, and snapshots stored beside
// the test file. It also records which ifs of the tested templates the
// tests took (Coverage).
//
// deftest reads no configuration and prints nothing: package check finds
// and decodes the test files of a suite, runs each Test with Run and
// turns its Failures into findings.
package deftest
