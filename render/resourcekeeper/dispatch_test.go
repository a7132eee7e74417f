package resourcekeeper

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// KubeVela's TestShare (pkg/utils/apply/share_test.go) for AddSharer.
func TestAddSharer(t *testing.T) {
	for _, tc := range []struct{ sharedBy, want string }{
		{"", "test/app"},
		{"test/app,x/y", "test/app,x/y"},
		{"x/y", "x/y,test/app"},
		{"x/y,,a/b", "x/y,a/b,test/app"},
	} {
		if got := addSharer(tc.sharedBy, "test/app"); got != tc.want {
			t.Errorf("addSharer(%q) = %q, want %q", tc.sharedBy, got, tc.want)
		}
	}
}

// cm is ConfigMap cm in namespace default with data v, labelled as
// application app ("namespace/name", "" for none) renders it.
func cm(app, v string) *manifest.Object {
	md := map[string]any{"name": "cm", "namespace": "default"}
	if app != "" {
		ns, name, _ := cut(app)
		md["labels"] = map[string]any{"app.oam.dev/name": name, "app.oam.dev/namespace": ns}
	}
	return manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": md, "data": map[string]any{"v": v}})
}

func cut(app string) (ns, name string, ok bool) {
	for i := range app {
		if app[i] == '/' {
			return app[:i], app[i+1:], true
		}
	}
	return "", app, false
}

// write is one application's write in a dispatch scenario.
type write struct {
	app string
	o   *manifest.Object
	res *Resources
}

var (
	all      = ResourcePolicyRuleSelector{ResourceTypes: []string{"ConfigMap"}}
	share    = &Resources{SharedResource: &SharedResourcePolicySpec{Rules: []SharedResourcePolicyRule{{Selector: all}}}}
	takeOver = &Resources{TakeOver: &TakeOverPolicySpec{Rules: []TakeOverPolicyRule{{Selector: all}}}}
	readOnly = &Resources{ReadOnly: &ReadOnlyPolicySpec{Rules: []ReadOnlyPolicyRule{{Selector: all}}}}
)

// TestDispatch plays writes through a keeper over observed objects and
// compares what each returned and the object the cluster holds after.
func TestDispatch(t *testing.T) {
	versioned := cm("", "observed")
	manifest.SetNested(versioned.Data, "1", "metadata", "resourceVersion")
	tests := []dispatchCase{
		{name: "a new object", writes: []write{{"default/a", cm("default/a", "1"), &Resources{}}},
			want: []string{"written"}, wantData: "1"},
		{name: "its own object again", writes: []write{{"default/a", cm("default/a", "1"), &Resources{}}, {"default/a", cm("default/a", "2"), &Resources{}}},
			want: []string{"written", "written"}, wantData: "2"},
		{name: "another application's", writes: []write{{"default/a", cm("default/a", "1"), &Resources{}}, {"default/b", cm("default/b", "2"), &Resources{}}},
			want: []string{"written", `cluster local: existing object ConfigMap default/cm is managed by other application default/a (a.yaml:1:1): conflicting objects`}, wantData: "1"},
		{name: "read-only and missing", writes: []write{{"default/a", cm("default/a", "1"), readOnly}},
			want: []string{"cluster local: ConfigMap (cm) is marked as read-only but does not exist. You should check the existence of the resource or remove the read-only policy"}},
		{name: "read-only and observed", observed: cm("", "observed"), writes: []write{{"default/a", cm("default/a", "1"), readOnly}},
			want: []string{"skipped"}, wantData: "observed"},
		{name: "observed without resourceVersion", observed: cm("", "observed"), writes: []write{{"default/a", cm("default/a", "1"), &Resources{}}},
			want: []string{"written"}, wantData: "1"},
		{name: "observed with resourceVersion", observed: versioned, writes: []write{{"default/a", cm("default/a", "1"), &Resources{}}},
			want: []string{"cluster local: ConfigMap default/cm exists but not managed by any application now: conflicting objects; a take-over policy would let the application own it"}, wantData: "observed"},
		{name: "taken over", observed: versioned, writes: []write{{"default/a", cm("default/a", "1"), takeOver}},
			want: []string{"written"}, wantData: "1"},
		{name: "observed and controlled by another", observed: cm("default/x", "observed"), writes: []write{{"default/a", cm("default/a", "1"), &Resources{}}},
			want: []string{`cluster local: existing object ConfigMap default/cm is managed by other application default/x: conflicting objects`}, wantData: "observed"},
		{name: "shared", writes: []write{{"default/a", cm("default/a", "1"), share}, {"default/b", cm("default/b", "2"), share}, {"default/b", cm("default/b", "3"), share}},
			want: []string{"written", "written", "written"}, wantData: "1", sharedBy: "default/a,default/b"},
		{name: "shared by the owner again", writes: []write{{"default/a", cm("default/a", "1"), share}, {"default/a", cm("default/a", "2"), &Resources{}}},
			want: []string{"written", "written"}, wantData: "2"},
		{name: "not sharable", writes: []write{{"default/a", cm("default/a", "1"), &Resources{}}, {"default/b", cm("default/b", "2"), share}},
			want: []string{"written", "cluster local: ConfigMap default/cm: application is controlled by default/a but is not sharable (a.yaml:1:1): conflicting objects; a shared-resource policy of its owner would share it"}, wantData: "1"},
	}
	// Each case twice: with decoded entries, and with the writes as Lazy
	// entries (a render cache hit's: located by their origin), which
	// Dispatch decodes only when it must look at a policy or at what is
	// there, with the same outcome.
	for _, lazy := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/lazy=%t", tt.name, lazy), func(t *testing.T) { testDispatch(t, tt, lazy) })
		}
	}
}

type dispatchCase struct {
	name     string
	observed *manifest.Object
	writes   []write
	want     []string // per write: "written", "skipped" or the error
	wantData string   // data.v in the cluster after
	sharedBy string   // its shared-by annotation after
}

func testDispatch(t *testing.T, tt dispatchCase, lazy bool) {
	before, out := cluster.NewStore(), cluster.NewStore()
	if tt.observed != nil {
		e := cluster.Entry{Object: tt.observed}
		if err := before.Apply("local", e); err != nil {
			t.Fatal(err)
		}
		if err := out.Apply("local", e); err != nil {
			t.Fatal(err)
		}
	}
	k := New(out, before)
	var got []string
	decodes := 0
	for _, w := range tt.writes {
		at := manifest.Pos{File: "a.yaml", Line: 1, Col: 1}
		o := manifest.New(manifest.DeepCopy(w.o.Data).(map[string]any))
		e := cluster.Entry{Object: o, Owner: cluster.ApplicationOwner(w.app), Origin: cluster.Origin{Application: w.app}}
		if lazy && Lazily(o) {
			e.Object, e.Origin.Pos = nil, at
			e.Lazy = &cluster.Lazy{APIVersion: o.APIVersion(), Key: o.Key(), Decode: func(*cluster.Lazy) *manifest.Object { decodes++; return o }}
		} else {
			o.Pos = at
		}
		written, err := k.Dispatch("local", e, w.app, w.res)
		switch {
		case err != nil:
			got = append(got, errMessage(err))
		case written:
			got = append(got, "written")
		default:
			got = append(got, "skipped")
		}
	}
	if diff := cmp.Diff(tt.want, got); diff != "" {
		t.Errorf("dispatch (-want +got):\n%s", diff)
	}
	e, _ := out.Get("local", cm("", "").Key())
	data, sharedBy := "", ""
	if e.Object != nil {
		data, sharedBy = manifest.String(e.Object.Data, "data", "v"), manifest.String(e.Object.Data, "metadata", "annotations", "app.oam.dev/shared-by")
	}
	if data != tt.wantData || sharedBy != tt.sharedBy {
		t.Errorf("cluster holds v=%q shared-by=%q, want %q, %q", data, sharedBy, tt.wantData, tt.sharedBy)
	}
	if decodes > len(tt.writes) {
		t.Errorf("%d decodes of %d writes", decodes, len(tt.writes))
	}
}

// errMessage is a manifest.Error's message without its position.
func errMessage(err error) string {
	var me *manifest.Error
	if errors.As(err, &me) {
		return manifest.Format(me.Err, nil)
	}
	return manifest.Format(err, nil)
}

// TestSharerProvenance: the shared-by annotation a sharer adds is
// recorded as KubeVela's; an object without provenance gets none.
func TestSharerProvenance(t *testing.T) {
	o := cm("default/a", "1")
	if p := sharerProvenance(o, o, "default/b"); p != nil {
		t.Errorf("no provenance: got %v", p)
	}
	o.Provenance = manifest.Provenance{}
	shared := manifest.New(manifest.DeepCopy(o.Data).(map[string]any))
	manifest.SetNested(shared.Data, "default/b", "metadata", "annotations", "app.oam.dev/shared-by")
	p := sharerProvenance(o, shared, "default/b")
	if len(p) == 0 {
		t.Fatalf("no provenance recorded")
	}
	for path, origins := range p {
		if len(origins) == 0 || origins[len(origins)-1].Detail != "shared-resource policy of application default/b" {
			t.Errorf("%s: %v", path, origins)
		}
	}
}
