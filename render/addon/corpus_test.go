package addon

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// corpusDir holds the conformance cases produced by KubeVela's own addon
// code (see its README).
const corpusDir = "../../../shared/conformance/addons/cases"

// corpusSkip lists cases that cannot pass, with the reason. It is printed.
var corpusSkip = map[string]string{}

// TestCorpus renders every conformance case and compares the objects
// applied to `local` and the NOTES text with what KubeVela produced.
func TestCorpus(t *testing.T) {
	entries, err := os.ReadDir(corpusDir)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no conformance corpus at %s", corpusDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	passed, failed := 0, 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		if reason, ok := corpusSkip[name]; ok {
			t.Logf("skip %s: %s", name, reason)
			continue
		}
		if t.Run(name, func(t *testing.T) { runCase(t, filepath.Join(corpusDir, name)) }) {
			passed++
		} else {
			failed++
		}
	}
	t.Logf("addon conformance: %d passed, %d failed", passed, failed)
}

func runCase(t *testing.T, dir string) {
	cmdLine, err := os.ReadFile(filepath.Join(dir, "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	words, err := shellWords(strings.TrimSpace(string(cmdLine)))
	if err != nil {
		t.Fatal(err)
	}
	addonDir, opts, err := parseCmd(dir, words)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Render(os.DirFS(addonDir), opts)
	if want, rerr := os.ReadFile(filepath.Join(dir, "expected-error")); rerr == nil {
		substr := strings.TrimSpace(string(want))
		if err == nil || !strings.Contains(err.Error(), substr) {
			t.Fatalf("want an error containing %q, got %v", substr, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(expectedObjects(t, dir), gotObjects(t, res.Objects)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	wantNotes, rerr := os.ReadFile(filepath.Join(dir, "expected-notes.txt"))
	if rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		t.Fatal(rerr)
	}
	if diff := cmp.Diff(string(wantNotes), res.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

// parseCmd interprets `addon render DIR [--set K=V]... [--clusters FILE]
// [--registry REGDIR]` with paths relative to the case directory.
func parseCmd(dir string, words []string) (string, Options, error) {
	var opts Options
	if len(words) < 3 || words[0] != "addon" || words[1] != "render" {
		return "", opts, fmt.Errorf("unexpected command %q", words)
	}
	addonDir := filepath.Join(dir, words[2])
	var sets []string
	for i := 3; i < len(words); i++ {
		if i+1 >= len(words) {
			return "", opts, fmt.Errorf("flag %s needs a value", words[i])
		}
		val := words[i+1]
		switch words[i] {
		case "--set":
			sets = append(sets, val)
		case "--clusters":
			cs, err := clusterNames(filepath.Join(dir, val))
			if err != nil {
				return "", opts, err
			}
			opts.Clusters = cs
		case "--registry":
			reg := filepath.Join(dir, val)
			opts.Registry, opts.RegistryName = os.DirFS(reg), filepath.Base(reg)
		default:
			return "", opts, fmt.Errorf("unknown flag %s", words[i])
		}
		i++
	}
	params, err := ParseSet(sets)
	if err != nil {
		return "", opts, err
	}
	if len(sets) > 0 {
		opts.Params = params
	}
	return addonDir, opts, nil
}

func clusterNames(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	objs, err := manifest.Decode(file, data, manifest.DecodeOptions{})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, o := range objs {
		if o.Kind() == "Cluster" {
			out = append(out, o.Name())
		}
	}
	return out, nil
}

// objectKey identifies an object in the comparison.
func objectKey(m map[string]any) string {
	return strings.Join([]string{
		manifest.String(m, "apiVersion"), manifest.String(m, "kind"),
		manifest.String(m, "metadata", "namespace"), manifest.String(m, "metadata", "name"),
	}, "/")
}

func expectedObjects(t *testing.T, dir string) map[string]any {
	out := map[string]any{}
	root := filepath.Join(dir, "expected", "local")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var m map[string]any
		if err := yaml.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		out[objectKey(m)] = normalize(m)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func gotObjects(t *testing.T, objs []*manifest.Object) map[string]any {
	out := map[string]any{}
	for _, o := range objs {
		js, err := json.Marshal(o.Data)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(js, &m); err != nil {
			t.Fatal(err)
		}
		key := objectKey(m)
		if _, dup := out[key]; dup {
			t.Errorf("object %s rendered twice", key)
		}
		out[key] = normalize(m)
	}
	return out
}

// normalize drops the fields the corpus README lists as normalised away.
func normalize(m map[string]any) map[string]any {
	if s, ok := m["status"].(map[string]any); ok && len(s) == 0 {
		delete(m, "status")
	}
	md, _ := m["metadata"].(map[string]any)
	if md == nil {
		return m
	}
	if ts, ok := md["creationTimestamp"]; ok && ts == nil {
		delete(md, "creationTimestamp")
	}
	delete(md, "ownerReferences")
	delete(md, "resourceVersion")
	if ann, ok := md["annotations"].(map[string]any); ok && m["kind"] == "Application" {
		if _, ok := ann["app.oam.dev/publishVersion"]; ok {
			delete(ann, "app.oam.dev/publishVersion")
			if len(ann) == 0 {
				delete(md, "annotations")
			}
		}
	}
	return m
}

// shellWords splits a POSIX shell command line into words: single quotes,
// double quotes (with \ escaping " \ $ ` and newline) and backslash escapes.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			end, err := doubleQuoted(s, i+1, &cur)
			if err != nil {
				return nil, err
			}
			i = end
			inWord = true
		case c == '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					cur.WriteByte(s[i])
				}
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// doubleQuoted reads a double-quoted string starting after the quote and
// returns the index of the closing quote.
func doubleQuoted(s string, i int, cur *strings.Builder) (int, error) {
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i, nil
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0:
			i++
			if s[i] != '\n' {
				cur.WriteByte(s[i])
			}
		default:
			cur.WriteByte(c)
		}
	}
	return 0, fmt.Errorf("unterminated double quote in %q", s)
}
