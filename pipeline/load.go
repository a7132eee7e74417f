package pipeline

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/schemas"
	"github.com/drydock-dev/drydock/tree"
)

// loaded is everything read from the inputs, by kind.
type loaded struct {
	apps []appSource
	defs []*render.Definition
	// workflows and policies are core.oam.dev/v1alpha1 Workflow and Policy
	// objects: what Applications refer to by name.
	workflows []*render.Workflow
	policies  []*render.Policy
	clusters  []*manifest.Object
	resources []*manifest.Object
	// read holds the absolute paths read: a file named twice (or given
	// and also found in a directory given) is read once.
	read map[string]bool
	// walking is set while the files of a directory are read.
	walking bool
	// notes tell what the walks left out (git submodules), and the
	// unknown fields field validation Warn dropped.
	notes []string
	// objectsOnly keeps Applications as plain objects (observed state).
	objectsOnly bool
	// fields is the field validation of KubeVela's objects.
	fields schemas.FieldValidation
	// badDefs counts the definitions that did not load: the applications
	// that use one would fail for want of it, so nothing renders.
	badDefs int
	// sums are the files read, in order (the render cache's key).
	sums []fileSum
	// scan, set for a render with Inputs.Select, makes add note in cross
	// what lets an Application change another's objects (crossObject).
	scan  bool
	cross string
	// known, when set, is the record of the inputs' files: one unchanged
	// since it was recorded is not read again (inputknown.go).
	known *knownInputs
	// wd is the working directory, once looked up (abs).
	wd string
}

// sizes counts what l holds besides Applications: a file that changes
// it holds more than Applications.
func (l *loaded) sizes() [7]int {
	return [7]int{len(l.defs), len(l.workflows), len(l.policies), len(l.clusters), len(l.resources), len(l.notes), l.badDefs}
}

// files is where a render reads its inputs: the file system, or (fsys
// set) a tree such as a git revision, whose slash paths are shown
// prefixed with name in messages and positions.
type files struct {
	fsys fs.FS
	name string
	// exclude are the patterns of Inputs.Exclude.
	exclude []string
	// skip are the paths of Inputs.Skip.
	skip []string
	// fields is Inputs.FieldValidation.
	fields schemas.FieldValidation
	// sum records every file's hash and documents (loaded.sums) for the
	// render cache's keys: only when there is a cache to key.
	sum bool
}

// display is how a file of the source is named to the user.
func (f files) display(p string) string { return f.name + p }

// readPaths reads files and directories (recursively, in byte order of
// names); "-" reads stdin once. One bad file or document hides nothing
// else: every one is read, into holds what loaded, and the error lists
// every file's and document's errors, sorted by place (manifest.Join).
func (f files) readPaths(paths []string, stdin io.Reader, into *loaded) error {
	into.fields = f.fields
	var errs []error
	for _, p := range paths {
		if p != "-" {
			errs = append(errs, f.readPath(p, into))
			continue
		}
		if stdin == nil {
			errs = append(errs, inputError(errors.New("-: no standard input")))
			continue
		}
		data, err := io.ReadAll(io.LimitReader(stdin, manifest.MaxInputBytes+1))
		if err != nil {
			errs = append(errs, inputError(fmt.Errorf("-: %w", err)))
			continue
		}
		errs = append(errs, into.addFile("<stdin>", data, f.sum))
		stdin = nil
	}
	return manifest.Join(errs...)
}

func (f files) readPath(root string, into *loaded) error {
	list, err := f.walk(root, func(note string) { into.notes = append(into.notes, note) })
	errs := []error{inputError(err)}
	// A file a directory holds (not one named) may be some other tool's
	// YAML: its documents without apiVersion and kind are not inputs.
	into.walking = len(list) != 1 || list[0] != root
	defer func() { into.walking = false }()
	defer into.known.done()
	for _, name := range list {
		if err := f.readFile(name, into); err != nil { // most are nil: not kept
			errs = append(errs, err)
		}
	}
	return manifest.Join(errs...)
}

// walkOptions select drydock's inputs: YAML, JSON and CUE files, dot
// directories and snapshots skipped.
var walkOptions = manifest.WalkOptions{
	Keep: IsInputFile,
	// __snapshot__ holds definition tests' snapshots (drydock test).
	SkipDir: func(name string) bool { return strings.HasPrefix(name, ".") || name == "__snapshot__" },
}

// walk lists the input files under root: none under a directory drydock
// wrote (it holds tree.OwnershipFile) or one of f.skip; skipped (if not
// nil) hears of the submodules left out, named as the user knows them.
func (f files) walk(root string, skipped func(note string)) ([]string, error) {
	return f.walkWith(root, walkOptions, skipped)
}

// walkWith is walk with the walk options opts.
func (f files) walkWith(root string, opts manifest.WalkOptions, skipped func(note string)) ([]string, error) {
	var list []string
	var err error
	if skipped != nil {
		opts.Skipped = func(note string) { skipped(f.name + note) }
	}
	if f.fsys == nil {
		skip := skipUnder(root, f.skip)
		opts.SkipPath = func(p string) bool { return skip[filepath.Clean(p)] || drydockWrote(p) }
		list, err = manifest.WalkFiles(root, opts)
		if len(skip) > 0 {
			list = slices.DeleteFunc(list, func(p string) bool { return skip[filepath.Clean(p)] })
		}
	} else {
		opts.SkipPath = func(p string) bool {
			_, err := fs.Stat(f.fsys, path.Join(p, tree.OwnershipFile))
			return err == nil
		}
		list, err = manifest.WalkFS(f.fsys, root, opts)
		err = f.named(err)
	}
	if len(f.exclude) > 0 && !(len(list) == 1 && list[0] == root) { // a file named is read
		list = slices.DeleteFunc(list, f.excluded)
	}
	return list, err
}

// drydockWrote reports whether the directory dir holds drydock's
// ownership file: a rendered or golden tree, never an input.
func drydockWrote(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, tree.OwnershipFile))
	return err == nil
}

// skipUnder maps the paths of skip that lie below the directory root
// (compared by real path) to the path a walk from root reaches them at
// (root joined with the names below it: the walk does not follow
// symbolic links to directories, so that path is theirs).
func skipUnder(root string, skip []string) map[string]bool {
	if len(skip) == 0 {
		return nil
	}
	real, err := manifest.RealPath(root)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, s := range skip {
		rs, err := manifest.RealPath(s)
		if err != nil || rs == real || !manifest.Within(real, rs) {
			continue
		}
		rel, err := filepath.Rel(real, rs)
		if err == nil {
			out[filepath.Join(root, rel)] = true
		}
	}
	return out
}

// excluded reports whether a pattern of f.exclude matches the file: its
// slash path, or a directory it is under, from any directory down
// ("examples/*" excludes repo/examples/a.yaml; "*.tmpl.yaml" any such file).
func (f files) excluded(name string) bool {
	comps := strings.Split(strings.Trim(filepath.ToSlash(filepath.Clean(name)), "/"), "/")
	for _, pat := range f.exclude {
		for i := range comps {
			for j := i; j < len(comps); j++ {
				if ok, _ := path.Match(pat, strings.Join(comps[i:j+1], "/")); ok {
					return true
				}
			}
		}
	}
	return false
}

// named prefixes an error about one of the tree's files, which starts
// with its path, with the tree's name.
func (f files) named(err error) error {
	if err == nil || f.name == "" {
		return err
	}
	return fmt.Errorf("%s%w", f.name, err)
}

// dir is the directory d of the source as an fs.FS (an addon's).
func (f files) dir(d string) (fs.FS, error) {
	if f.fsys == nil {
		if info, err := os.Stat(d); err != nil || !info.IsDir() {
			return nil, fmt.Errorf("addon %s: not a directory", d)
		}
		return os.DirFS(d), nil
	}
	if info, err := fs.Stat(f.fsys, d); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("addon %s: not a directory", f.display(d))
	}
	return fs.Sub(f.fsys, d)
}

// IsInputFile reports whether a directory's file at path is one of
// drydock's inputs: YAML, JSON or CUE, not drydock's or pre-commit's
// configuration nor a definition test.
func IsInputFile(path string) bool {
	switch filepath.Base(path) {
	case "drydock.yaml", ".pre-commit-config.yaml", ".pre-commit-hooks.yaml":
		return false // drydock's and pre-commit's configuration
	}
	if b := filepath.Base(path); strings.HasSuffix(b, "_test.yaml") || strings.HasSuffix(b, "_test.yml") {
		return false // definition tests (drydock test)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json", ".cue":
		return true
	}
	return false
}

func (f files) readFile(p string, into *loaded) error {
	key := f.display(p)
	if f.fsys == nil {
		if abs, err := into.abs(p); err == nil {
			key = abs
		}
	}
	if into.read[key] {
		return nil
	}
	if into.read == nil {
		into.known.reserve(into) // sizes read for the files known
	}
	if into.read == nil {
		into.read = map[string]bool{}
	}
	into.read[key] = true
	if into.known != nil && f.fsys == nil && f.sum && filepath.IsAbs(key) {
		return into.readKnown(f, p, key)
	}
	data, err := f.read(p)
	if err != nil {
		return inputError(err)
	}
	return into.addFile(f.display(p), data, f.sum)
}

// readKnown reads the file p (at abs) unless the record of known inputs
// holds it as it is, and records it when it can.
func (into *loaded) readKnown(f files, p, abs string) error {
	display := f.display(p)
	if kf := into.known.reuse(abs, display, into.walking); kf != nil {
		into.sums = append(into.sums, fileSum{name: display, sum: kf.sum, docs: kf.docs})
		into.apps = kf.appendSources(into.apps, abs)
		return nil
	}
	id, recordable := into.known.identify(abs)
	data, err := f.read(p)
	if err != nil {
		return inputError(err)
	}
	before, apps := into.sizes(), len(into.apps)
	err = into.addFile(display, data, f.sum)
	if sum := into.sums[len(into.sums)-1]; recordable && err == nil && !sum.other && into.sizes() == before {
		into.known.learn(abs, id, display, into.walking, sum, into.apps[apps:])
	}
	return err
}

// abs is filepath.Abs(p), the working directory looked up once per
// loaded rather than once per file.
func (l *loaded) abs(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if l.wd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		l.wd = wd
	}
	return filepath.Join(l.wd, p), nil
}

// read reads one regular file, at most manifest.MaxInputBytes.
func (f files) read(p string) ([]byte, error) {
	if f.fsys == nil {
		return manifest.ReadFile(p)
	}
	data, err := manifest.ReadFS(f.fsys, p)
	return data, f.named(err)
}

func (l *loaded) addFile(name string, data []byte, sum bool) (err error) {
	before := l.sizes()
	if sum {
		defer func() {
			l.sums = append(l.sums, fileSum{name: name, sum: sha256.Sum256(data), other: err != nil || l.sizes() != before, docs: splitDocs(data)})
		}()
	}
	if strings.HasSuffix(name, ".cue") {
		defs, err := render.ParseCUEDefinitions(name, data)
		if err != nil {
			l.badDefs++
			return inputError(err)
		}
		var errs []error
		for _, d := range defs {
			if err := render.AdmitDefinition(d); err != nil {
				l.badDefs++
				errs = append(errs, inputError(err))
				continue
			}
			l.defs = append(l.defs, d)
		}
		return manifest.Join(errs...)
	}
	// Document by document: an Application is kept as its document, so
	// that a stream of thousands is never all decoded at once. A bad
	// document is reported and the decoder goes on with the next one.
	dec := manifest.NewDecoder(name, data, manifest.DecodeOptions{Duplicate: l.duplicateKey()})
	var errs []error
	for {
		objs, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return manifest.Join(errs...)
		}
		if err != nil {
			errs = append(errs, inputError(err))
			continue
		}
		for _, o := range objs {
			if l.walking && o.APIVersion() == "" && o.Kind() == "" {
				continue
			}
			errs = append(errs, l.add(o))
		}
	}
}

// duplicateKey is what becomes of a key written twice in an input: the
// API server's strict field validation refuses duplicate fields (nil: a
// decoding error), warn keeps the last value with a warning and ignore
// keeps it silently — kubectl's --validate modes. (kubectl's own YAML to
// JSON conversion keeps the last value before the server can see both.)
func (l *loaded) duplicateKey() func(error) {
	switch l.fields {
	case schemas.FieldWarn:
		// An Application's document is decoded again when it renders, in
		// the render's workers: its notes are there already.
		var mu sync.Mutex
		seen := map[string]bool{}
		return func(err error) {
			note := manifest.Format(err, nil) + ": the last value is kept (--field-validation warn)"
			mu.Lock()
			defer mu.Unlock()
			if !seen[note] {
				seen[note] = true
				l.notes = append(l.notes, note)
			}
		}
	case schemas.FieldIgnore:
		return func(error) {}
	}
	return nil
}

func (l *loaded) add(o *manifest.Object) error {
	group := manifest.Group(o.APIVersion())
	if l.objectsOnly {
		// Observed state is what a cluster holds: the API server
		// admitted it already.
		return l.addObject(o, group)
	}
	dropped, err := schemas.CheckFields(o, l.fields)
	for _, w := range dropped {
		if l.fields == schemas.FieldWarn {
			l.notes = append(l.notes, manifest.Format(w, nil))
		}
	}
	switch {
	case group == "core.oam.dev" && o.Kind() == "Application":
		l.apps = append(l.apps, checkedAppSource(o, err, len(dropped) > 0))
		if l.scan && l.cross == "" {
			l.cross = crossObject(o)
		}
		return nil
	case err != nil:
		if group == "core.oam.dev" && render.IsDefinitionKind(o.Kind()) {
			l.badDefs++
		}
		return inputError(err)
	}
	return l.addObject(o, group)
}

// addObject files an object that is not an Application to render (or,
// observed, any object) by kind.
func (l *loaded) addObject(o *manifest.Object, group string) error {
	switch {
	case group == "core.oam.dev" && o.Kind() == "Workflow":
		wf, err := render.ParseWorkflow(o)
		if err != nil {
			return inputError(err)
		}
		l.workflows = append(l.workflows, wf)
	case group == "core.oam.dev" && o.Kind() == "Policy":
		p, err := render.ParsePolicy(o)
		if err != nil {
			return inputError(err)
		}
		l.policies = append(l.policies, p)
	case group == "core.oam.dev" && render.IsDefinitionKind(o.Kind()):
		d, err := render.DefinitionFromObject(o)
		if err == nil {
			err = render.AdmitDefinition(d)
		}
		if err != nil {
			l.badDefs++
			return inputError(err)
		}
		l.defs = append(l.defs, d)
	case cluster.IsClusterObject(o):
		l.clusters = append(l.clusters, o)
	case o.Kind() == "":
		return inputError(manifest.At(o.Pos, "%sdocument has no kind", o.Item()))
	default:
		var me *cluster.MetaError
		if err := cluster.ValidateMeta(o); errors.As(err, &me) {
			return inputError(manifest.At(o.FieldPos(me.Field), "%s%w", o.Item(), err))
		}
		l.resources = append(l.resources, o)
	}
	return nil
}

// checkedAppSource is the Application o after field validation: refused
// for its unknown fields (err), or parsed from o as the validation left
// it; o's document, which still has the fields the validation dropped
// (dropped), is not read again.
func checkedAppSource(o *manifest.Object, err error, dropped bool) appSource {
	src := newAppSource(o)
	switch {
	case err != nil:
		src.app, src.doc, src.err = nil, nil, err
	case dropped && src.doc != nil:
		src.doc = nil
		src.app, src.err = render.ParseApplication(o)
	}
	return src
}

// only refuses what a flag read that is not of the kinds it takes (its
// clusters, its definitions): nothing read is silently dropped.
func (l *loaded) only(flag, want string, clusters, defs bool) error {
	var stray []*manifest.Object
	stray = append(stray, l.resources...)
	if !clusters {
		stray = append(stray, l.clusters...)
	}
	switch {
	case len(l.apps) > 0:
		return inputError(manifest.At(l.apps[0].pos, "%s: %s is not %s", flag, l.apps[0].key, want))
	case len(stray) > 0:
		return inputError(manifest.At(stray[0].Pos, "%s: %s is not %s", flag, stray[0].Key(), want))
	case !defs && len(l.defs) > 0:
		return inputError(manifest.At(l.defs[0].Source, "%s: %s %q is not %s", flag, l.defs[0].Kind, l.defs[0].Name, want))
	}
	return nil
}

// InputFiles lists the files paths name as a render reads them:
// directories walked (hidden directories, __snapshot__, directories
// drydock wrote and the skip paths left out, only IsInputFile files kept)
// with the exclude patterns applied as Inputs.Exclude and Inputs.Skip do;
// a file named is listed whatever it is.
func InputFiles(paths, exclude, skip []string) ([]string, error) {
	f := files{exclude: exclude, skip: skip}
	var out []string
	for _, p := range paths {
		list, err := f.walk(p, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	return out, nil
}

// ConftestFiles lists the files under root as conftest's runner walks
// a directory for conftest test (runner/test.go getFilesFromDirectory
// at v0.71.1): every directory entered, hidden ones too, every file
// listed (the caller keeps those a parser takes), except below a
// directory drydock wrote, one of skip or git's own .git (told to
// skipped, as submodules are), and the exclude patterns applied as
// InputFiles applies them. A file root is listed whatever it is.
func ConftestFiles(root string, exclude, skip []string, skipped func(note string)) ([]string, error) {
	told := false
	opts := manifest.WalkOptions{
		Keep: func(string) bool { return true },
		SkipDir: func(name string) bool {
			if name == ".git" && !told && skipped != nil {
				told = true
				skipped(root + ": its .git directory is not read (git's own files, which conftest would walk)")
			}
			return name == ".git"
		},
	}
	f := files{exclude: exclude, skip: skip}
	return f.walkWith(root, opts, skipped)
}

// Reads reports whether a render of in reads the file at p, which need
// not exist any more (a file removed or renamed away): p is one of
// ReadPaths, a file below an addon directory, or a file a walk of one of
// their directories lists (IsInputFile, not excluded, not below a
// directory the walk leaves out: see Enters). Paths are compared
// absolute, Skip by real path.
func (in *Inputs) Reads(p string) bool { return in.reaches(p, false) }

// Enters reports whether a render of in reads files below the directory
// at p, which need not exist: p is, or is below, one of ReadPaths, and
// no directory from there down to p is a dot directory, __snapshot__,
// one of Skip or a directory drydock wrote (tree.OwnershipFile).
func (in *Inputs) Enters(p string) bool { return in.reaches(p, true) }

// reaches is Reads (dir false) and Enters (dir true).
func (in *Inputs) reaches(p string, dir bool) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	addons := map[string]bool{}
	for _, a := range in.Addons {
		if d, err := filepath.Abs(a.Dir); err == nil {
			addons[d] = true
		}
	}
	f := in.files()
	for _, root := range in.ReadPaths() {
		r, err := filepath.Abs(root)
		switch {
		case err != nil || !manifest.Within(r, abs):
			continue
		case r == abs: // named
			return true
		case f.skipped(abs):
			return false
		case addons[r] || f.walks(r, abs, dir):
			return true
		}
	}
	return false
}

// walks reports whether a walk of the directory root reaches p below it
// (a directory when dir, else a file it lists).
func (f files) walks(root, p string, dir bool) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	names := strings.Split(rel, string(filepath.Separator))
	if !dir {
		names = names[:len(names)-1]
	}
	at := root
	for _, name := range names {
		at = filepath.Join(at, name)
		if walkOptions.SkipDir(name) || drydockWrote(at) {
			return false
		}
	}
	return dir || (IsInputFile(p) && !f.excluded(p))
}

// skipped reports whether p is, or is below, one of f.skip (by real path).
func (f files) skipped(p string) bool {
	if len(f.skip) == 0 {
		return false
	}
	real, err := manifest.RealPath(p)
	if err != nil {
		return false
	}
	for _, s := range f.skip {
		if rs, err := manifest.RealPath(s); err == nil && manifest.Within(rs, real) {
			return true
		}
	}
	return false
}
