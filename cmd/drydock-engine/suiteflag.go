package main

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/rules"
)

// suiteFlags are --suite and --config of render, diff, explain and show:
// a suite of drydock.yaml standing for the flags it has keys for.
type suiteFlags struct {
	name, config string
	// cfg is the configuration load read (nil before, or without
	// --suite).
	cfg *check.Config
}

func (s *suiteFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&s.name, "suite", "", "take the inputs, definitions, addons, clusters, observed objects, CRDs, kubeVersion and fieldValidation of this drydock.yaml suite (flags and PATHs given win)")
	fs.StringVar(&s.config, "config", "drydock.yaml", "with --suite: the drydock.yaml to read (default: found from the working directory up to the repository root)")
}

// load is the configuration and its suite --suite names; ok is false
// without --suite. An error is a usage error, printed alone.
func (s *suiteFlags) load(fs *pflag.FlagSet) (cfg *check.Config, suite check.Suite, ok bool, err error) {
	if s.name == "" {
		if fs.Changed("config") {
			return nil, suite, false, errors.New("--config names the drydock.yaml --suite reads: give --suite")
		}
		return nil, suite, false, nil
	}
	path := s.config
	if !fs.Changed("config") {
		if path, err = check.FindConfig(s.config); err != nil {
			return nil, suite, false, &missingPath{err}
		}
	}
	if cfg, err = check.LoadConfig(path); err != nil {
		return nil, suite, false, &missingPath{err}
	}
	if suite, err = cfg.Suite(s.name); err != nil {
		return nil, suite, false, &missingPath{err}
	}
	s.cfg = cfg
	return cfg, suite, true, nil
}

// configuration is drydock.yaml for the keys every command reads: the one
// --suite loaded, else the one found from the working directory up to
// the repository root (none: nil, no error).
func (s *suiteFlags) configuration(fs *pflag.FlagSet) (*check.Config, error) {
	if s.cfg != nil {
		return s.cfg, nil
	}
	path, err := check.FindConfig(fs.Lookup("config").DefValue)
	if err != nil {
		return nil, nil //nolint:nilerr // no drydock.yaml: no configuration
	}
	return check.LoadConfig(path)
}

// inputs are the suite's pipeline inputs (check.SuiteInputs) and its
// configuration's golden directories, which are never inputs; ok is
// false without --suite. An error is a usage error.
func (s *suiteFlags) inputs(fs *pflag.FlagSet) (in pipeline.Inputs, golden []string, ok bool, err error) {
	cfg, suite, ok, err := s.load(fs)
	if !ok || err != nil {
		return in, nil, false, err
	}
	if suite.Plain {
		return in, nil, false, &missingPath{fmt.Errorf("--suite %s: a plain suite (manifests checked as they are) renders nothing", s.name)}
	}
	if in, err = check.SuiteInputs(cfg.Dir, suite); err != nil {
		return in, nil, false, &missingPath{fmt.Errorf("--suite %s: %w", s.name, err)}
	}
	return in, cfg.GoldenDirs(), true, nil
}

// verify sets the verify options the --suite has keys for (check.SuiteRules:
// policies, data, Rego version, strict, show-builtin-errors, capabilities)
// where their flags are not given. A suite without policies leaves -p's
// default; policies is whether the suite gave them. An error is a usage
// error.
func (s *suiteFlags) verify(fs *pflag.FlagSet, o *rules.VerifyOptions, regoVersion *string) (policies bool, err error) {
	cfg, suite, ok, err := s.load(fs)
	if !ok || err != nil {
		return false, err
	}
	ro, ok := check.SuiteRules(cfg.Dir, suite)
	if !ok {
		return false, nil
	}
	given := fs.Changed
	if !given("policy") {
		o.PolicyDirs, policies = ro.PolicyDirs, true
	}
	if !given("data") {
		o.DataPaths = ro.DataPaths
	}
	if !given("rego-version") && ro.RegoV0 {
		*regoVersion = "v0"
	}
	if !given("strict") {
		o.Strict = ro.Strict
	}
	if !given("show-builtin-errors") {
		o.StrictBuiltinErrors = ro.StrictBuiltinErrors
	}
	if !given("capabilities") {
		o.Capabilities = ro.Capabilities
	}
	return policies, nil
}
