package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/rules"
)

// onceCache computes the value of each distinct key once, for every
// suite that asks: compiled rule sets and Gatekeeper sets, which are safe
// for concurrent use.
type onceCache[T any] struct {
	mu sync.Mutex
	m  map[string]*cached[T]
}

type cached[T any] struct {
	once sync.Once
	v    T
	err  error
}

// get returns key's value, computing it with load the first time.
func (c *onceCache[T]) get(key string, load func() (T, error)) (T, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*cached[T]{}
	}
	e, ok := c.m[key]
	if !ok {
		e = &cached[T]{}
		c.m[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.v, e.err = load() })
	return e.v, e.err
}

// engine loads and compiles the rule set of opts once; it evaluates
// under the run's budget.
func (r *runner) engine(ctx context.Context, opts rules.Options) (*rules.Engine, error) {
	key := fmt.Sprintf("%#v", opts) // every setting; check never sets Debug
	return r.engines.get(key, func() (*rules.Engine, error) {
		eng, err := rules.Load(ctx, opts)
		if err != nil {
			return nil, err
		}
		return eng.WithBudget(r.budget), nil
	})
}

// SuiteRules are the options of the rules of the suite s of the
// configuration in dir, as drydock test evaluates them (its policies,
// default policy/ in dir when it exists; data, namespaces, Rego version,
// strictness, capabilities, clock); false when it has no policies.
func SuiteRules(dir string, s Suite) (rules.Options, bool) {
	return (&runner{dir: dir}).ruleOptions(s)
}

// ruleOptions are the options of the suite's rules (default: policy/ in
// the config's directory, when it exists); false when it has none.
func (r *runner) ruleOptions(s Suite) (rules.Options, bool) {
	dirs := r.paths(s.Policies)
	if len(s.Policies) == 0 {
		def := filepath.Join(r.dir, "policy")
		if info, err := os.Stat(def); err != nil || !info.IsDir() {
			return rules.Options{}, false
		}
		dirs = []string{def}
	}
	now, _ := ParseNow(s.Now) // checked by LoadConfig and drydock test
	opts := rules.Options{PolicyDirs: dirs, DataPaths: r.dataPaths(s.Data), Namespaces: s.Namespaces, AllNamespaces: s.AllNamespaces,
		RegoV0: s.RegoVersion == "v0", Strict: r.strict(s), QueryTimeout: r.opts.RuleTimeout,
		StrictBuiltinErrors: s.StrictBuiltinErrors, Now: now, Root: r.dir}
	if s.Capabilities != "" {
		opts.Capabilities = r.paths([]string{s.Capabilities})[0]
	}
	return opts, true
}

// ruleFindings adds a finding per failure and warning of rep to res, and
// the checks that ran: every evaluated namespace and every rule reported.
// objs are the objects evaluated, by input index.
func ruleFindings(res *SuiteResult, eng *rules.Engine, rep *rules.Report, objs []*sunk, combined bool) {
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
		case rules.Exception:
			f.Level = LevelException
		default:
			continue
		}
		f.Metadata = rr.Metadata
		if !combined && rr.Input >= 0 && rr.Input < len(objs) {
			f.Object, f.Origin = objs[rr.Input].path, objs[rr.Input].origin
			f.Pos = f.Origin.Pos
		} else if combined {
			f.Object = rr.Group
		}
		res.Findings = append(res.Findings, f)
	}
	res.Checks = append(res.Checks, manifest.SortedKeys(checks)...)
}
