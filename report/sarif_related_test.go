package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
)

// TestSARIFRelatedLocations: a finding's related places (the template
// line of a render error) are written as the result's relatedLocations,
// numbered, with what each is; a finding without any has none.
func TestSARIFRelatedLocations(t *testing.T) {
	r := &check.Result{Config: "drydock.yaml", Suites: []*check.SuiteResult{{Name: "apps", Findings: []check.Finding{
		{Suite: "apps", Check: "render", Level: check.LevelError, Message: "boom",
			Pos:     manifest.Pos{File: "app.yaml", Line: 14, Col: 11},
			Related: []manifest.Related{{Pos: manifest.Pos{File: "defs/scaler.cue", Line: 3, Col: 2}, What: "template"}, {What: "a note without a place"}}},
		{Suite: "apps", Check: "render", Level: check.LevelError, Message: "plain", Pos: manifest.Pos{File: "app.yaml", Line: 2}},
	}}}}
	var b bytes.Buffer
	if err := (SARIF{Version: "v1"}).Write(&b, r); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RelatedLocations []json.RawMessage `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, res := range log.Runs[0].Results {
		var locs []string
		for _, l := range res.RelatedLocations {
			var c bytes.Buffer
			if err := json.Compact(&c, l); err != nil {
				t.Fatal(err)
			}
			locs = append(locs, c.String())
		}
		got = append(got, locs)
	}
	want := [][]string{
		{`{"id":0,"physicalLocation":{"artifactLocation":{"uri":"defs/scaler.cue"},"region":{"startLine":3,"startColumn":2}},"message":{"text":"template"}}`},
		nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("relatedLocations (-want +got):\n%s", diff)
	}
	if bytes.Contains(b.Bytes(), []byte(`"relatedLocations": null`)) {
		t.Error("a result without related places writes relatedLocations")
	}
}
