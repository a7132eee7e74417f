package schemas

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

const (
	badDeployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: default}\nspec:\n  replicas: x\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n"
	goodConfigMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: default}\ndata: {a: b}\n"
	custom        = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec: {size: 1}\n"
	oamApp        = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a, namespace: default}\nspec: {components: []}\n"
)

// TestValidate: any object, as the API server of a version would see it.
func TestValidate(t *testing.T) {
	lax, err := NewValidator(ValidatorOptions{})
	if err != nil {
		t.Fatal(err)
	}
	strict, err := NewValidator(ValidatorOptions{Strict: true, KubeVersion: "v1.30.2"})
	if err != nil {
		t.Fatal(err)
	}
	noSchema := "no schema for example.com/v1 Widget: not validated (give its CustomResourceDefinition with --crds)"
	tests := []struct {
		name string
		v    *Validator
		doc  string
		want []Finding
	}{
		{"valid", lax, goodConfigMap, nil},
		{"invalid", lax, badDeployment, nil},
		{"drydock checks its own kinds", strict, oamApp, nil},
		{"no schema: a warning", lax, custom, []Finding{{Message: noSchema, Warning: true}}},
		{"no schema, strict: an error", strict, custom, []Finding{{Message: noSchema}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.v.Validate(decodeOne(t, tt.doc), "")
			if tt.name == "invalid" {
				if len(got) == 0 || got[0].Field != "spec.replicas" || got[0].Warning {
					t.Errorf("findings = %+v, want an error at spec.replicas", got)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
	if got := lax.Validate(decodeOne(t, goodConfigMap), "9.99"); len(got) != 1 || !got[0].Warning {
		t.Errorf("an unknown version: %+v, want one warning", got)
	}
}

// TestNewValidator: the version it validates as, and what it says of it.
func TestNewValidator(t *testing.T) {
	if _, err := NewValidator(ValidatorOptions{KubeVersion: "banana"}); err == nil {
		t.Errorf("a bad version: no error")
	}
	v, err := NewValidator(ValidatorOptions{KubeVersion: "1.2", KubeVersionName: "--kube-version"})
	if err != nil {
		t.Fatal(err)
	}
	oldest := KubeVersions()[0]
	if v.version != oldest || v.note == "" {
		t.Errorf("1.2: version %q note %q, want %q and a note", v.version, v.note, oldest)
	}
	if v, _ := NewValidator(ValidatorOptions{}); v.version != DefaultKubeVersion() || v.note != "" {
		t.Errorf("default: version %q note %q", v.version, v.note)
	}
}

// recorder is a cluster.Sink keeping the keys it was handed.
type recorder struct {
	got []string
	err error
}

func (r *recorder) Put(c string, e cluster.Entry) error {
	r.got = append(r.got, c+" "+e.Object.Key().String())
	return r.err
}

// TestStream: a stream of cluster objects validated per cluster version,
// later writes replacing earlier findings, observed objects skipped.
func TestStream(t *testing.T) {
	inv := cluster.NewInventory()
	for _, doc := range []string{
		"apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: old}\nstatus: {kubernetesVersion: v1.2.0}\n",
		"apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: odd}\nstatus: {kubernetesVersion: v2.1.0}\n",
		"apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: exact}\nstatus: {kubernetesVersion: v" + DefaultKubeVersion() + ".0}\n",
	} {
		if err := inv.Add(decodeOne(t, doc)); err != nil {
			t.Fatal(err)
		}
	}
	v, err := NewValidator(ValidatorOptions{KubeVersion: "1.2", KubeVersionName: "--kube-version"})
	if err != nil {
		t.Fatal(err)
	}
	next := &recorder{}
	s := v.Stream(inv, func(c string, o *manifest.Object) string { return c + "/" + o.Name() + ".yaml" })
	s.Next = next
	owned := func(doc string) cluster.Entry {
		return cluster.Entry{Object: decodeOne(t, doc), Owner: "application default/a", Origin: cluster.Origin{Application: "a"}}
	}
	puts := []struct {
		cluster string
		e       cluster.Entry
	}{
		{"local", owned(custom)},
		{"local", owned(custom)}, // replaces the first one's findings
		{"old", owned(custom)},
		{"odd", owned(goodConfigMap)},
		{"exact", owned(goodConfigMap)},
		{"exact", cluster.Entry{Object: decodeOne(t, custom)}}, // observed
		{"local", owned(badDeployment)},
	}
	for _, p := range puts {
		if err := s.Put(p.cluster, p.e); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, f := range s.Findings() {
		got = append(got, f.Cluster+" "+f.Path+" "+f.Field+" "+f.Pos.String())
	}
	want := []string{
		"local local/d.yaml spec.replicas in.yaml:5:13",
		"local local/w.yaml  in.yaml:1:1",
		"old old/w.yaml  in.yaml:1:1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	oldest := KubeVersions()[0]
	wantNotes := []string{
		"--kube-version: Kubernetes 1.2 is older than the oldest embedded API schemas; validated as " + oldest,
		"cluster old (in.yaml:1:1): Kubernetes v1.2.0 is older than the oldest embedded API schemas; validated as " + oldest,
		`cluster odd (in.yaml:1:1): version "v2.1.0" is not a Kubernetes version (want 1.MINOR or v1.MINOR.PATCH); validated as Kubernetes ` + DefaultKubeVersion(),
	}
	if diff := cmp.Diff(wantNotes, s.Notes()); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	if len(next.got) != len(puts) {
		t.Errorf("next got %d objects, want %d", len(next.got), len(puts))
	}
	next.err = errors.New("full")
	if err := s.Put("local", owned(goodConfigMap)); err == nil || manifest.Format(err, nil) != "full" {
		t.Errorf("the next sink's error: %v", err)
	}
	if err := v.Stream(nil, nil).Put("local", owned(custom)); err != nil {
		t.Errorf("no next sink: %v", err)
	}
}

// memo is a Memo that answers from kept, and records what it was asked.
type memo struct {
	kept  map[string][]Finding
	asked []string
}

func (m *memo) Findings(o *manifest.Object, version string, validate func() []Finding) []Finding {
	k := version + " " + o.Name()
	m.asked = append(m.asked, k)
	if fs, ok := m.kept[k]; ok {
		return fs
	}
	fs := validate()
	m.kept[k] = fs
	return fs
}

// Known knows nothing by content: the stream decodes a Lazy object and
// asks Findings.
func (m *memo) Known([32]byte, string) ([]Finding, bool) { return nil, false }

// TestStreamMemo: a stream with a Memo takes its findings from it (placed
// as its own would be) and validates only what it does not keep.
func TestStreamMemo(t *testing.T) {
	m := &memo{kept: map[string][]Finding{DefaultKubeVersion() + " cm": {{Field: "spec.replicas", Message: "kept"}}}}
	v, err := NewValidator(ValidatorOptions{Memo: m})
	if err != nil {
		t.Fatal(err)
	}
	s := v.Stream(nil, nil)
	for _, doc := range []string{goodConfigMap, badDeployment} {
		if err := s.Put("local", cluster.Entry{Object: decodeOne(t, doc), Owner: "o"}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, f := range s.Findings() {
		got = append(got, f.Key.Name+" "+f.Field+" "+f.Pos.String()+" "+f.Message)
	}
	want := []string{
		"cm spec.replicas in.yaml:1:1 kept",
		"d spec.replicas in.yaml:5:13 " + v.Validate(decodeOne(t, badDeployment), "")[0].Message,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{DefaultKubeVersion() + " cm", DefaultKubeVersion() + " d"}, m.asked); diff != "" {
		t.Errorf("asked (-want +got):\n%s", diff)
	}
	if _, ok := m.kept[DefaultKubeVersion()+" d"]; !ok {
		t.Error("the memo was not given the findings it did not keep")
	}
}

// TestObjectFindingString: position, subject, cluster and key, level,
// field, message.
func TestObjectFindingString(t *testing.T) {
	f := ObjectFinding{Cluster: "local", Key: decodeOne(t, goodConfigMap).Key(), Field: "data.a", Message: "bad", Warning: true,
		Pos: manifest.Pos{File: "a.yaml", Line: 2, Col: 3}, Origin: cluster.Origin{Application: "app"}}
	want := `a.yaml:2:3: application "app": cluster local: ConfigMap default/cm: warning: data.a: bad`
	if got := f.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := (ObjectFinding{Message: "m"}).String(); got != "m" {
		t.Errorf("bare: %q", got)
	}
}

// TestKubeFieldPath: the API server's index syntax becomes drydock's.
func TestKubeFieldPath(t *testing.T) {
	for in, want := range map[string]fieldpath.Path{"metadata.labels[app]": fieldpath.New("metadata", "labels", "app"), "spec.containers[0].image": fieldpath.New("spec", "containers", 0, "image"), "a[": nil} {
		if got := kubeFieldPath(in); !got.Equal(want) {
			t.Errorf("kubeFieldPath(%q) = %q, want %q", in, got, want)
		}
	}
}
