package shards

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func finding(check, object, msg, level string) Finding {
	return Finding{Suite: "s", Check: check, Level: level, Message: msg, Object: object}
}

var (
	stale    = finding("golden", "local/x.yaml", "local/x.yaml is in the golden tree but no longer renders", LevelError)
	otherA   = finding("golden", "local/a.yaml", "local/a.yaml is in the golden tree but no longer renders", LevelError)
	otherB   = finding("golden", "local/b.yaml", "local/b.yaml is in the golden tree but no longer renders", LevelError)
	ruleA    = finding("rules/main.deny", "local/a.yaml", "a is denied", LevelError)
	template = finding("render", "", "ConfigMap c: no PropagationPolicy selects it", LevelWarning)
)

func shard(i, n int, suites ...Suite) Input {
	return Input{Name: "report-" + string(rune('0'+i)) + ".json", Report: &Report{Config: "drydock.yaml", Shard: &Shard{i, n}, Suites: suites}}
}

// TestMerge: the union of the shards' findings, one of each; an
// unclaimed finding only when every shard that ran the suite has it;
// objects added up; the status and OK recomputed; suites sorted.
func TestMerge(t *testing.T) {
	s1 := Suite{Name: "s", Status: StatusFail, Objects: 2, Checks: []string{"render", "golden", "rules/main.deny"},
		Findings: []Finding{template, ruleA}, Unclaimed: []Finding{stale, otherB}}
	s2 := Suite{Name: "s", Status: StatusOK, Objects: 1, Checks: []string{"render", "validate", "golden"},
		Findings: []Finding{template}, Unclaimed: []Finding{stale, otherA}}
	whole := Suite{Name: "c", Status: StatusOK, Objects: 4, Checks: []string{"render"}, Findings: []Finding{}}
	want := &Report{OK: false, Config: "drydock.yaml", Suites: []Suite{
		{Name: "c", Status: StatusOK, Objects: 4, Checks: []string{"render"}, Findings: []Finding{}},
		{Name: "s", Status: StatusFail, Objects: 3, Checks: []string{"render", "golden", "rules/main.deny", "validate"},
			Findings: []Finding{stale, template, ruleA}},
	}}
	for _, order := range [][]Input{
		{shard(1, 2, s1), shard(2, 2, whole, s2)},
		{shard(2, 2, whole, s2), shard(1, 2, s1)},
	} {
		got, err := Merge(order)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("merged (-want +got):\n%s", diff)
		}
		if code := got.Exit(false); code != ExitFail {
			t.Errorf("Exit = %d, want 1", code)
		}
	}
	// A suite one shard could not check: ERROR, exit 2.
	bad := s2
	bad.Error = "apps/x.yaml:2: invalid YAML"
	got, err := Merge([]Input{shard(1, 2, s1), shard(2, 2, bad)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Suites[0].Status != StatusError || got.Exit(false) != ExitInput || got.OK {
		t.Errorf("a suite with an error: status %s, exit %d, ok %t", got.Suites[0].Status, got.Exit(false), got.OK)
	}
	// A whole run's report (no shard) is shard 1 of 1: merged alone, it
	// is sorted and its unclaimed findings, if any, stand.
	got, err = Merge([]Input{{Name: "whole.json", Report: &Report{Suites: []Suite{{Name: "s", Findings: []Finding{template}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !got.OK || got.Exit(false) != ExitOK || got.Exit(true) != ExitFail {
		t.Errorf("a warning only: ok %t, exit %d, with fail-on-warn %d", got.OK, got.Exit(false), got.Exit(true))
	}
}

// TestMergeMissingTree: "the golden tree does not exist yet", which each
// shard makes counting what it rendered, comes once, counting the
// suite's objects; alone (one shard made it, or a whole run) it stands.
func TestMergeMissingTree(t *testing.T) {
	missing := func(n string) Finding {
		return Finding{Suite: "s", Check: "golden", Level: LevelError, File: "golden/s", Line: 1, Column: 1,
			Message: "the golden tree golden/s does not exist yet: " + n + "; run drydock test --update locally and commit it"}
	}
	tests := []struct {
		name string
		in   []Input
		want []Finding
	}{
		{"every shard", []Input{
			shard(1, 3, Suite{Name: "s", Objects: 3, Findings: []Finding{missing("3 objects render")}}),
			shard(2, 3, Suite{Name: "s", Objects: 1, Findings: []Finding{missing("2 objects render"), ruleA}}),
			shard(3, 3, Suite{Name: "s", Objects: 0, Findings: []Finding{missing("1 object renders")}}),
		}, []Finding{missing("4 objects render"), ruleA}},
		// Two shards with the same count are not one finding.
		{"the same count", []Input{
			shard(1, 2, Suite{Name: "s", Objects: 2, Findings: []Finding{missing("2 objects render")}}),
			shard(2, 2, Suite{Name: "s", Objects: 2, Findings: []Finding{missing("2 objects render")}}),
		}, []Finding{missing("4 objects render")}},
		{"one shard", []Input{
			shard(1, 2, Suite{Name: "s", Objects: 1, Findings: []Finding{missing("1 object renders")}}),
			shard(2, 2, Suite{Name: "s", Objects: 0}),
		}, []Finding{missing("1 object renders")}},
		{"a whole run", []Input{{Name: "whole.json", Report: &Report{Config: "drydock.yaml", Suites: []Suite{{Name: "s", Objects: 7, Findings: []Finding{missing("5 objects render")}}}}}},
			[]Finding{missing("5 objects render")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Merge(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.Suites[0].Findings); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMergeWholeRender: a shard's warning that it rendered the whole
// suite is not the suite's (the whole run has no such warning): the
// merge leaves it out, and --fail-on-warn passes as for the whole run.
func TestMergeWholeRender(t *testing.T) {
	whole := Finding{Suite: "s", Check: "render", Level: LevelWarning,
		Message: WholeRenderPrefix + "Application s (shared/s.yaml:1:1) uses a shared-resource policy: applications may share an object"}
	got, err := Merge([]Input{
		shard(1, 2, Suite{Name: "s", Objects: 1, Findings: []Finding{whole}}),
		shard(2, 2, Suite{Name: "s", Objects: 1, Findings: []Finding{whole}}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Finding{}, got.Suites[0].Findings); diff != "" || got.Exit(true) != ExitOK {
		t.Errorf("exit with fail-on-warn %d, findings (-want +got):\n%s", got.Exit(true), diff)
	}
}

// TestMergeUnclaimedRepeated: an unclaimed finding a shard repeats is
// still one shard's: not stale while another shard renders the file.
func TestMergeUnclaimedRepeated(t *testing.T) {
	got, err := Merge([]Input{
		shard(1, 2, Suite{Name: "s", Unclaimed: []Finding{stale, stale}}),
		shard(2, 2, Suite{Name: "s"}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Finding{}, got.Suites[0].Findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestMergeRefuses(t *testing.T) {
	s := Suite{Name: "s"}
	tests := []struct {
		name string
		in   []Input
		want string
	}{
		{"nothing", nil, "no report to merge"},
		{"a missing shard", []Input{shard(1, 3, s), shard(3, 3, s)}, "missing shard 2 of 3: every shard's report is needed to merge (a stale golden file is one no shard rendered)"},
		{"two missing", []Input{shard(2, 3, s)}, "missing shard 1, 3 of 3"},
		{"mixed counts", []Input{shard(1, 2, s), shard(2, 3, s)}, "report-2.json is shard 2/3 but report-1.json is of 2 shards: the reports are not of one run"},
		{"a shard twice", []Input{shard(1, 2, s), {Name: "again.json", Report: &Report{Shard: &Shard{1, 2}}}, shard(2, 2, s)}, "shard 1/2 is given twice: report-1.json and again.json"},
		{"a whole run with a shard", []Input{{Name: "whole.json", Report: &Report{}}, shard(2, 2, s)}, "report-2.json is shard 2/2 but whole.json is of 1 shards: the reports are not of one run"},
		{"mixed configs", []Input{shard(1, 2, s), {Name: "other.json", Report: &Report{Config: "other/drydock.yaml", Shard: &Shard{2, 2}}}},
			`other.json is of config "other/drydock.yaml" but report-1.json of "drydock.yaml": the reports are not of one run`},
		{"mixed versions", []Input{{Name: "a.json", Report: &Report{Config: "drydock.yaml", Drydock: "v0.1.0", Shard: &Shard{1, 2}}}, shard(2, 2, s)},
			`report-2.json is of drydock (unknown) but a.json of drydock v0.1.0: the reports are not of one run`},
		{"a split suite missing from a shard", []Input{shard(1, 2, Suite{Name: "s", Unclaimed: []Finding{stale}}, Suite{Name: "t"}), shard(2, 2, Suite{Name: "t"})},
			"suite s is split among the shards but report-2.json does not have it: the reports are not of one run (the same --suite for every shard)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(tt.in)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestReadWrite: a report reads back as written; what is not drydock
// test's JSON report is refused.
func TestReadWrite(t *testing.T) {
	r := &Report{OK: true, Config: "drydock.yaml", Drydock: "v0.1.0", Shard: &Shard{2, 3}, Suites: []Suite{{Name: "s", Status: StatusOK, Checks: []string{"render"}, Findings: []Finding{},
		Unclaimed: []Finding{{Suite: "s", Check: "golden", Level: LevelError, Message: "m", Related: []Related{{What: "template", File: "d.cue", Line: 3}},
			Source: &Source{File: "a.yaml", Line: 1, Application: "a"}, Metadata: map[string]any{"id": "X1"}}}}}}
	var buf bytes.Buffer
	if err := r.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	for _, bad := range []string{`{"ok": true}`, `{"suites": [], "extra": 1}`, `[1]`, `{"suites": [], "shard": {"index": 3, "count": 2}}`, `{"runs": []}`,
		`{"suites": []}` + "\n" + `{"suites": []}`, `{"suites": []} x`} {
		if _, err := Read([]byte(bad)); err == nil {
			t.Errorf("Read(%s) took it", bad)
		}
	}
}
