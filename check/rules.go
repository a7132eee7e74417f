package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/rules"
)

// engineCache loads and compiles each distinct rule set once; suites
// sharing policies share the prepared engine (safe for concurrent use).
type engineCache struct {
	mu sync.Mutex
	m  map[string]*cachedEngine
}

type cachedEngine struct {
	once sync.Once
	eng  *rules.Engine
	err  error
}

func (c *engineCache) load(ctx context.Context, opts rules.Options) (*rules.Engine, error) {
	key := fmt.Sprintf("%q %q %q %t %t %s", opts.PolicyDirs, opts.DataPaths, opts.Namespaces, opts.AllNamespaces, opts.RegoV0, opts.QueryTimeout)
	c.mu.Lock()
	e, ok := c.m[key]
	if !ok {
		e = &cachedEngine{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.eng, e.err = rules.Load(ctx, opts) })
	return e.eng, e.err
}

// ruleInputs are the rendered objects as rules' inputs, with each
// object's path in the output tree and origin, and per cluster for
// combined evaluation.
type ruleInputs struct {
	inputs  []rules.Input
	paths   []string
	origins []cluster.Origin
	groups  map[string][]rules.Input
}

func newRuleInputs(store *cluster.Store) *ruleInputs {
	in := &ruleInputs{groups: map[string][]rules.Input{}}
	for _, c := range store.Clusters() {
		for _, e := range store.List(c) {
			ri := rules.Input{Object: e.Object, Context: rules.Context{Cluster: c, Namespace: e.Object.Namespace(),
				Application: e.Origin.Application, Component: e.Origin.Component, Source: posString(e.Origin.Pos)}}
			in.inputs = append(in.inputs, ri)
			in.paths = append(in.paths, golden.ObjectPath(c, e.Object))
			in.origins = append(in.origins, e.Origin)
			in.groups[c] = append(in.groups[c], ri)
		}
	}
	return in
}

// rules evaluates the suite's policies (default: policy/ in the config's
// directory, when it exists) on the rendered objects.
func (r *runner) rules(ctx context.Context, res *SuiteResult, s Suite, store *cluster.Store) error {
	dirs := r.paths(s.Policies)
	if len(s.Policies) == 0 {
		def := filepath.Join(r.dir, "policy")
		if info, err := os.Stat(def); err != nil || !info.IsDir() {
			return nil
		}
		dirs = []string{def}
	}
	eng, err := r.engines.load(ctx, rules.Options{PolicyDirs: dirs, DataPaths: r.paths(s.Data),
		Namespaces: s.Namespaces, AllNamespaces: s.AllNamespaces, RegoV0: s.RegoVersion == "v0", QueryTimeout: r.opts.RuleTimeout})
	if err != nil {
		return err
	}
	in := newRuleInputs(store)
	var rep *rules.Report
	if s.Combine {
		rep, err = eng.EvalCombined(ctx, in.groups)
	} else {
		rep, err = eng.Eval(ctx, in.inputs, 0)
	}
	if err != nil {
		return err
	}
	ruleFindings(res, eng, rep, in, s.Combine)
	return nil
}

// ruleFindings adds a finding per failure and warning of rep to res, and
// the checks that ran: every evaluated namespace and every rule reported.
func ruleFindings(res *SuiteResult, eng *rules.Engine, rep *rules.Report, in *ruleInputs, combined bool) {
	checks := map[string]bool{}
	for _, ns := range eng.Namespaces() {
		checks["rules/"+ns] = true
	}
	for _, rr := range rep.Results {
		check := "rules/" + rr.Namespace + "." + rr.Rule
		checks[check] = true
		f := Finding{Suite: res.Name, Check: check, Message: rr.Message}
		switch rr.Kind {
		case rules.Failure:
			f.Level = LevelError
		case rules.Warning:
			f.Level = LevelWarning
		default:
			continue
		}
		if !combined && rr.Input >= 0 && rr.Input < len(in.inputs) {
			f.Object, f.Origin = in.paths[rr.Input], in.origins[rr.Input]
			f.Pos = f.Origin.Pos
		} else if combined {
			f.Object = rr.Group
		}
		res.Findings = append(res.Findings, f)
	}
	res.Checks = append(res.Checks, manifest.SortedKeys(checks)...)
}

func posString(p manifest.Pos) string {
	if !p.IsValid() {
		return ""
	}
	return p.String()
}
