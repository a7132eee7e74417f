package main

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/pipeline"
)

// suiteFlags are --suite and --config of render, diff, explain and show:
// a suite of drydock.yaml standing for the flags it has keys for.
type suiteFlags struct {
	name, config string
}

func (s *suiteFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&s.name, "suite", "", "take the inputs, definitions, addons, clusters, observed objects, CRDs, kubeVersion and fieldValidation of this drydock.yaml suite (flags and PATHs given win)")
	fs.StringVar(&s.config, "config", "drydock.yaml", "with --suite: the drydock.yaml to read (default: found from the working directory up to the repository root)")
}

// inputs are the suite's pipeline inputs (check.SuiteInputs) and its
// configuration's golden directories, which are never inputs; ok is
// false without --suite. An error is a usage error.
func (s *suiteFlags) inputs(fs *pflag.FlagSet) (in pipeline.Inputs, golden []string, ok bool, err error) {
	if s.name == "" {
		if fs.Changed("config") {
			return in, nil, false, errors.New("--config names the drydock.yaml --suite reads: give --suite")
		}
		return in, nil, false, nil
	}
	path := s.config
	if !fs.Changed("config") {
		if path, err = check.FindConfig(s.config); err != nil {
			return in, nil, false, &missingPath{err}
		}
	}
	cfg, err := check.LoadConfig(path)
	if err != nil {
		return in, nil, false, &missingPath{err}
	}
	suite, err := cfg.Suite(s.name)
	if err != nil {
		return in, nil, false, &missingPath{err}
	}
	if suite.Plain {
		return in, nil, false, &missingPath{fmt.Errorf("--suite %s: a plain suite (manifests checked as they are) renders nothing", s.name)}
	}
	if in, err = check.SuiteInputs(cfg.Dir, suite); err != nil {
		return in, nil, false, &missingPath{fmt.Errorf("--suite %s: %w", s.name, err)}
	}
	return in, cfg.GoldenDirs(), true, nil
}
