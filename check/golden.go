package check

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// compared adds the findings of a comparison with the golden directory
// dir to res; origins locate the rendered files.
func (r *runner) compared(res *SuiteResult, dir string, rep *golden.Report, origins map[string]cluster.Origin) {
	leftoverFindings(res, dir, &rep.Report)
	hint := "run drydock test --update to accept it"
	if r.opts.CI {
		hint = "the golden tree is stale: run drydock test --update locally and commit it"
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) && len(rep.Added) > 0 {
		// The first run: one finding, not one per object.
		res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelError,
			Pos:     manifest.Pos{File: dir, Line: 1, Col: 1},
			Message: fmt.Sprintf("the golden tree %s does not exist yet: %s; %s", dir, objectsRender(len(rep.Added)), firstHint(r.opts.CI))})
		return
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
}

// updated adds what an update of the golden directory dir wrote and
// kept to res.
func (r *runner) updated(res *SuiteResult, dir string, rep *tree.Report) {
	res.Updated = append(append(res.Updated, rep.Added...), rep.Changed...)
	if rep.Pruned {
		res.Updated = append(res.Updated, rep.Removed...)
	}
	leftoverFindings(res, dir, rep)
	res.Adopted = append(res.Adopted, rep.Adopted...)
	for _, p := range rep.Kept {
		res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelWarning, Object: p,
			Pos: goldenFile(dir, p), Message: fmt.Sprintf("%s no longer renders but lies on another file system: not pruned", p)})
	}
	if !rep.Pruned {
		for _, p := range rep.Removed {
			res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelWarning, Object: p,
				Pos: goldenFile(dir, p), Message: fmt.Sprintf("%s no longer renders; kept (use --prune to delete it)", p)})
		}
	}
}

// goldenFile is the start of golden file p of the directory dir.
func goldenFile(dir, p string) manifest.Pos {
	return manifest.Pos{File: filepath.Join(dir, filepath.FromSlash(p)), Line: 1, Col: 1}
}

// leftoverFindings says what was done of an update of the golden
// directory dir that was killed (its journal completed or rolled back),
// and warns when the directory has no ownership file.
func leftoverFindings(res *SuiteResult, dir string, rep *tree.Report) {
	journal := manifest.Pos{File: filepath.Join(dir, tree.JournalFile), Line: 1, Col: 1}
	for _, l := range rep.Leftovers {
		res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelWarning,
			Pos: journal, Message: fmt.Sprintf("the golden tree %s: %s", dir, l)})
	}
	if rep.Unowned {
		res.Findings = append(res.Findings, Finding{Suite: res.Name, Check: "golden", Level: LevelWarning,
			Pos:     manifest.Pos{File: dir, Line: 1, Col: 1},
			Message: fmt.Sprintf("the golden tree %s has no %s: drydock wrote none of its files, so stale ones are not reported; take the tree over once with drydock test --update --adopt", dir, tree.OwnershipFile)})
	}
}

// revisionHashLine is the app.oam.dev/app-revision-hash label in a
// canonical file: drydock's stand-in for KubeVela's revision hash changes
// with any change of the application, so compared it would make every
// object of a changed application drift.
var revisionHashLine = regexp.MustCompile(`(?m)^ +app\.oam\.dev/app-revision-hash: .*\n`)

// goldenMask is what suite s's golden comparison leaves out: the revision
// hash (unless compareRevisionHash) and its ignore paths.
func goldenMask(s Suite) func(p string, data []byte) []byte {
	if s.CompareRevisionHash && len(s.Ignore) == 0 {
		return nil
	}
	return func(p string, data []byte) []byte {
		if !s.CompareRevisionHash {
			data = revisionHashLine.ReplaceAll(data, nil)
		}
		if len(s.Ignore) == 0 {
			return data
		}
		objs, err := manifest.Decode(p, data, manifest.DecodeOptions{})
		if err != nil || len(objs) != 1 {
			return data // compared as it is: the diff shows what is wrong
		}
		o, masked := objs[0], false
		cluster, _, _ := strings.Cut(p, "/")
		for _, ig := range s.Ignore {
			if (ig.Kind == "" || ig.Kind == o.Kind()) && (ig.Cluster == "" || ig.Cluster == cluster) {
				masked = deletePath(o.Data, ig.Path) || masked
			}
		}
		if !masked {
			return data
		}
		out, err := tree.Encode(o)
		if err != nil {
			return data
		}
		return out
	}
}

// firstHint says how to write a missing golden tree.
func firstHint(ci bool) string {
	if ci {
		return "run drydock test --update locally and commit it"
	}
	return "run drydock test --update to write it, then commit it"
}

// deletePath removes the value at path, an ignore path as the config
// writes it (spec.replicas, metadata.labels[app.kubernetes.io/version]),
// and reports whether there was one.
func deletePath(data map[string]any, path string) bool {
	p, err := fieldpath.Parse(path)
	return err == nil && fieldpath.Delete(data, p)
}

// objectsRender says how many objects render: "1 object renders", "3
// objects render".
func objectsRender(n int) string {
	if n == 1 {
		return "1 object renders"
	}
	return fmt.Sprintf("%d objects render", n)
}
