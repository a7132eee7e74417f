package check

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/regosandbox"
	"github.com/drydock-dev/drydock/rules"
	"github.com/drydock-dev/drydock/tree"
)

// suiteSink checks a suite's render as it streams: each object is
// encoded once and compared with (or written into) the golden tree, and
// evaluated by the suite's rules, when it arrives; only its path and
// origin are kept (and, for rules that combine a cluster's objects, the
// objects). An object written again replaces the earlier one, results
// included. The golden tree and the rules are opened at the first object:
// what goes wrong with them is reported only if the render succeeds, as
// it was when they were checked after the render.
type suiteSink struct {
	ctx    context.Context
	r      *runner
	suite  Suite
	golden *goldenSink
	rules  *ruleSink
	// recs are the objects' records in the order they came, writers what
	// they share with the records before them: records allocated a block
	// at a time (never moved, so pointers to them stay) cost less than an
	// allocation per object. An object written again has a record per
	// write; ordered keeps the last.
	recs    records
	writers blocks[writer]
	// groups number the (cluster, namespace, group, kind) of the objects
	// (a record keeps the number and its object's name; gs are the groups
	// by number): output order sorts the few groups, then each group's
	// names, which usually came in order. recent are the two groups last
	// numbered, tried before the map: an application's objects are of a
	// few kinds in one namespace.
	groups map[objectGroup]int32
	gs     []objectGroup
	recent [2]int32
	opened bool
	// split is set when the run's shard checks a part of the suite: an
	// object written by an application it does not own is not checked,
	// and its path is in skipped. rendered counts every object put.
	split    bool
	skipped  map[string]bool
	rendered int
}

// sunk is what the sink keeps of an object.
type sunk struct {
	// writer is who wrote the object, shared by the objects one
	// application wrote in a row.
	*writer
	path string
	// group and name place the object in output order (ordered).
	name  string
	group int32
	// digest identifies the object as rendered (none when !digested).
	digested bool
	digest   tree.Digest
	// rules' results for the object alone (Input 0), or its error.
	report *rules.Report
	err    error
	// obj is kept only for checks that see a cluster's objects at once
	// (combined rules, Gatekeeper).
	obj *manifest.Object
	// doc is a plain manifest's document that is not an object (obj nil):
	// null for an empty document, a scalar or a sequence.
	doc any
}

// writer is what the entries of an object held about who wrote it: the
// same for each object of an application (~140 bytes a record saved).
type writer struct {
	cluster string
	origin  cluster.Origin
	// owner and propagated are the entry's: who wrote the object.
	owner      string
	propagated bool
}

// objectGroup is what output order compares before an object's name:
// its cluster and its key without the name.
type objectGroup struct {
	cluster string
	key     manifest.Key
}

// input is what the rules see of the object.
func (s *sunk) input() rules.Input {
	if s.obj == nil {
		return rules.Input{Document: s.doc, Context: rules.Context{Source: s.origin.Pos.String(), File: s.origin.Pos.File}}
	}
	return rules.Input{Object: s.obj, Context: rules.Context{Cluster: s.cluster, Namespace: s.obj.Namespace(),
		Application: s.origin.Application, Component: s.origin.Component, Source: s.origin.Pos.String(), File: s.origin.Pos.File}}
}

func (r *runner) newSuiteSink(ctx context.Context, s Suite) *suiteSink {
	return &suiteSink{ctx: ctx, r: r, suite: s, groups: map[objectGroup]int32{},
		split: r.opts.Shard.splits(s), skipped: map[string]bool{}}
}

// mine reports whether the run's shard checks the object of entry e: one
// written by an application the shard owns, or by none (resource
// templates, observed objects: every shard checks them, and the merge of
// the shards' reports keeps one of each finding).
func (k *suiteSink) mine(e cluster.Entry) bool {
	app, ok := cluster.OwnerApplication(e.Owner)
	return !k.split || !ok || k.r.opts.Shard.Owns(app)
}

// owned are the findings not about an object the shard does not check.
func (k *suiteSink) owned(fs []Finding) []Finding {
	if len(k.skipped) == 0 {
		return fs
	}
	return slices.DeleteFunc(fs, func(f Finding) bool { return f.Object != "" && k.skipped[f.Object] })
}

// open makes the golden and rules checks of the suite, once. A failure is
// kept in them and reported by finish.
func (k *suiteSink) open() {
	if k.opened {
		return
	}
	k.opened = true
	if k.suite.Golden != "" {
		k.golden = k.r.openGolden(k.suite)
	}
	k.rules = k.r.openRules(k.ctx, k.suite)
}

// Put checks one object.
func (k *suiteSink) Put(c string, e cluster.Entry) error {
	k.rendered++
	key := e.Key()
	if !k.mine(e) {
		k.skipped[tree.KeyPath(c, key)] = true
		return nil
	}
	k.open()
	obj := e.Object
	if obj == nil && ((k.rules != nil && k.rules.err == nil) || len(k.suite.Gatekeeper) > 0) {
		obj = e.Obj() // the rules see it; a Lazy one is decoded only for them
	}
	s := k.recs.add()
	*s = sunk{writer: k.writer(c, e), path: tree.KeyPath(c, key), group: k.group(c, key), name: key.Name, obj: obj}
	switch {
	case e.Object == nil && e.Lazy != nil && e.Lazy.Sums != nil:
		s.digest, s.digested = e.Lazy.Sums.Digest, e.Lazy.Sums.Digested
	case e.Object == nil && e.Lazy != nil: // no hashes: digested from the object
		s.digest, s.digested = tree.DigestOf(e.Lazy.Object())
	case e.Object.Sums != nil: // a render cache hit's, computed when it was kept
		s.digest, s.digested = e.Object.Sums.Digest, e.Object.Sums.Digested
	default:
		s.digest, s.digested = tree.DigestOf(e.Object)
	}
	if k.golden != nil {
		k.golden.put(s, e)
	}
	k.rules.put(k.ctx, s)
	if !k.rules.combined() && len(k.suite.Gatekeeper) == 0 {
		s.obj = nil // checked: nothing needs the object again
	}
	return nil
}

// writer is the writer of an object of cluster c from entry e: the last
// record's when it is the same.
func (k *suiteSink) writer(c string, e cluster.Entry) *writer {
	if k.writers.n > 0 {
		w := k.writers.at(k.writers.n - 1)
		if w.cluster == c && w.owner == e.Owner && w.propagated == e.Propagated && w.origin == e.Origin {
			return w
		}
	}
	w := k.writers.add()
	*w = writer{cluster: c, origin: e.Origin, owner: e.Owner, propagated: e.Propagated}
	return w
}

// group numbers the group of key in cluster c.
func (k *suiteSink) group(c string, key manifest.Key) int32 {
	g := objectGroup{cluster: c, key: manifest.Key{Group: key.Group, Kind: key.Kind, Namespace: key.Namespace}}
	switch {
	case len(k.gs) == 0:
	case k.gs[k.recent[0]] == g:
		return k.recent[0]
	case k.gs[k.recent[1]] == g:
		k.recent[0], k.recent[1] = k.recent[1], k.recent[0]
		return k.recent[0]
	}
	i, ok := k.groups[g]
	if !ok {
		i = int32(len(k.gs))
		k.groups[g] = i
		k.gs = append(k.gs, g)
	}
	k.recent[0], k.recent[1] = i, k.recent[0]
	return i
}

// TakesLazy: a Lazy object is decoded only when the rules or Gatekeeper
// see it or its golden file is read (cluster.LazySink).
func (k *suiteSink) TakesLazy() bool { return true }

// ordered returns the objects in output order, by cluster then key
// (manifest.Key.Less), the last record of an object written again: the
// records by group in the groups' order (a counting sort, which keeps the
// order they came in), then each group's by name, when they did not come
// in that order (a stable sort: the last of equal names is the last
// written).
func (k *suiteSink) ordered() []*sunk {
	// rank[g] is group g's place in output order.
	gs := k.gs
	order := make([]int32, len(gs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		x, y := gs[a], gs[b]
		switch {
		case x.cluster != y.cluster:
			return cmp.Compare(x.cluster, y.cluster)
		case x.key.Less(y.key):
			return -1
		case y.key.Less(x.key):
			return 1
		}
		return 0
	})
	rank := make([]int32, len(gs))
	for r, g := range order {
		rank[g] = int32(r)
	}
	// start[r] is where group of rank r begins in out, then where its next
	// record goes.
	start := make([]int32, len(gs)+1)
	for i := range k.recs.n {
		start[rank[k.recs.at(i).group]+1]++
	}
	for r := range gs {
		start[r+1] += start[r]
	}
	out := make([]*sunk, k.recs.n)
	next := slices.Clone(start[:len(gs)])
	for i := range k.recs.n {
		s := k.recs.at(i)
		r := rank[s.group]
		out[next[r]] = s
		next[r]++
	}
	byName := func(a, b *sunk) int { return cmp.Compare(a.name, b.name) }
	n := 0 // out[:n] are the records kept
	for r := range gs {
		grp := out[start[r]:start[r+1]]
		if !slices.IsSortedFunc(grp, byName) {
			slices.SortStableFunc(grp, byName)
		}
		for i, s := range grp {
			if i+1 < len(grp) && grp[i+1].name == s.name {
				continue // written again
			}
			out[n] = s
			n++
		}
	}
	return out[:n]
}

// records are sunk records in blocks.
type records = blocks[sunk]

// blocks are values in blocks: a value's index (into the blocks in turn)
// and its address stay as more are added.
type blocks[T any] struct {
	blocks [][]T
	n      int32
}

// recordBlock is how many values a block holds (~64 kB of records).
const recordBlock = 512

// add adds a zero value and returns its address.
func (rs *blocks[T]) add() *T {
	if int(rs.n)%recordBlock == 0 {
		rs.blocks = append(rs.blocks, make([]T, recordBlock))
	}
	rs.n++
	return rs.at(rs.n - 1)
}

// at is the value of index i.
func (rs *blocks[T]) at(i int32) *T { return &rs.blocks[i/recordBlock][i%recordBlock] }

// abort discards what the render gave: it failed.
func (k *suiteSink) abort() {
	if k.golden != nil {
		k.golden.abort()
	}
}

// finish adds the golden and rules findings to res, once the render has
// succeeded.
func (k *suiteSink) finish(res *SuiteResult) error {
	k.open()
	objs := k.ordered()
	res.Objects = len(objs)
	if k.split && !k.r.opts.Shard.First() {
		// The objects no application wrote count in the first shard only.
		res.Objects = 0
		for _, o := range objs {
			if _, ok := cluster.OwnerApplication(o.owner); ok {
				res.Objects++
			}
		}
	}
	if k.golden != nil {
		res.Checks = append(res.Checks, "golden")
		if err := k.golden.finish(k.r, res, objs, k.split); err != nil {
			return &stageError{"golden", err}
		}
	}
	// A rule stopped by the budget does not keep Gatekeeper from running.
	rerr := k.rules.finish(k.ctx, res, objs)
	if rerr != nil && !errors.Is(rerr, regosandbox.ErrStopped) {
		return &stageError{"rules", rerr}
	}
	gerr := k.r.gatekeeperFindings(k.ctx, k.suite, res, objs)
	switch {
	case rerr != nil:
		return &stageError{"rules", manifest.Join(rerr, gerr)}
	case gerr != nil:
		return &stageError{"gatekeeper", gerr}
	}
	return nil
}

// stageError is a check that could not run (a policy that does not
// load, a golden tree that cannot be read): the check names the finding.
type stageError struct {
	check string
	err   error
}

func (e *stageError) Error() string { return e.err.Error() }
func (e *stageError) Unwrap() error { return e.err }

// goldenSink compares each object with the golden tree, or writes it into
// the updated tree.
type goldenSink struct {
	dir string
	cmp *golden.Comparer
	upd *tree.Updater
	err error
	// store keeps what the comparison learned under key for the next
	// (nil: nothing is kept, every golden file is read).
	store store
	key   cache.Key
	// parts are the parts of the record at key, old what it held (see
	// loadKnown; a comparison changes it in place into what it learned).
	parts int
	old   tree.Known
	// listed is the record of the last comparison's listing, kept at
	// listingKey(key) (see golden.Comparer.Listed).
	listed []byte
}

// openGolden opens the suite's golden tree for comparing or updating.
func (r *runner) openGolden(s Suite) *goldenSink {
	g := &goldenSink{dir: r.paths([]string{s.Golden})[0]}
	if r.opts.Update {
		g.upd, g.err = tree.NewUpdater(g.dir, tree.UpdateOptions{Prune: r.opts.Prune, Adopt: r.opts.Adopt})
		if g.upd != nil {
			g.upd.Known, g.upd.Start = g.known(r, s, "golden-update", g.upd.Start)
		}
	} else {
		// Known and the listing's record first: the comparison lists the
		// golden directory again only when its structure changed.
		known, start := g.known(r, s, "golden", time.Now())
		if g.store != nil {
			g.listed, _ = g.store.Get(listingKey(g.key))
		}
		g.cmp, g.err = golden.NewComparerKnown(g.dir, start, known, g.listed)
		if g.cmp != nil {
			g.cmp.Mask = goldenMask(s)
		}
	}
	return g
}

// known is what the run's store keeps of the last comparison (or update:
// kind) of s with the golden directory, and when this one started (start,
// or as a test moves it); g keeps what this one learns.
func (g *goldenSink) known(r *runner, s Suite, kind string, start time.Time) (tree.Known, time.Time) {
	if move := r.opts.goldenStart; move != nil {
		start = move(start)
	}
	st := r.store()
	if st == nil {
		return nil, start
	}
	k, ok := knownKey(kind, g.dir, s)
	if !ok {
		return nil, start
	}
	g.store, g.key = st, k
	g.old, g.parts = loadKnown(st, k)
	return g.old, start
}

func (g *goldenSink) put(s *sunk, e cluster.Entry) {
	if g.err != nil {
		return
	}
	if g.store != nil && s.digested {
		encode := func() ([]byte, error) { return tree.Encode(e.Obj()) } // a Lazy object is decoded only here
		if g.upd != nil {
			g.err = g.upd.PutDigest(s.path, s.digest, encode)
		} else {
			g.err = g.cmp.PutDigest(s.path, s.digest, encode)
		}
		return
	}
	data, err := tree.Encode(e.Obj())
	switch {
	case err != nil:
		g.err = err
	case g.upd != nil:
		g.err = g.upd.Put(s.path, data)
	default:
		g.err = g.cmp.Put(s.path, data)
	}
}

func (g *goldenSink) abort() {
	if g.upd != nil {
		g.upd.Abort()
		g.upd = nil
	}
}

func (g *goldenSink) finish(r *runner, res *SuiteResult, objs []*sunk, split bool) error {
	if g.err != nil {
		g.abort()
		return g.err
	}
	if g.upd != nil {
		rep, err := g.upd.Commit()
		if err != nil {
			return err
		}
		r.updated(res, g.dir, rep)
		g.keep(g.upd.Learned())
		return nil
	}
	rep := g.cmp.Report()
	before := len(res.Findings)
	r.compared(res, g.dir, rep, originsOf(objs, rep.Added, rep.Changed))
	if split && len(rep.Removed) > 0 {
		// compared adds the removed files' findings last, one each: in a
		// shard they are unclaimed (another shard may render them).
		cut := len(res.Findings) - len(rep.Removed)
		if cut >= before {
			res.Unclaimed = append(res.Unclaimed, res.Findings[cut:]...)
			res.Findings = res.Findings[:cut]
		}
	}
	if learned, changed := g.cmp.Learned(); g.store != nil && changed {
		// learned is the record loaded (old) changed in place at Changed.
		_ = keepChanged(g.store, g.key, g.parts, learned, g.cmp.Changed()) // not kept: the next run reads the files
	}
	if g.store != nil {
		// Recorded with Learned as kept; a record that cannot be taken
		// again (nil) replaces the last one, so that it is not read.
		if listed := g.cmp.Listed(); string(listed) != string(g.listed) {
			_ = g.store.Put(listingKey(g.key), listed) // not kept: the next run lists the directory
		}
	}
	if r.opts.goldenReport != nil {
		r.opts.goldenReport(res.Name, rep)
	}
	return nil
}

// originsOf maps the paths given (the files a comparison found added or
// changed: the only ones its findings locate) to the origins of the
// objects at them, the last in objs' order winning. A warm run changes a
// few files of thousands: mapping every object's path would cost a map
// entry per object.
func originsOf(objs []*sunk, paths ...[]string) map[string]cluster.Origin {
	want := map[string]bool{}
	for _, ps := range paths {
		for _, p := range ps {
			want[p] = true
		}
	}
	origins := make(map[string]cluster.Origin, len(want))
	if len(want) == 0 {
		return origins
	}
	for _, o := range objs {
		if want[o.path] {
			origins[o.path] = o.origin
		}
	}
	return origins
}

// keep keeps what the comparison or update learned, when it changed.
func (g *goldenSink) keep(learned tree.Known, changed bool) {
	if g.store != nil && changed {
		_ = keepKnown(g.store, g.key, g.parts, g.old, learned) // not kept: the next run reads the files
	}
}

// ruleSink evaluates the suite's rules on each object (or, combined, on
// each cluster's objects at the end).
type ruleSink struct {
	eng     *rules.Engine
	combine bool
	err     error
}

// openRules loads the suite's rules (nil when it has none).
func (r *runner) openRules(ctx context.Context, s Suite) *ruleSink {
	opts, ok := r.ruleOptions(s)
	if !ok {
		return nil
	}
	eng, err := r.engine(ctx, opts)
	return &ruleSink{eng: eng, combine: s.Combine, err: err}
}

func (rs *ruleSink) put(ctx context.Context, s *sunk) {
	if rs == nil || rs.err != nil || rs.combine {
		return // combined rules run at the end
	}
	s.report, s.err = rs.eng.Eval(ctx, []rules.Input{s.input()}, 1)
}

// combined reports whether the rules see a cluster's objects at once.
func (rs *ruleSink) combined() bool { return rs != nil && rs.combine }

// finish assembles the objects' results in output order, as one
// evaluation of them all would have, and adds the findings.
func (rs *ruleSink) finish(ctx context.Context, res *SuiteResult, objs []*sunk) error {
	if rs == nil {
		return nil
	}
	if rs.err != nil {
		return rs.err
	}
	var rep *rules.Report
	if rs.combine {
		groups := map[string][]rules.Input{}
		for _, o := range objs {
			groups[o.cluster] = append(groups[o.cluster], o.input())
		}
		var err error
		if rep, err = rs.eng.EvalCombined(ctx, groups); err != nil {
			return err
		}
	} else {
		rep = &rules.Report{}
		for i, o := range objs {
			if o.err != nil {
				return o.err // the first failing object in order, as Eval reports it
			}
			merge(rep, o.report, i)
		}
	}
	ruleFindings(res, rs.eng, rep, objs, rs.combine)
	return rep.StopErrors()
}

// merge appends the report of some inputs to rep, their indexes moved
// by offset: one object's report (input 0) becomes input offset, a
// batch's the inputs from offset on.
func merge(rep, part *rules.Report, offset int) {
	for _, r := range part.Results {
		r.Input += offset
		rep.Results = append(rep.Results, r)
	}
	for _, s := range part.Summaries {
		s.Input += offset
		rep.Summaries = append(rep.Summaries, s)
	}
	for _, p := range part.Prints {
		p.Input += offset
		rep.Prints = append(rep.Prints, p)
	}
	for _, s := range part.Stopped {
		s.Input += offset
		rep.Stopped = append(rep.Stopped, s)
	}
}
