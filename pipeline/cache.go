package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"sync"
	"unsafe"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/resourcekeeper"
	"github.com/drydock-dev/drydock/render/workflow"
	"github.com/drydock-dev/drydock/tree"
)

// The render cache (Inputs.Cache). An application's render is a pure
// function of what it reads; the key of its entry is the hash of
//
//   - drydock's build (cache.BuildID): the built-in definitions, the
//     emulation's code and this format;
//   - the run's shared inputs (runKey): the bytes of every file read
//     that holds anything but Applications (definitions, Workflows,
//     Policies, resources, clusters; -d files; --clusters; --observed),
//     the flags that steer a render (workflow options, limits, field
//     validation, records kept, built-ins or not);
//   - the application's own file: its name and bytes, and where in it
//     the Application starts (positions reach errors and origins; an
//     entry is keyed on them rather than rebased);
//   - its base revision (Inputs.BaseRevisions), when given.
//
// Only successful renders are kept. A run whose render may read what
// the key does not cover keeps nothing and reads nothing: definitions
// given already loaded (Inputs.Definitions), addons, objects given in
// memory, a chart cache, and the records whose data an entry does not
// hold (provenance, status). With validation, a hit also needs the
// application's undeclared properties from the findings cache
// (findings.go). The entry holds the workflow's
// writes (cluster, step, policies, the object and who rendered it, the
// object's hashes: objectSums), its warnings, trace, suspension and the revision key; on a hit the
// Application is parsed again (its document is at hand) and the writes
// go through the same dispatch as a render's, so a hit writes what a
// render would.

// cacheFormat names this entry layout; part of every key.
const cacheFormat = "render/5"

// cacheable says whether a run of in may use its cache, and why not.
func (in *Inputs) cacheable(opts workflow.Options) bool {
	return in.Cache != nil && in.Definitions == nil && len(in.Addons) == 0 && len(in.Objects) == 0 &&
		opts.Charts == nil && !in.Record.Provenance && !in.Record.Status
}

// mayCache says, before anything is read, whether a run of in may use
// its cache: cacheable, and no chart cache configured.
func (in *Inputs) mayCache() bool {
	return in.cacheable(in.Workflow) && len(in.Charts.Charts)+len(in.Charts.Sources)+len(in.Charts.Repositories) == 0
}

// runKey hashes the inputs every application's render shares.
func runKey(in *Inputs, opts workflow.Options, sums ...[]fileSum) cache.Key {
	h := cache.NewHasher(cacheFormat).String(cache.BuildID())
	h.String(fmt.Sprintf("nobuiltins=%t fields=%v clustersFromInputs=%t", in.NoBuiltins, in.FieldValidation, in.ClustersFromInputs))
	h.String(fmt.Sprintf("suspend=%t kube=%q", opts.StopAtSuspend, opts.KubeVersion))
	h.String(fmt.Sprintf("timeout=%d memory=%d", in.Limits.EvalTimeout, in.Limits.Memory))
	h.String(fmt.Sprintf("trace=%t appstate=%t placement=%t", in.Record.Trace, in.Record.AppState, in.Record.Placement))
	for i, list := range sums {
		h.String(strconv.Itoa(i))
		for _, s := range list {
			if i > 0 || s.other {
				h.String(s.name).Bytes(s.sum[:])
			}
		}
	}
	return h.Key()
}

// fileSum is a file read: its name, the hash of its bytes, and whether
// it held anything but Applications.
type fileSum struct {
	name  string
	sum   [sha256.Size]byte
	other bool
	// docs are the file's YAML documents, as its bytes delimit them.
	docs []docSum
}

// docSum is a document of a YAML stream: the line it starts on (its
// "---", or 1) and the hash of its bytes up to the next one.
type docSum struct {
	line int
	sum  [sha256.Size]byte
}

// splitDocs cuts a YAML stream into its documents by bytes: a line that
// is "---" (or starts with "--- ") begins one; YAML forbids such a line
// inside any scalar, so this is where the parser cuts too.
func splitDocs(data []byte) []docSum {
	var docs []docSum
	start, startLine, line := 0, 1, 1
	for i := 0; i < len(data); {
		j := bytes.IndexByte(data[i:], '\n')
		next := len(data)
		if j >= 0 {
			next = i + j + 1
		}
		rest := data[i:next]
		if i > start && bytes.HasPrefix(rest, []byte("---")) && (len(rest) == 3 || rest[3] == ' ' || rest[3] == '\t' || rest[3] == '\n' || rest[3] == '\r') {
			docs = append(docs, docSum{line: startLine, sum: sha256.Sum256(data[start:i])})
			start, startLine = i, line
		}
		i = next
		line++
	}
	return append(docs, docSum{line: startLine, sum: sha256.Sum256(data[start:])})
}

// doc is the document holding line.
func (f *fileSum) doc(line int) docSum {
	i := sort.Search(len(f.docs), func(i int) bool { return f.docs[i].line > line })
	return f.docs[max(i-1, 0)]
}

// appKey is the key of a's render in a run of key run.
func appKey(run cache.Key, a appSource, files map[string]*fileSum, base map[string]string) (cache.Key, bool) {
	f := files[a.pos.File]
	if f == nil || a.pos.File == "" {
		return cache.Key{}, false
	}
	h := cache.NewHasher(cacheFormat).Bytes(run[:]).String(f.name)
	if a.doc != nil || a.lazy != nil {
		// Decoded from its document alone: those bytes are all it reads.
		d := f.doc(a.pos.Line)
		h.String("doc").Bytes(d.sum[:])
	} else {
		h.String("file").Bytes(f.sum[:])
	}
	var buf [256]byte
	h.Bytes(appendPosPart(buf[:0], a.pos))
	if len(base) > 0 {
		ns := a.key.Namespace
		if ns == "" {
			ns = "default"
		}
		if rev, ok := base[ns+"/"+a.key.Name]; ok {
			h.String("base").String(rev)
		}
	}
	return h.Key(), true
}

// appendPosPart appends to b the part of an application's key that is
// its position: what fmt.Sprintf("%d:%d:%s", pos.Line, pos.Col, pos)
// makes, without its two allocations (a warm run keys 10,000).
func appendPosPart(b []byte, pos manifest.Pos) []byte {
	b = strconv.AppendInt(b, int64(pos.Line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(pos.Col), 10)
	b = append(b, ':')
	// pos.String()
	if pos.File == "" {
		return b
	}
	b = append(b, pos.File...)
	if pos.Line == 0 {
		return b
	}
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(pos.Line), 10)
	if pos.Col == 0 {
		return b
	}
	b = append(b, ':')
	return strconv.AppendInt(b, int64(pos.Col), 10)
}

// cached is an application's render as an entry holds it. A warm run
// decodes thousands of entries, and every byte it allocates is a fresh
// heap page to fault in, so a hit keeps what dispatching a lean entry's
// writes needs in one allocation (ws) and the rest as parts of the
// entry, decoded only when asked (writesOf, objects, cachedWrite.leanParts).
type cached struct {
	trace, warnings       []string
	suspended, terminated bool
	// lean, when set, says that the Application's name and namespace
	// and each write's source and origin are all a hit needs of it: it
	// is not parsed again (leanOf).
	lean            bool
	name, namespace string
	revision        string
	// ws are the writes as the entry holds them.
	ws []cachedWrite
	// writes are the workflow's writes, once writesOf made them; their
	// objects are nil until objects decodes them.
	writes []workflow.Write
}

// cachedWrite is a write of an entry. A warm run of 10,000
// applications holds 20,000 of them: the fields are ordered so that
// none pads (a write is 240 bytes, two of them one 480-byte block).
type cachedWrite struct {
	cluster string
	// meta is the encoding of the write's step, policies and resource
	// but its object (writesOf decodes it).
	meta string
	// lean is the encoding of the write's source and origin, when the
	// entry is lean (leanParts decodes it).
	lean string
	// lazy.Raw is the object's encoding (decoder.value), for a plain
	// object or not; lazy.APIVersion and lazy.Key are a plain one's head.
	// lazy.Sums are the hashes of the object (objectSums), computed when
	// the entry was made: a part of the entry (decoder.sums).
	lazy cluster.Lazy
	// plain says the object is one that dispatch may take undecoded
	// (head).
	plain bool
}

// head is what a write's Lazy object (cluster.Lazy) is known by, kept
// for a plain object: one whose metadata the API server accepts
// (cluster.ValidateMeta) and that dispatch may take undecoded
// (resourcekeeper.Lazily).
type head struct {
	plain                             bool
	apiVersion, kind, namespace, name string
}

// headOf is obj's head.
func headOf(obj *manifest.Object) head {
	if cluster.ValidateMeta(obj) != nil || !resourcekeeper.Lazily(obj) {
		return head{}
	}
	return head{plain: true, apiVersion: obj.APIVersion(), kind: obj.Kind(), namespace: obj.Namespace(), name: obj.Name()}
}

// writesOf makes c.writes, their objects nil.
func (c *cached) writesOf() {
	if c.writes != nil {
		return
	}
	writes := make([]workflow.Write, len(c.ws))
	res := make([]cueval.Resource, len(c.ws))
	for i := range c.ws {
		d := &decoder{s: c.ws[i].meta}
		w := &writes[i]
		w.Cluster, w.Step, w.Policies = c.ws[i].cluster, d.str(), d.strs()
		res[i] = cueval.Resource{Component: d.str(), Trait: d.str(), Output: d.str(), PostDispatch: d.bool(), Policy: d.str()}
		w.Resource = &res[i]
	}
	c.writes = writes
}

// objects makes the writes (writesOf) and decodes their objects.
func (c *cached) objects() (err error) {
	defer func() {
		if recover() != nil {
			err = errors.New("render cache: bad entry")
		}
	}()
	c.writesOf()
	for i := range c.writes {
		if c.writes[i].Resource.Object == nil {
			c.writes[i].Resource.Object = decodeObject(c.ws[i].lazy.Raw)
		}
	}
	return nil
}

// decodeObject decodes an object's data; it panics when raw is not one
// value whole (objects recovers).
func decodeObject(raw string) map[string]any {
	d := &decoder{s: raw}
	obj, _ := d.value().(map[string]any)
	if len(d.s) != 0 {
		panic("trailing bytes")
	}
	return obj
}

// decodeLazy decodes a Lazy object's data. An entry reaches a run
// through its checksum (cache.Store, cache.Pack), so an encoding that
// does not decode is a bug of this package, not bad input: a lazy
// decode cannot fall back to rendering the application again, and the
// run stops rather than check an object it does not have.
func decodeLazy(l *cluster.Lazy) *manifest.Object {
	defer func() {
		if r := recover(); r != nil {
			panic(fmt.Sprintf("render cache: the entry of %s does not decode: %v", l.Key, r))
		}
	}()
	return manifest.New(decodeObject(l.Raw))
}

// lazily says whether the writes' objects may be dispatched undecoded
// (cachedWrite.lazyObject): every one is plain and none is decoded.
func (c *cached) lazily() bool {
	if c.writes != nil {
		return false
	}
	for i := range c.ws {
		if !c.ws[i].plain {
			return false
		}
	}
	return true
}

// lazyObject is w's object as a cluster.Lazy, decoded only when a stage
// asks; w must be plain.
func (w *cachedWrite) lazyObject() *cluster.Lazy {
	w.lazy.Decode = decodeLazy
	return &w.lazy
}

// leanParts is a lean entry's write's source and origin (decodeEntryString
// read them through once, so they decode).
func (w *cachedWrite) leanParts() (source string, o cluster.Origin) {
	d := &decoder{s: w.lean}
	source = d.str()
	o.Pos = manifest.Pos{File: d.str(), Line: int(d.uint()), Col: int(d.uint())}
	o.Application, o.Component, o.Trait, o.Policy = d.str(), d.str(), d.str(), d.str()
	return source, o
}

// leanApp is what writing an application's render needs of it when its
// writes need nothing else (leanOf): its name and each write's origin.
type leanApp struct {
	name, namespace string
	origins         []cluster.Origin
	// sources are the writes' cluster.Entry.Source.
	sources []string
}

// leanOf is what writing r's writes needs of its Application, nil when
// that is more than its name and the writes' origins: resource policies,
// an object copied from the Application (its positions are grafted), or
// a name or namespace the API server refuses (located in the
// Application).
func leanOf(r *workflow.AppResult) *leanApp {
	if r.Resources != nil && *r.Resources != (resourcekeeper.Resources{}) {
		return nil
	}
	l := &leanApp{name: r.App.Name, namespace: r.App.Namespace, origins: make([]cluster.Origin, len(r.Writes)), sources: make([]string, len(r.Writes))}
	for i, w := range r.Writes {
		if authored(r.App, w, w.Resource.Object) != nil || cluster.ValidateMeta(manifest.New(w.Resource.Object)) != nil {
			return nil
		}
		l.origins[i], l.sources[i] = origin(r.App, w), source(r.App, w)
	}
	return l
}

// result rebuilds the workflow's result for app; the objects are
// decoded (objects).
func (c *cached) result(app *render.Application) (*workflow.AppResult, error) {
	res, err := resourcekeeper.ResourcePolicies(app)
	if err != nil {
		return nil, err
	}
	return &workflow.AppResult{App: app, Writes: c.writes, Trace: c.trace, Warnings: c.warnings,
		Resources: res, Suspended: c.suspended, Terminated: c.terminated}, nil
}

// objectSums are the hashes of obj whose encoding (encoder.value) is
// enc: the findings cache's content hash and the golden digest.
func objectSums(obj map[string]any, enc []byte) manifest.Sums {
	s := manifest.Sums{Content: sha256.Sum256(enc)}
	d, ok := tree.DigestOf(manifest.New(obj))
	s.Digest, s.Digested = d, ok
	return s
}

// sums writes s as manifest.Sums lays it out in memory (sumsLen
// bytes: Digest, zero when not Digested, Digested and Content), so that
// an entry's sums are a part of it (decoder.sums) rather than a copy:
// a warm run of 10,000 applications decodes 20,000.
func (e *encoder) sums(s manifest.Sums) {
	if !s.Digested {
		s.Digest = [32]byte{}
	}
	e.b = append(e.b, s.Digest[:]...)
	e.bool(s.Digested)
	e.b = append(e.b, s.Content[:]...)
}

// sumsLen is the size of manifest.Sums, which has no padding (its
// fields are bytes): the compiler checks it is laid out as encoder.sums
// writes it.
const sumsLen = 65

var (
	_ [sumsLen - unsafe.Sizeof(manifest.Sums{})]byte
	_ [unsafe.Sizeof(manifest.Sums{}) - sumsLen]byte
	_ [1 - unsafe.Alignof(manifest.Sums{})]byte // its alignment is 1: it may start anywhere in a string
	_ [unsafe.Offsetof(manifest.Sums{}.Digested) - 32]byte
	_ [32 - unsafe.Offsetof(manifest.Sums{}.Digested)]byte
	_ [unsafe.Offsetof(manifest.Sums{}.Content) - 33]byte
	_ [33 - unsafe.Offsetof(manifest.Sums{}.Content)]byte
)

// sums is what encoder.sums wrote, in place: a part of the decoder's
// string, which is read-only (a mapped pack's) and must not be written
// through the pointer.
func (d *decoder) sums() *manifest.Sums {
	b := d.bytes(sumsLen)
	if b[32] > 1 {
		panic("bad bool")
	}
	return (*manifest.Sums)(unsafe.Pointer(unsafe.StringData(b)))
}

// errUncacheable is a value the entry format does not hold.
var errUncacheable = errors.New("value the render cache does not hold")

// encodeEntry serializes r (and its revision key) as an entry.
func encodeEntry(r *workflow.AppResult, revision string) ([]byte, error) {
	e := &encoder{}
	e.strs(r.Trace)
	e.strs(r.Warnings)
	e.bool(r.Suspended)
	e.bool(r.Terminated)
	e.str(revision)
	e.uint(uint64(len(r.Writes)))
	for _, w := range r.Writes {
		e.str(w.Cluster)
		e.str(w.Step)
		e.strs(w.Policies)
		res := w.Resource
		if res.Provenance != nil {
			return nil, errUncacheable
		}
		e.str(res.Component)
		e.str(res.Trait)
		e.str(res.Output)
		e.bool(res.PostDispatch)
		e.str(res.Policy)
		h := headOf(manifest.New(res.Object))
		e.bool(h.plain)
		if h.plain {
			e.str(h.apiVersion)
			e.str(h.kind)
			e.str(h.namespace)
			e.str(h.name)
		}
		// The object's encoding is length-prefixed: a hit reads past it
		// without decoding it (cachedWrite.lazy.Raw).
		v := &encoder{}
		if err := v.value(res.Object); err != nil {
			return nil, err
		}
		e.str(string(v.b))
		e.sums(objectSums(res.Object, v.b))
	}
	lean := leanOf(r)
	e.bool(lean != nil)
	if lean != nil {
		e.str(lean.name)
		e.str(lean.namespace)
		for i, o := range lean.origins {
			e.str(lean.sources[i])
			e.str(o.Pos.File)
			e.uint(uint64(o.Pos.Line))
			e.uint(uint64(o.Pos.Col))
			e.str(o.Application)
			e.str(o.Component)
			e.str(o.Trait)
			e.str(o.Policy)
		}
	}
	return e.b, nil
}

// decodeEntry reverses encodeEntry, objects included.
func decodeEntry(b []byte) (*cached, error) {
	c, err := decodeEntryString(string(b))
	if err == nil {
		err = c.objects()
	}
	return c, err
}

// decodeEntryString reverses encodeEntry but for the parts a hit may
// not need: the objects (cachedWrite.lazy.Raw; objects decodes them), the
// writes' other parts (writesOf) and a lean entry's origins
// (cachedWrite.leanParts), which it reads through; the strings of the
// entry it returns are parts of b.
func decodeEntryString(b string) (c *cached, err error) {
	d := &decoder{s: b}
	defer func() {
		if recover() != nil {
			c, err = nil, errors.New("render cache: bad entry")
		}
	}()
	c = &cached{trace: d.strs(), warnings: d.strs(), suspended: d.bool(), terminated: d.bool(), revision: d.str()}
	n := d.uint()
	if n > uint64(len(d.s)) {
		panic("bad count")
	}
	c.ws = make([]cachedWrite, n)
	for i := range c.ws {
		w := &c.ws[i]
		w.cluster = d.str()
		meta := d.s
		d.str()      // step
		d.skipStrs() // policies
		d.str()      // component
		d.str()      // trait
		d.str()      // output
		d.bool()     // post-dispatch
		d.str()      // policy
		w.meta = meta[:len(meta)-len(d.s)]
		if d.bool() {
			w.plain = true
			apiVersion, kind, namespace, name := d.str(), d.str(), d.str(), d.str()
			w.lazy.APIVersion = apiVersion
			w.lazy.Key = manifest.Key{Group: manifest.Group(apiVersion), Kind: kind, Namespace: namespace, Name: name}
		}
		w.lazy.Raw = d.str()
		w.lazy.Sums = d.sums()
	}
	if d.bool() {
		c.lean, c.name, c.namespace = true, d.str(), d.str()
		for i := range c.ws {
			lean := d.s
			d.str()  // source
			d.str()  // file
			d.uint() // line
			d.uint() // column
			d.str()  // application
			d.str()  // component
			d.str()  // trait
			d.str()  // policy
			c.ws[i].lean = lean[:len(lean)-len(d.s)]
		}
	}
	if len(d.s) != 0 {
		panic("trailing bytes")
	}
	return c, nil
}

// The value tags: each Go type a rendered object holds keeps its type
// through an entry (an int stays an int, an int64 an int64, a float64
// a float64), so that what a hit writes prints as a render's would.
const (
	tNil byte = iota
	tFalse
	tTrue
	tString
	tInt
	tInt64
	tFloat64
	tMap
	tSlice
	tNilMap
	tNilSlice
)

type encoder struct{ b []byte }

func (e *encoder) uint(n uint64) { e.b = binary.AppendUvarint(e.b, n) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *encoder) strs(s []string) {
	if s == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(len(s)) + 1)
	for _, x := range s {
		e.str(x)
	}
}

func (e *encoder) value(v any) error {
	switch v := v.(type) {
	case nil:
		e.b = append(e.b, tNil)
	case bool:
		if v {
			e.b = append(e.b, tTrue)
		} else {
			e.b = append(e.b, tFalse)
		}
	case string:
		e.b = append(e.b, tString)
		e.str(v)
	case int:
		e.b = append(e.b, tInt)
		e.b = binary.AppendVarint(e.b, int64(v))
	case int64:
		e.b = append(e.b, tInt64)
		e.b = binary.AppendVarint(e.b, v)
	case float64:
		e.b = append(e.b, tFloat64)
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
	case map[string]any:
		if v == nil {
			e.b = append(e.b, tNilMap)
			return nil
		}
		e.b = append(e.b, tMap)
		e.uint(uint64(len(v)))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			e.str(k)
			if err := e.value(v[k]); err != nil {
				return err
			}
		}
	case []any:
		if v == nil {
			e.b = append(e.b, tNilSlice)
			return nil
		}
		e.b = append(e.b, tSlice)
		e.uint(uint64(len(v)))
		for _, x := range v {
			if err := e.value(x); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("%w: %T", errUncacheable, v)
	}
	return nil
}

// decoder panics on bad input; decodeEntry recovers. It reads a copy
// of the entry as one string, so that the strings it returns are parts
// of it rather than an allocation each.
type decoder struct{ s string }

func newDecoder(b []byte) *decoder { return &decoder{s: string(b)} }

func (d *decoder) uint() uint64 {
	var n uint64
	for i := 0; i < len(d.s) && i < binary.MaxVarintLen64; i++ {
		c := d.s[i]
		n |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				break // overflow
			}
			d.s = d.s[i+1:]
			return n
		}
	}
	panic("bad varint")
}

func (d *decoder) varint() int64 {
	u := d.uint()
	n := int64(u >> 1)
	if u&1 != 0 {
		n = ^n
	}
	return n
}

// bytes returns the next n bytes.
func (d *decoder) bytes(n int) string {
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.s)) {
		panic("bad length")
	}
	return d.bytes(int(n))
}

func (d *decoder) bool() bool {
	v := d.s[0]
	d.s = d.s[1:]
	return v == 1
}

func (d *decoder) strs() []string {
	n := d.uint()
	if n == 0 {
		return nil
	}
	if n-1 > uint64(len(d.s)) {
		panic("bad count")
	}
	s := make([]string, n-1)
	for i := range s {
		s[i] = d.str()
	}
	return s
}

// skipStrs reads past what strs would read.
func (d *decoder) skipStrs() {
	n := d.uint()
	if n == 0 {
		return
	}
	if n-1 > uint64(len(d.s)) {
		panic("bad count")
	}
	for range n - 1 {
		d.str()
	}
}

func (d *decoder) value() any {
	t := d.s[0]
	d.s = d.s[1:]
	switch t {
	case tNil:
		return nil
	case tFalse:
		return false
	case tTrue:
		return true
	case tString:
		return d.str()
	case tInt, tInt64:
		n := d.varint()
		if t == tInt {
			return int(n)
		}
		return n
	case tFloat64:
		return math.Float64frombits(binary.LittleEndian.Uint64([]byte(d.bytes(8))))
	case tNilMap:
		return map[string]any(nil)
	case tNilSlice:
		return []any(nil)
	case tMap:
		n := d.uint()
		if n > uint64(len(d.s)) {
			panic("bad count")
		}
		m := make(map[string]any, n)
		for range n {
			k := d.str()
			m[k] = d.value()
		}
		return m
	case tSlice:
		n := d.uint()
		if n > uint64(len(d.s)) {
			panic("bad count")
		}
		s := make([]any, n)
		for i := range s {
			s[i] = d.value()
		}
		return s
	}
	panic("bad tag")
}

// appKeys derives the applications' keys of one run.
type appKeys struct {
	run   cache.Key
	files map[string]*fileSum
	base  map[string]string
	// pack, when set, holds the entries the last run of this scope used.
	pack *renderPack
	// lazy is set when the store's sinks take objects undecoded
	// (cluster.LazySink): a lean hit's plain objects are then decoded
	// only if a stage asks (cached.lazily).
	lazy bool
	// trace says the run records traces (Record.Trace). Without, its
	// entries keep none: a hit's trace is read only by a run that records
	// them, and Record.Trace is part of the run's key (runKey), so no
	// such run reads them. A warm run of 10,000 applications then neither
	// reads nor allocates 30,000 trace lines.
	trace bool
}

func newAppKeys(run cache.Key, sums []fileSum, base map[string]string) *appKeys {
	files := make(map[string]*fileSum, len(sums))
	for i := range sums {
		files[sums[i].name] = &sums[i]
	}
	return &appKeys{run: run, files: files, base: base}
}

// key is a's key; false when a run keeps nothing (k nil) or a was not
// read from a file.
func (k *appKeys) key(a appSource) (cache.Key, bool) {
	if k == nil {
		return cache.Key{}, false
	}
	return appKey(k.run, a, k.files, k.base)
}

// get returns the entry of key, nil when there is none or it does not
// decode: from the run's pack, else from the store (and the pack then
// keeps it).
func (k *appKeys) get(s *cache.Store, key cache.Key) *cached {
	b, from, i := k.pack.get(key)
	if from == fromStore {
		data, ok := s.Get(key)
		if !ok {
			return nil
		}
		b = string(data)
	}
	c, err := decodeEntryString(b)
	if err != nil {
		return nil
	}
	k.pack.use(key, b, from, i)
	return c
}

// put keeps r's render; a value the format does not hold keeps nothing
// and is no error.
func (k *appKeys) put(s *cache.Store, key cache.Key, r *workflow.AppResult, revision string) error {
	if !k.trace && r.Trace != nil {
		untraced := *r
		untraced.Trace = nil
		r = &untraced
	}
	b, err := encodeEntry(r, revision)
	if errors.Is(err, errUncacheable) {
		return nil
	}
	if err != nil {
		return err
	}
	k.pack.use(key, string(b), fromStore, 0)
	return s.Put(key, b)
}

// The render pack: store entries (cache.Pack) per run scope holding
// every entry the last run of that scope used, so that a warm run of
// 10,000 applications reads two files, not 10,000. The scope is what a
// run reads (drydock's build, the working directory, the paths and
// filters), so each suite of a drydock test keeps its own; suites that
// read the same paths with other settings take turns at one (their
// entries' keys differ; nothing wrong is read, only more is written).
// An entry is still written to its own file too, for the runs of other
// scopes (a render of one file of the suite) to find.
//
// A scope has a base pack and a delta: an edit of one application writes
// its new entry to the delta, not all 10,000 again; when the delta or
// the base's unused entries pass an eighth of the base, the base is
// written again with exactly the entries used and the delta emptied. A
// partial run (Inputs.Only, a shard, inputs that did not load) adds its
// new entries to the delta and drops nothing. Nothing is written when
// every entry used came from the packs and none went unused. Concurrent
// runs may each write either pack: every pack holds entries under their
// content keys, so any mix of them reads right.

// packFormat names the packs' scope key; the entries' format is
// cacheFormat's, in their keys.
const packFormat = "render-pack/1"

// Where a used entry came from.
const (
	fromStore = iota // its own file, or rendered
	fromBase
	fromDelta
)

// renderPack is a run's packs: those read and the entries used.
type renderPack struct {
	key, deltaKey cache.Key
	base, delta   *cache.Pack
	mu            sync.Mutex
	// The entries the run read or wrote: those of the base by their
	// index in it (inBase, a bit each, counting inBase of them), the
	// others by key (others; fresh counts those neither pack held). A
	// warm run uses thousands of the base's entries and a few others:
	// a map of them all by key was 6 MB a run of 10,000.
	usedBase      []uint64
	others        map[cache.Key]usedEntry
	inBase, fresh int
}

// usedEntry is an entry the run used that the base did not give it:
// its bytes and where they came from (fromDelta or fromStore).
type usedEntry struct {
	b    string
	from int
}

// openPack reads the packs of in's scope.
func (k *appKeys) openPack(in *Inputs) {
	if k == nil || in.Cache == nil {
		return
	}
	k.pack = openRenderPack(in.Cache, packKey(in))
}

// openRenderPack reads the base pack of key and its delta from s.
func openRenderPack(s *cache.Store, key cache.Key) *renderPack {
	p := &renderPack{key: key, deltaKey: deltaKey(key), others: map[cache.Key]usedEntry{}}
	p.base, p.delta = s.GetPack(p.key), s.GetPack(p.deltaKey)
	p.usedBase = make([]uint64, (p.base.Len()+63)/64)
	return p
}

// packKey is the key of the base pack of in's scope.
func packKey(in *Inputs) cache.Key {
	h := cache.NewHasher(packFormat).String(cache.BuildID()).String(in.FromName)
	wd, _ := os.Getwd()
	h.String(wd).String(strconv.FormatBool(in.Stdin != nil))
	for i, list := range [][]string{in.Paths, in.Exclude, in.Skip, in.ClusterPaths, in.DefinitionPaths, in.ObservedPaths} {
		h.String(strconv.Itoa(i))
		for _, p := range list {
			h.String(p)
		}
	}
	return h.Key()
}

// deltaKey is the key of the delta of the base pack of key base.
func deltaKey(base cache.Key) cache.Key {
	return cache.NewHasher(packFormat).Bytes(base[:]).String("delta").Key()
}

// get returns the entry of key in the packs read, which held it
// (fromStore: neither) and, from the base, its index there.
func (p *renderPack) get(key cache.Key) (string, int, int) {
	if p == nil {
		return "", fromStore, 0
	}
	if b, ok := p.delta.Get(key); ok {
		return b, fromDelta, 0
	}
	if i, b, ok := p.base.Lookup(key); ok {
		return b, fromBase, i
	}
	return "", fromStore, 0
}

// use remembers entry b of key, from where it came (and from the base,
// its index i there), as used by the run. An entry used twice counts
// once, as first used.
func (p *renderPack) use(key cache.Key, b string, from, i int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if from == fromBase {
		if p.baseUsed(i) {
			return
		}
		if _, ok := p.others[key]; ok {
			return
		}
		p.usedBase[i/64] |= 1 << (i % 64)
		p.inBase++
		return
	}
	if _, ok := p.others[key]; ok {
		return
	}
	if j, ok := p.base.Index(key); ok && p.baseUsed(j) {
		return
	}
	p.others[key] = usedEntry{b: b, from: from}
	if from == fromStore {
		p.fresh++
	}
}

// baseUsed says whether the run used the base's entry at index i.
func (p *renderPack) baseUsed(i int) bool { return p.usedBase[i/64]&(1<<(i%64)) != 0 }

// save writes the packs back when they changed (see above).
func (k *appKeys) save(s *cache.Store, partial bool) error {
	if k == nil || k.pack == nil {
		return nil
	}
	p := k.pack
	p.mu.Lock()
	defer p.mu.Unlock()
	// delta is what the next delta holds: the entries used that the
	// base lacks, and when partial those the delta held.
	delta := map[cache.Key]string{}
	if partial {
		if p.fresh == 0 {
			return nil
		}
		for key, b := range p.delta.All() {
			delta[key] = b
		}
	}
	for key, e := range p.others {
		delta[key] = e.b
	}
	unused := p.base.Len() - p.inBase
	if partial {
		unused = 0
	} else if p.fresh == 0 && unused == 0 && len(delta) == p.delta.Len() {
		return nil
	}
	if limit := p.base.Len() / 8; p.base != nil && unused <= limit && len(delta) <= limit {
		return s.PutPack(p.deltaKey, delta)
	}
	// The base is written again: when whole, with the entries used;
	// when partial, with what it held and the delta.
	base := make(map[cache.Key]string, p.base.Len()+len(delta))
	for i := range p.base.Len() {
		if partial || p.baseUsed(i) {
			key, b := p.base.At(i)
			base[key] = b
		}
	}
	maps.Copy(base, delta)
	err := s.PutPack(p.key, base)
	if err == nil && p.delta.Len() > 0 {
		err = s.PutPack(p.deltaKey, nil)
	}
	return err
}

// outcome rebuilds the workflow result of a from c: the Application
// parsed again, at the revision a render would give it.
func (c *cached) outcome(a appSource, base map[string]string) (*workflow.AppResult, bool) {
	app, err := a.load()
	if err != nil {
		return nil, false
	}
	if rev, changed := base[app.Namespace+"/"+app.Name]; changed && rev != c.revision {
		app.Revision = 2
	}
	r, err := c.result(app)
	return r, err == nil
}
