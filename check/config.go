package check

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/reconcile"
)

// Config is drydock.yaml: the suites `drydock test` runs. The json tags
// are the keys of the file.
type Config struct {
	// Suites are the suites, each rendered and checked on its own; their
	// names are unique.
	Suites []Suite `json:"suites"`
	// Limits bound evaluation in every suite; a caller's own settings
	// (drydock test's flags) may replace them.
	Limits Limits `json:"limits,omitempty"`
	// Diff is how `drydock diff` compares.
	Diff DiffConfig `json:"diff,omitempty"`
	// File is the configuration file as LoadConfig was given it.
	File string `json:"-"`
	// Dir is the directory a suite's relative paths are joined to: the
	// configuration file's.
	Dir string `json:"-"`
}

// Limits are drydock.yaml's limits as written: durations as Go writes
// them (30s, 2m), sizes as 512MiB or 8GiB. "" is not set.
type Limits struct {
	// EvalTimeout is the time limit of each CUE evaluation (a definition
	// template, an expression, an addon), as --eval-timeout.
	EvalTimeout string `json:"evalTimeout,omitempty"`
	// RuleTimeout is the time limit of each policy namespace's (and
	// Gatekeeper template's) evaluation on one object, as --rule-timeout.
	RuleTimeout string `json:"ruleTimeout,omitempty"`
	// Memory is the memory limit of the process while it evaluates, as
	// --memory-limit.
	Memory string `json:"memory,omitempty"`
}

// Suite is one suite: what to render and what to check it against.
// Paths are relative to Config.Dir.
type Suite struct {
	// Name names the suite in reports and for --suite.
	Name string `json:"name"`
	// Inputs are the files or directories rendered (Applications,
	// definitions, Karmada policies and templates, plain manifests), as
	// render's PATHs; required, except in a suite of addons alone.
	Inputs []string `json:"inputs"`
	// Definitions are files or directories of X-Definitions (YAML or
	// `vela def` CUE) that replace the built-in ones of the same name, as
	// render -d.
	Definitions []string `json:"definitions,omitempty"`
	// Clusters are files of Karmada Cluster objects: the cluster
	// inventory, as render --clusters.
	Clusters []string `json:"clusters,omitempty"`
	// ClustersFromInputs makes the Karmada Cluster objects found among
	// the inputs join the inventory (render --clusters-from-inputs);
	// without it they are left out, each named in a warning.
	ClustersFromInputs bool `json:"clustersFromInputs,omitempty"`
	// Observed are objects already in the clusters (their cluster from
	// their app.oam.dev/cluster label, else local), as render --observed.
	Observed []string `json:"observed,omitempty"`
	// Charts are the chart cache HelmReleases render from, as render
	// --charts: chart directories, packaged .tgz charts, Helm repository
	// caches (index.yaml beside its packages), OCI layouts, or
	// directories holding them. Nothing is downloaded: a chart missing
	// here is an error naming it and the command that would vendor it.
	Charts []string `json:"charts,omitempty"`
	// Sources map Flux sources (a GitRepository, OCIRepository or
	// Bucket's name, namespace/name or URL) to the directories holding
	// their contents, as render --source NAME=DIR: what Kustomizations
	// and charts from Git sources are built from.
	Sources map[string]string `json:"sources,omitempty"`
	// NoBuiltins leaves drydock's built-in definitions out, as render
	// --no-builtins.
	NoBuiltins bool `json:"noBuiltins,omitempty"`
	// StopAtSuspend stops each workflow at its first suspend step instead
	// of taking it as resumed, as render --stop-at-suspend.
	StopAtSuspend bool `json:"stopAtSuspend,omitempty"`
	// Golden is the committed tree the render must match ("" skips it).
	Golden string `json:"golden,omitempty"`
	// Policies are directories of .rego files (default: policy/ when it
	// exists in Config.Dir).
	Policies []string `json:"policies,omitempty"`
	// Data are JSON or YAML files (or directories of them) the policies
	// read under data, as conftest --data.
	Data []string `json:"data,omitempty"`
	// Namespaces are the Rego packages whose rules run (globs such as
	// main.*), as conftest --namespace (default: main).
	Namespaces []string `json:"namespaces,omitempty"`
	// AllNamespaces runs the rules of every package, as conftest
	// --all-namespaces.
	AllNamespaces bool `json:"allNamespaces,omitempty"`
	// Combine gives the rules every object of the render at once, as
	// conftest --combine.
	Combine bool `json:"combine,omitempty"`
	// RegoVersion is "v0", "v1" or "" (v1).
	RegoVersion string `json:"regoVersion,omitempty"`
	// StrictBuiltinErrors makes a failing built-in in a policy an error
	// (conftest --show-builtin-errors); by default the rule does not fire
	// for that object.
	StrictBuiltinErrors bool `json:"strictBuiltinErrors,omitempty"`
	// Capabilities is an OPA capabilities file limiting what the
	// policies may use (conftest --capabilities).
	Capabilities string `json:"capabilities,omitempty"`
	// Now is the time the policies see, RFC 3339 (2026-01-02T15:04:05Z):
	// it makes time.now_ns available and every run alike. "": the
	// policies have no clock.
	Now string `json:"now,omitempty"`
	// Gatekeeper are files or directories of Gatekeeper
	// ConstraintTemplates and Constraints, evaluated against every object
	// of every cluster, data.inventory being that cluster's objects.
	Gatekeeper []string `json:"gatekeeper,omitempty"`
	// EnableK8sNativeValidation, false, leaves the Gatekeeper templates'
	// K8sNativeValidation (CEL) code out, as gator
	// --enable-k8s-native-validation=false: templates are evaluated with
	// their Rego (nil: true).
	EnableK8sNativeValidation *bool `json:"enableK8sNativeValidation,omitempty"`
	// GatekeeperEmptyNamespace matches the objects with the Gatekeeper
	// constraints as gator test does: an object without a namespace is
	// in an empty Namespace, one of namespace default in an unlabeled
	// default when the objects have none (gatekeeper.Options.EmptyNamespace).
	// Without it, as gator verify and Gatekeeper's audit, they are in none.
	GatekeeperEmptyNamespace bool `json:"gatekeeperEmptyNamespace,omitempty"`
	// Plain makes the inputs plain manifests, checked as they are, as
	// conftest checks them: nothing is rendered, compared with a golden
	// tree or validated; each YAML or JSON document is one object for the
	// rules.
	Plain bool `json:"plain,omitempty"`
	// ListItems gives the rules the items of a plain suite's `kind: List`
	// documents one by one instead of the List as one document.
	ListItems bool `json:"listItems,omitempty"`
	// Parser parses every input file of a plain suite with one of
	// conftest's parsers (conftest --parser; parsers.Names); "": each
	// file's own, by its name.
	Parser string `json:"parser,omitempty"`
	// IgnorePattern is a regular expression: a plain suite's input files
	// whose paths it matches are not read (conftest --ignore).
	IgnorePattern string `json:"ignorePattern,omitempty"`
	// Strict turns the suite's doubts into errors: a render of no
	// object, a custom resource without a schema, and Rego that OPA's
	// strict mode refuses (unused variables and imports, deprecated
	// built-ins), as conftest --strict.
	Strict bool `json:"strict,omitempty"`
	// Validate checks every rendered object as the API server of its
	// cluster would (nil: true; false opts out).
	Validate *bool `json:"validate,omitempty"`
	// KubeVersion is the Kubernetes version of clusters whose inventory
	// gives none: their context.clusterVersion (default: unknown) and the
	// schemas validating their objects (default: the newest embedded).
	KubeVersion string `json:"kubeVersion,omitempty"`
	// CRDs are files or directories of CustomResourceDefinitions that
	// validate custom resources.
	CRDs []string `json:"crds,omitempty"`
	// Ignore are fields the golden comparison leaves out.
	Ignore []Ignore `json:"ignore,omitempty"`
	// Tests are definition test files, or directories holding
	// *_test.yaml files; *_test.yaml files under Definitions run too.
	Tests []string `json:"tests,omitempty"`
	// Addons are installed before the suite renders, as with
	// render --addon: their definitions serve the Applications.
	Addons []SuiteAddon `json:"addons,omitempty"`
	// Exclude are glob patterns of files the inputs' directories hold
	// that are not inputs ("examples/*", "*.tmpl.yaml").
	Exclude []string `json:"exclude,omitempty"`
	// FieldValidation is what becomes of fields the CRDs of the inputs'
	// Applications, Policies, Workflows and definitions do not declare:
	// "strict" (or ""; errors, as kubectl's default --validate=strict),
	// "warn" (dropped, with a warning) or "ignore" (dropped).
	FieldValidation string `json:"fieldValidation,omitempty"`
	// CompareRevisionHash compares the app.oam.dev/app-revision-hash
	// label too (drydock's stand-in for KubeVela's hash changes with every
	// spec change, so by default it is left out).
	CompareRevisionHash bool `json:"compareRevisionHash,omitempty"`
}

// SuiteAddon is an addon directory and its parameters, as `drydock
// addon render` takes them: values, then set, then setString (a later one
// wins), checked and typed by the addon's parameter schema.
type SuiteAddon struct {
	// Dir is the addon's directory (metadata.yaml, template.cue or
	// template.yaml, resources/, definitions/).
	Dir string `json:"dir"`
	// Set are K=V arguments (--set): a.b=v nests, a={x,y} is a list;
	// each value is typed by the parameter it sets (a string parameter
	// takes 40 as "40").
	Set []string `json:"set,omitempty"`
	// SetString are K=V arguments whose values are strings
	// (--set-string).
	SetString []string `json:"setString,omitempty"`
	// Values are parameters as written in YAML (--values), under set
	// and setString.
	Values map[string]any `json:"values,omitempty"`
	// at locates a field of the entry in the file (nil: not loaded from
	// one).
	at func(fieldpath.Path) manifest.Pos
}

// locateAddons lets each addon entry of cfg locate its fields in doc: a
// key where it is written, a list item where it starts.
func locateAddons(doc *manifest.Object, cfg *Config) {
	for i := range cfg.Suites {
		for j := range cfg.Suites[i].Addons {
			entry := fieldpath.New("suites", i, "addons", j)
			cfg.Suites[i].Addons[j].at = func(p fieldpath.Path) manifest.Pos { return doc.KeyPos(entry.Join(p)) }
		}
	}
}

// Ignore is a field the golden comparison leaves out: a field path
// (spec.replicas, metadata.labels[app.kubernetes.io/version]) in every
// object, or only in those of a kind and/or a cluster.
type Ignore struct {
	// Path is the field path left out (spec.replicas,
	// metadata.labels[app.kubernetes.io/version]).
	Path string `json:"path"`
	// Kind limits it to the objects of this kind ("": every kind).
	Kind string `json:"kind,omitempty"`
	// Cluster limits it to the objects of this cluster ("": every
	// cluster).
	Cluster string `json:"cluster,omitempty"`
}

// LoadConfig reads the configuration file at path strictly: an unknown
// key is an error, so a typo cannot silently switch a check off. It
// refuses a config without suites, with a nameless or duplicate suite, a
// suite without inputs, an unknown Rego version or limits that do not
// parse, and paths that are absolute, lead outside the repository holding
// the config, do not exist (golden excepted), or let a golden directory
// hold another path (see the package's confinement rules). Every error
// about the file's content starts with the file:line:col of what it is
// about; an unreadable file is "--config <reason>".
func LoadConfig(path string) (*Config, error) {
	data, err := manifest.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--config %w", err)
	}
	cfg, doc, err := parseConfig(path, data)
	if err != nil {
		return nil, err
	}
	if err := checkConfigPaths(path, doc, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// ParseConfig reads a configuration file's content, data, as LoadConfig
// reads the file at path, but checks only what the content says, not
// the paths it names: it is how a configuration is read from elsewhere
// than the work tree (a git revision's, by drydock diff --base). Its
// errors start with path's file:line:col; Config.File is path and
// Config.Dir its directory.
func ParseConfig(path string, data []byte) (*Config, error) {
	cfg, _, err := parseConfig(path, data)
	return cfg, err
}

func parseConfig(path string, data []byte) (*Config, *manifest.Object, error) {
	doc, err := configDocument(path, data)
	if err != nil {
		return nil, nil, err
	}
	cfg := Config{File: path, Dir: filepath.Dir(path)}
	d := configDecoder{doc: doc}
	if err := d.value(nil, doc.Data, reflect.ValueOf(&cfg).Elem()); err != nil {
		return nil, nil, err
	}
	if err := d.check(&cfg); err != nil {
		return nil, nil, err
	}
	if err := d.checkDiff(cfg.Diff); err != nil {
		return nil, nil, err
	}
	locateAddons(doc, &cfg)
	return &cfg, doc, nil
}

// DiffConfig is drydock.yaml's diff: what `drydock diff` does not count
// as a change.
type DiffConfig struct {
	// Ignore are the fields diff does not count as changes: field paths
	// (a `*` segment matches any key or index, a path covers what is
	// below it), each optionally scoped to a kind (`Deployment:` or
	// `Deployment.apps:`); --ignore adds to them.
	Ignore []string `json:"ignore,omitempty"`
}

// checkDiff checks that every diff.ignore rule parses.
func (d configDecoder) checkDiff(c DiffConfig) error {
	for i, r := range c.Ignore {
		if _, err := reconcile.ParseIgnore(r); err != nil {
			return manifest.At(d.doc.FieldPos(fieldpath.New("diff", "ignore", i)), "diff.%w", err)
		}
	}
	return nil
}

// GoldenDirs are the golden directories of c's suites, joined to c.Dir:
// no suite reads them as input (Run skips them; a caller that leaves
// suites out of Suites passes theirs in Options.Skip).
func (c *Config) GoldenDirs() []string {
	var out []string
	for _, s := range c.Suites {
		if s.Golden != "" {
			out = append(out, filepath.Join(c.Dir, s.Golden))
		}
	}
	return out
}

// Durations returns EvalTimeout and RuleTimeout parsed; one not set is 0.
// The limits of a loaded Config always parse.
func (l Limits) Durations() (eval, rule time.Duration, err error) {
	if eval, err = parseDuration("evalTimeout", l.EvalTimeout, "30s or 2m"); err != nil {
		return 0, 0, err
	}
	if rule, err = parseDuration("ruleTimeout", l.RuleTimeout, "10s or 1m"); err != nil {
		return 0, 0, err
	}
	return eval, rule, nil
}

// parseDuration reads the limit key ("" is 0).
func parseDuration(key, value, example string) (time.Duration, error) {
	if value == "" {
		return 0, nil
	}
	v, err := time.ParseDuration(value)
	if err != nil {
		return 0, fmt.Errorf("limits.%s %q: want a duration such as %s", key, value, example)
	}
	return v, nil
}

// ParseSize reads a size: a whole number of bytes, optionally followed by
// KiB, MiB, GiB or TiB (or Ki, Mi, Gi, Ti, as Kubernetes writes them, or
// B); spaces around the number are ignored. It refuses anything else and
// sizes past 2^63-1 bytes.
func ParseSize(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"Ti", 40}, {"Gi", 30}, {"Mi", 20}, {"Ki", 10}, {"B", 0}}
	shift := uint(0)
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			s, shift = n, u.shift
			break
		}
	}
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil || n > (1<<63-1)>>shift {
		return 0, fmt.Errorf("want a size such as 512MiB or 4GiB")
	}
	return n << shift, nil
}

// Reads reports whether suite s (of a config in dir) reads file: it is,
// or is under, one of its inputs, definitions, inventory, observed
// objects, CRDs, policies, data, tests, addons or golden tree. Paths are
// compared absolute.
func (s Suite) Reads(dir, file string) bool {
	f, err := filepath.Abs(file)
	if err != nil {
		return false
	}
	roots := []string{s.Golden}
	for _, list := range s.pathFields() {
		roots = append(roots, list...)
	}
	for _, p := range roots {
		if p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if root, err := filepath.Abs(p); err == nil && manifest.Within(root, f) {
			return true
		}
	}
	return false
}

// pathFields are the suite's paths that must exist, by their key in
// drydock.yaml (all but golden, which --update creates).
func (s Suite) pathFields() map[string][]string {
	return map[string][]string{"inputs": s.Inputs, "definitions": s.Definitions, "clusters": s.Clusters,
		"observed": s.Observed, "policies": s.Policies, "data": dataFilePaths(s.Data), "crds": s.CRDs, "tests": s.Tests, "addons": addonDirs(s.Addons),
		"capabilities": nonEmpty(s.Capabilities), "gatekeeper": s.Gatekeeper,
		"charts": s.Charts, "sources": sourceDirs(s.Sources)}
}

// sourceDirs are the directories of sources, in name order.
func sourceDirs(sources map[string]string) []string {
	var out []string
	for _, name := range manifest.SortedKeys(sources) {
		out = append(out, sources[name])
	}
	return out
}

// nonEmpty is p as a list: none when p is "".
func nonEmpty(p string) []string {
	if p == "" {
		return nil
	}
	return []string{p}
}

// ParseNow reads a suite's (or --now's) time: RFC 3339; "" is the zero
// time (no clock).
func ParseNow(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("want an RFC 3339 time such as 2026-01-02T15:04:05Z")
	}
	return t, nil
}

// FindConfig is the configuration file to read when none is named: name
// in the working directory, else in its nearest parent holding one, up
// to the repository root (manifest.RepoRoot: the nearest directory with
// a .git entry; never above it, and outside a repository the working
// directory only). The path is relative to the working directory
// ("drydock.yaml", "../../drydock.yaml"), so Config.Dir keeps the
// suites' paths relative to the file's directory. When no directory
// holds one the error is LoadConfig's for name, saying where it looked.
func FindConfig(name string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("--config %s: %w", name, err)
	}
	root := manifest.RepoRoot(wd)
	var missing error
	for d := wd; ; d = filepath.Dir(d) {
		_, err := os.Stat(filepath.Join(d, name))
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			// Found, or there but unreadable: LoadConfig says why.
			rel, err := filepath.Rel(wd, d)
			if err != nil {
				return "", fmt.Errorf("--config %s: %w", name, err)
			}
			return filepath.Join(rel, name), nil
		}
		if missing == nil {
			missing = err
			if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
				missing = pe.Err
			}
		}
		if d == root || filepath.Dir(d) == d {
			break
		}
	}
	if root == wd {
		return "", fmt.Errorf("--config %s: %w", name, missing)
	}
	rel, _ := filepath.Rel(wd, root)
	return "", fmt.Errorf("--config %s: %w in the working directory or a parent up to the repository root %s", name, missing, rel)
}

// Suite is the suite called name. None: an error naming the file, its
// suites and the closest name, as --suite reports it.
func (c *Config) Suite(name string) (Suite, error) {
	var names []string
	for _, s := range c.Suites {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	msg := fmt.Sprintf("--suite %s: %s has no such suite (suites: %s)", name, c.File, strings.Join(names, ", "))
	if best := manifest.Closest(name, names); best != "" {
		msg += fmt.Sprintf("; did you mean %s?", best)
	}
	return Suite{}, errors.New(msg)
}
