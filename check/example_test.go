package check_test

import (
	"context"
	"fmt"
	"os"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/report"
)

// Run the suites of a drydock.yaml from Go, print the text report and
// exit as drydock test would.
func Example() {
	cfg, err := check.LoadConfig("drydock.yaml")
	if err != nil {
		fmt.Fprintln(os.Stderr, manifest.Format(err, nil)) // with its positions
		os.Exit(check.ExitInput)
	}
	res := check.Run(context.Background(), cfg, check.Options{Shard: check.Shard{Index: 1, Count: 2}})
	if err := (report.Text{}).Write(os.Stdout, res); err != nil {
		os.Exit(check.ExitInput)
	}
	os.Exit(res.ExitCode())
}
