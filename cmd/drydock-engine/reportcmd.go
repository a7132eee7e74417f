package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/drydock-dev/drydock/report"
	"github.com/drydock-dev/drydock/shards"
)

// runReport is drydock report: its one subcommand, merge, combines the
// JSON reports of the shards of one drydock test run (--shard i/n) into
// the report of the whole run, and exits as drydock test would have.
func runReport(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("report merge", "report merge [flags] FILE...", "Combines the JSON reports (--format json) of the shards of one drydock test run\n(--shard 1/n ... n/n) into the report of the whole run, in any of drydock test's formats: the union of their findings,\none of each; a golden file stale only if no shard rendered it. Every shard's report is needed.\nExit 0 ok, 1 a check failed, 2 a suite could not be checked, or bad reports or usage.")
	fs := cmd.fs
	format := fs.String("format", "json", "report format: "+strings.Join(report.Formats, ", ")+" (github: annotations and the job summary)")
	fs.StringVarP(format, "output", "o", "json", "output format, as --format")
	outFile := fs.String("output-file", "", "write the report to `FILE` instead of stdout")
	failOnWarn := fs.Bool("fail-on-warn", false, "exit 1 when a check warned, as drydock test --fail-on-warn")
	if code, done := cmd.subcommand("report", "merge", args, stdout, stderr); done {
		return code
	}
	if code, done := cmd.parse(args[1:], stdout, stderr); done {
		return code
	}
	if fs.Changed("format") && fs.Changed("output") {
		return cmd.fail(stderr, errors.New("--format and -o both name the format: give one"))
	}
	wd, _ := os.Getwd()
	f, ok := report.Lookup(*format, report.Options{Version: version, Dir: wd, Colour: *outFile == "" && colour(stdout)})
	if !ok {
		return cmd.fail(stderr, fmt.Errorf("unknown format %q (%s)", *format, strings.Join(report.Formats, ", ")))
	}
	if fs.NArg() == 0 {
		return cmd.fail(stderr, errors.New("give the shards' JSON reports (drydock test --shard i/n --format json --output-file FILE)"))
	}
	var in []shards.Input
	for _, name := range fs.Args() {
		data, err := os.ReadFile(name)
		if err == nil {
			var r *shards.Report
			if r, err = shards.Read(data); err == nil {
				in = append(in, shards.Input{Name: name, Report: r})
				continue
			}
		}
		fmt.Fprintf(stderr, "drydock report merge: %s: %s\n", name, errText(err))
		return exitUsage
	}
	merged, err := shards.Merge(in)
	if err != nil {
		fmt.Fprintf(stderr, "drydock report merge: %s\n", errText(err))
		return exitUsage
	}
	res := report.ResultOf(merged)
	if err := writeReport(stdout, res, *outFile, f); err != nil {
		fmt.Fprintf(stderr, "drydock report merge: %s\n", errText(err))
		return exitUsage
	}
	if *format == "github" {
		if err := writeStepSummary(res); err != nil {
			fmt.Fprintf(stderr, "drydock report merge: writing the job summary: %s\n", errText(err))
			return exitUsage
		}
	}
	return merged.Exit(*failOnWarn)
}
