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
	key := fmt.Sprintf("%#v", opts) // every setting; check never sets Debug
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
	opts := rules.Options{PolicyDirs: dirs, DataPaths: r.paths(s.Data), Namespaces: s.Namespaces, AllNamespaces: s.AllNamespaces,
		RegoV0: s.RegoVersion == "v0", Strict: s.Strict || r.opts.Strict, QueryTimeout: r.opts.RuleTimeout,
		StrictBuiltinErrors: s.StrictBuiltinErrors, Now: now, Readable: r.paths(s.Inputs)}
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
