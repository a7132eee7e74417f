package check

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/gatekeeper"
	"github.com/drydock-dev/drydock/manifest"
)

// gatekeeperActions are the enforcement actions gator gives a violation:
// its constraint's enforcementAction, or when that is scoped the actions
// scopedEnforcementActions give gator's enforcement point.
func gatekeeperActions(v gatekeeper.Violation) []string {
	if v.EnforcementAction == "scoped" {
		return v.ScopedEnforcementActions
	}
	return []string{v.EnforcementAction}
}

// gatekeeperLevel is the level of a violation by the enforcement actions
// gator gives it: one of them deny fails, as it fails gator test (gatekeeper
// cmd/gator/test/test.go, enforceableFailure); warn, dryrun and anything
// else are reported.
func gatekeeperLevel(actions []string) Level {
	if slices.Contains(actions, "deny") {
		return LevelError
	}
	return LevelWarning
}

// gatekeeperOptions are the suite's switches for Gatekeeper.
func gatekeeperOptions(s Suite) gatekeeper.Options {
	return gatekeeper.Options{
		RegoOnly:       s.EnableK8sNativeValidation != nil && !*s.EnableK8sNativeValidation,
		EmptyNamespace: s.GatekeeperEmptyNamespace,
	}
}

// gatekeeperFindings reviews the objects of each cluster (objs in output
// order, so a cluster's objects are together) with the suite's
// constraints, data.inventory being that cluster's objects, and adds a
// finding per violation at the object's authored place.
func (r *runner) gatekeeperFindings(ctx context.Context, s Suite, res *SuiteResult, objs []*sunk) error {
	if len(s.Gatekeeper) == 0 {
		return nil
	}
	paths := r.paths(s.Gatekeeper)
	opts := gatekeeperOptions(s)
	set, err := r.gatekeepers.get(fmt.Sprintf("%q %+v", paths, opts), func() (*gatekeeper.Set, error) {
		set, err := gatekeeper.Load(paths, opts)
		if err != nil {
			return nil, err
		}
		return set.WithBudget(r.budget), nil
	})
	if err != nil {
		return err
	}
	var stopped []gatekeeper.Stopped
	for _, c := range set.Constraints() {
		res.Checks = append(res.Checks, "gatekeeper/"+c)
	}
	for len(objs) > 0 {
		n := 1
		for n < len(objs) && objs[n].cluster == objs[0].cluster {
			n++
		}
		group := objs[:n]
		objs = objs[n:]
		in := make([]*manifest.Object, len(group))
		for i, o := range group {
			in[i] = o.obj
		}
		out, err := set.Check(ctx, in)
		if err != nil {
			return err
		}
		stopped = append(stopped, out.Stopped...)
		for _, v := range out.Violations {
			o := group[v.Object]
			msg := o.obj.Key().String() + ": " + v.Message // gatekeeper messages rarely name their object
			actions := gatekeeperActions(v)
			if !slices.Equal(actions, []string{"deny"}) {
				msg = fmt.Sprintf("%s (enforcementAction: %s)", msg, strings.Join(actions, ", "))
			}
			f := Finding{Suite: s.Name, Check: "gatekeeper/" + v.Constraint, Level: gatekeeperLevel(actions),
				Message: msg, Object: o.path, Origin: o.origin, Pos: o.origin.Pos}
			if !f.Pos.IsValid() {
				f.Pos = v.Pos
			}
			if v.Details != nil {
				f.Metadata = map[string]any{"details": v.Details, "constraint": v.Constraint, "constraintPos": v.Pos.String()}
			}
			res.Findings = append(res.Findings, f)
		}
	}
	return gatekeeper.StopErrors(stopped)
}
