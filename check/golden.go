package check

import (
	"fmt"
	"path/filepath"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
)

// golden compares tree with the golden directory dir, or updates dir to
// it, adding the findings and updated files to res.
func (r *runner) golden(res *SuiteResult, dir string, tree golden.Tree, origins map[string]cluster.Origin) error {
	if r.opts.Update {
		return r.updateGolden(res, dir, tree)
	}
	rep, err := golden.Compare(dir, tree)
	if err != nil {
		return err
	}
	leftoverFindings(res, dir, rep, "the next drydock test --update removes it")
	hint := "run drydock test --update to accept it"
	if r.opts.CI {
		hint = "the golden tree is stale: run drydock test --update locally and commit it"
	}
	for _, p := range rep.Added {
		res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelError, Object: p,
			Pos: origins[p].Pos, Origin: origins[p],
			Message: fmt.Sprintf("%s renders but is not in the golden tree (%s)", p, hint)})
	}
	for _, p := range rep.Changed {
		res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelError, Object: p,
			Pos: origins[p].Pos, Origin: origins[p], Diff: rep.Diffs[p],
			Message: fmt.Sprintf("%s differs from the golden tree (%s)", p, hint)})
	}
	for _, p := range rep.Removed {
		res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelError, Object: p,
			Pos:     goldenFile(dir, p),
			Message: fmt.Sprintf("%s is in the golden tree but no longer renders (%s with --prune)", p, hint)})
	}
	return nil
}

// updateGolden rewrites dir to match tree.
func (r *runner) updateGolden(res *SuiteResult, dir string, tree golden.Tree) error {
	rep, err := golden.Update(dir, tree, golden.UpdateOptions{Prune: r.opts.Prune})
	if err != nil {
		return err
	}
	res.Updated = append(append(res.Updated, rep.Added...), rep.Changed...)
	if rep.Pruned {
		res.Updated = append(res.Updated, rep.Removed...)
	}
	leftoverFindings(res, dir, rep, "removed")
	if !rep.Pruned {
		for _, p := range rep.Removed {
			res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelWarning, Object: p,
				Pos: goldenFile(dir, p), Message: fmt.Sprintf("%s no longer renders; kept (use --prune to delete it)", p)})
		}
	}
	return nil
}

// goldenFile is the start of golden file p of the directory dir.
func goldenFile(dir, p string) manifest.Pos {
	return manifest.Pos{File: filepath.Join(dir, filepath.FromSlash(p)), Line: 1, Col: 1}
}

// leftoverFindings warns about what an interrupted update left beside the
// golden directory dir.
func leftoverFindings(res *SuiteResult, dir string, rep *golden.Report, what string) {
	for _, l := range rep.Leftovers {
		res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelWarning,
			Pos:     manifest.Pos{File: filepath.Join(filepath.Dir(dir), l), Line: 1, Col: 1},
			Message: fmt.Sprintf("%s is left over from an interrupted golden update (%s)", l, what)})
	}
}
