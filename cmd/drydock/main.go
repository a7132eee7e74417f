// Command drydock renders what a multi-cluster Kubernetes platform would
// deploy, without a cluster. See `drydock help`.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
