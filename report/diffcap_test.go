package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/reconcile"
)

// TestCapMarkdown: under the cap the blocks are joined as they are;
// over it the highest ranks go first, a rank keeps a prefix, and the
// notice counts what was left out, per application, and says where the
// whole report is; the result is never over the cap.
func TestCapMarkdown(t *testing.T) {
	blocks := []mdBlock{
		{text: "head\n"},
		{text: "row a\n", rank: 1, what: "application row"},
		{text: "row b\n", rank: 1, what: "application row"},
		{text: strings.Repeat("d", 100) + "\n", rank: 4, what: "object diff", app: "a"},
		{text: "small\n", rank: 4, what: "object diff", app: "b"},
		{text: strings.Repeat("e", 100) + "\n", rank: 4, what: "object diff", app: "b"},
	}
	whole := strings.Join([]string{"head\n", "row a\n", "row b\n", strings.Repeat("d", 100) + "\n", "small\n", strings.Repeat("e", 100) + "\n"}, "")
	if got := capMarkdown(blocks, 0, "", "x"); got != whole {
		t.Errorf("no cap: %q", got)
	}
	if got := capMarkdown(blocks, len(whole), "", "x"); got != whole {
		t.Errorf("at the cap: %q", got)
	}
	got := capMarkdown(blocks, 200, "", "<code>all.md</code>")
	want := "head\nrow a\nrow b\n\n---\n\n**Cut to fit 200 bytes**: left out 3 object diffs of 2 applications. The whole report: <code>all.md</code>.\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A cap the notice itself exceeds: cut at a line, still within it.
	for _, limit := range []int{1, 5, 30, 120, 200} {
		if got := capMarkdown(blocks, limit, "", "somewhere"); len(got) > limit {
			t.Errorf("cap %d: %d bytes: %q", limit, len(got), got)
		}
	}
}

// TestCapMarkdownKeepsPrefix: a rank keeps the blocks before the first
// that does not fit, so what is shown is the report's beginning.
func TestCapMarkdownKeepsPrefix(t *testing.T) {
	var blocks []mdBlock
	for i := range 50 {
		blocks = append(blocks, mdBlock{text: fmt.Sprintf("diff %02d %s\n", i, strings.Repeat("x", 90)), rank: 4, what: "object diff"})
	}
	got := capMarkdown(blocks, 1500, "", "there")
	n := strings.Count(got, "diff ")
	if len(got) > 1500 || !strings.HasPrefix(got, "diff 00 ") || n < 13 || !strings.Contains(got, fmt.Sprintf("diff %02d ", n-1)) ||
		!strings.Contains(got, fmt.Sprintf("left out %d object diffs.", 50-n)) {
		t.Errorf("got:\n%s", got)
	}
}

func TestCutUTF8(t *testing.T) {
	s := "aé€😀" // 1, 2, 3, 4 bytes
	for n := range len(s) + 2 {
		got := cutUTF8(s, n)
		if len(got) > n || !utf8.ValidString(got) || !strings.HasPrefix(s, got) {
			t.Errorf("cutUTF8(%q, %d) = %q", s, n, got)
		}
	}
	if got := cutUTF8("ab\ncd\nef", 7); got != "ab\ncd\n" {
		t.Errorf("cut at a line: %q", got)
	}
	if got := cutUTF8("aé€😀", 5); got != "aé" {
		t.Errorf("cut in a character: %q", got)
	}
}

func TestSizeName(t *testing.T) {
	for n, want := range map[int]string{SummaryCap: "1 MiB", CommentCap: "65,536 bytes", 999: "999 bytes", 1000: "1,000 bytes", 1234567: "1,234,567 bytes"} {
		if got := sizeName(n); got != want {
			t.Errorf("sizeName(%d) = %q, want %q", n, got, want)
		}
	}
}

// noisyPlan is 3 applications: web with a real update and two
// bookkeeping-only ones, db with a bookkeeping-only one and an ignored
// one, and an object of no application.
func noisyPlan() *reconcile.Plan {
	rev := func(app string) []reconcile.KeyChange {
		return []reconcile.KeyChange{{Key: "app.oam.dev/appRevision", From: app + "-v1", To: app + "-v2", FromSet: true, ToSet: true}}
	}
	ch := func(cl, app, kind, name string, noise reconcile.Noise) reconcile.Change {
		c := reconcile.Change{Cluster: cl, Key: manifest.Key{Kind: kind, Namespace: "ns", Name: name}, APIVersion: "v1", Path: cl + "/ns/" + name + ".yaml",
			Action: reconcile.Update, Reason: "application " + app, App: app, Noise: noise,
			Base: []byte("a: 1\n"), Head: []byte("a: 2\n")}
		switch noise {
		case reconcile.Bookkeeping:
			c.Bookkeeping = rev(strings.TrimPrefix(app, "ns/"))
		case reconcile.Ignored:
			c.IgnoredBy = []string{"spec.replicas"}
		}
		return c
	}
	return &reconcile.Plan{Changes: []reconcile.Change{
		ch("local", "ns/web", "Deployment", "web", reconcile.Real),
		ch("local", "ns/web", "Service", "web", reconcile.Bookkeeping),
		ch("local", "ns/db", "StatefulSet", "db", reconcile.Ignored),
		ch("member1", "ns/web", "ConfigMap", "web", reconcile.Bookkeeping),
		ch("member1", "ns/db", "Service", "db", reconcile.Bookkeeping),
		{Cluster: "member1", Key: manifest.Key{Kind: "ConfigMap", Namespace: "ns", Name: "plain"}, Path: "member1/ns/plain.yaml", Action: reconcile.Create, Reason: "input plain.yaml", Head: []byte("a: 1\n")},
	}}
}

// TestDiffNoise: text and Markdown show the real changes, a line per
// application for the bookkeeping-only ones and a count of the ignored
// ones; ShowBookkeeping lists the bookkeeping ones too.
func TestDiffNoise(t *testing.T) {
	var text bytes.Buffer
	if err := DiffText(&text, noisyPlan(), "main", DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `cluster  create  update  delete  bookkeeping only  ignored only
local    0       3       0       1                 1
member1  1       2       0       2                 0

application       create  update  delete  bookkeeping only  ignored only
(no application)  1       0       0       0                 0
ns/db             0       2       0       1                 1
ns/web            0       3       0       2                 0

cluster local
  namespace ns
    ~ update Deployment web: application ns/web
        --- base/local/ns/web.yaml
        +++ head/local/ns/web.yaml
        @@ -1 +1 @@
        -a: 1
        +a: 2
cluster member1
  namespace ns
    + create ConfigMap plain: input plain.yaml
application ns/db: 1 object differs only in KubeVela's bookkeeping labels (app.oam.dev/appRevision: db-v1 → db-v2)
application ns/web: 2 objects differ only in KubeVela's bookkeeping labels (app.oam.dev/appRevision: web-v1 → web-v2)
1 object differs only in ignored fields (--ignore spec.replicas), not shown
compared with main: 1 to create, 5 to update (3 only in KubeVela's bookkeeping labels, 1 only in ignored fields), 0 to delete, 0 unchanged
`
	if diff := cmp.Diff(want, text.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
	text.Reset()
	if err := DiffText(&text, noisyPlan(), "main", DiffOptions{ShowBookkeeping: true}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"~ update Service web", "~ update ConfigMap web", "~ update Service db", "application ns/web: 2 objects differ only"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("ShowBookkeeping: no %q in\n%s", s, text.String())
		}
	}
	if strings.Contains(text.String(), "update StatefulSet") {
		t.Errorf("ShowBookkeeping shows an ignored object:\n%s", text.String())
	}
	var md bytes.Buffer
	if err := DiffMarkdown(&md, noisyPlan(), "main", DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"| cluster | create | update | delete | bookkeeping only | ignored only |\n|---|---|---|---|---|---|\n| <code>local</code> | 0 | 3 | 0 | 1 | 1 |\n",
		"| (no application) | 1 | 0 | 0 | 0 | 0 |\n| <code>ns/db</code> | 0 | 2 | 0 | 1 | 1 |\n",
		"\n- application <code>ns/db</code>: 1 object differs only in KubeVela's bookkeeping labels (<code>app.oam.dev/appRevision: db-v1 → db-v2</code>)\n",
		"- 1 object differs only in ignored fields (--ignore <code>spec.replicas</code>), not shown\n",
	} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("markdown: no %q in\n%s", s, md.String())
		}
	}
	if n := strings.Count(md.String(), "<details>"); n != 2 {
		t.Errorf("markdown: %d object sections, want 2:\n%s", n, md.String())
	}
}

// TestBookkeepingLine: more than four keys are counted; annotations are
// named.
func TestBookkeepingLine(t *testing.T) {
	var keys []reconcile.KeyChange
	for i := range 6 {
		keys = append(keys, reconcile.KeyChange{Key: fmt.Sprint("k", i), From: "a", To: "b", FromSet: true, ToSet: true})
	}
	keys[5].Annotation = true
	got := bookkeepingLine(reconcile.AppBookkeeping{App: "ns/a", Objects: 3, Keys: keys}, "ns/a", func(s string) string { return s })
	want := "application ns/a: 3 objects differ only in KubeVela's bookkeeping labels and annotations (k0: a → b, k1: a → b, k2: a → b, k3: a → b, and 2 more)"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestDiffTextColour: with Colour, headings are bold, removed lines red,
// added green, hunks cyan; the escape sequences of an input stay
// visible text.
func TestDiffTextColour(t *testing.T) {
	var out bytes.Buffer
	if err := DiffText(&out, hostilePlan(), "main", DiffOptions{Colour: true}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"\x1b[1mcluster local|`x`\x1b[0m\n", "        \x1b[31m-a: 1\x1b[0m\n", "        \x1b[32m+a: \"```\\e[2J\"\x1b[0m\n",
		"        \x1b[36m@@ -1 +1 @@\x1b[0m\n", "        \x1b[1m--- base/local/ns/k_web.yaml\x1b[0m\n", `\x1b[31m`} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("no %q in\n%q", s, out.String())
		}
	}
	if strings.Contains(out.String(), "\x1b]") || strings.Contains(out.String(), "\x07") {
		t.Errorf("an input's escape sequence reached the output:\n%q", out.String())
	}
	out.Reset()
	if err := DiffGitHub(&out, hostilePlan(), "main", DiffOptions{Colour: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("github output coloured:\n%q", out.String())
	}
}

// TestDiffMarkdownCapped: a capped Markdown diff keeps the summary, the
// tables and the bookkeeping lines, leaves out the object diffs and says
// so.
func TestDiffMarkdownCapped(t *testing.T) {
	p := noisyPlan()
	var whole, capped bytes.Buffer
	if err := DiffMarkdown(&whole, p, "main", DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	limit := strings.Index(whole.String(), "\n#### cluster") + 400
	if err := DiffMarkdown(&capped, p, "main", DiffOptions{MaxSize: limit, WholeReport: "<code>diff.md</code>"}); err != nil {
		t.Fatal(err)
	}
	got := capped.String()
	if len(got) > limit || !strings.HasPrefix(whole.String(), got[:strings.Index(got, "\n---\n")]) {
		t.Errorf("capped at %d: %d bytes, not a prefix of the whole:\n%s", limit, len(got), got)
	}
	if !strings.Contains(got, "**Cut to fit ") || !strings.Contains(got, "left out 2 object diffs of 1 application. The whole report: <code>diff.md</code>.") {
		t.Errorf("notice:\n%s", got)
	}
	if !strings.Contains(got, "- application <code>ns/web</code>: 2 objects differ") {
		t.Errorf("bookkeeping line left out:\n%s", got)
	}
}

// TestStepSummaryCapped: the job summary of drydock test keeps within
// its limit, the suites' table whole, and counts the findings left out.
func TestStepSummaryCapped(t *testing.T) {
	r := &check.Result{Suites: []*check.SuiteResult{{Name: "big", Objects: 1}}}
	for i := range 2000 {
		r.Suites[0].Findings = append(r.Suites[0].Findings, check.Finding{Level: check.LevelError, Check: "rules/x", Message: fmt.Sprintf("finding %d %s", i, strings.Repeat("é", 40))})
	}
	var out bytes.Buffer
	if err := StepSummary(&out, r, 50000); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if len(got) > 50000 || !utf8.ValidString(got) || !strings.HasPrefix(got, "## drydock test\n\n| suite |") || !strings.Contains(got, "- **error** <code>rules/x</code> finding 0 ") {
		t.Errorf("%d bytes:\n%.500s", len(got), got)
	}
	if !strings.Contains(got, " findings. The whole report: this step's log, which holds every finding.\n") {
		t.Errorf("notice:\n%s", got[len(got)-300:])
	}
}
