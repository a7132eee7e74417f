package cluster

import "github.com/drydock-dev/drydock/manifest"

// Lazy is an object a store's sinks may not need to see: one a render
// cache hit gives, known by its identity and hashes and decoded only
// when a stage asks for it (Entry.Obj). An unchanged application of a
// warm run writes thousands of objects that every check already knows
// (their findings, their golden files): decoding them only to hash and
// compare nothing would cost most of the run.
//
// Whoever makes a Lazy vouches that its object passes ValidateMeta (the
// store does not decode it to check) and that Decode gives an object
// whose APIVersion, Key and hashes are these.
type Lazy struct {
	APIVersion string
	Key        manifest.Key
	// Sums are the hashes of the object's data (manifest.Object.Sums),
	// where its maker keeps them.
	Sums *manifest.Sums
	// Raw is the object as its maker keeps it, for Decode.
	Raw string
	// Decode makes the object from the Lazy (its Raw and Key); it is
	// called at most once, from the goroutine that applies the entry.
	// One function serves every Lazy of a maker: a warm run makes
	// 20,000 of them, and a closure per object cost as much again.
	Decode func(*Lazy) *manifest.Object
	obj    *manifest.Object
}

// Object decodes the object, once. It carries the Lazy's Sums (as a
// render cache hit's object does while it is dispatched).
func (l *Lazy) Object() *manifest.Object {
	if l.obj == nil {
		l.obj = l.Decode(l)
		l.obj.Sums = l.Sums
	}
	return l.obj
}

// Decoded is the object if a stage has decoded it, else nil.
func (l *Lazy) Decoded() *manifest.Object { return l.obj }

// Obj is the entry's object, decoded when it is Lazy.
func (e Entry) Obj() *manifest.Object {
	if e.Object == nil && e.Lazy != nil {
		return e.Lazy.Object()
	}
	return e.Object
}

// Key is the key of the entry's object, without decoding a Lazy one.
func (e Entry) Key() manifest.Key {
	if e.Object == nil && e.Lazy != nil {
		return e.Lazy.Key
	}
	return e.Object.Key()
}

// APIVersion is the entry's object's apiVersion, without decoding a Lazy
// one.
func (e Entry) APIVersion() string {
	if e.Object == nil && e.Lazy != nil {
		return e.Lazy.APIVersion
	}
	return e.Object.APIVersion()
}

// A LazySink takes entries whose object is Lazy (Object nil): it calls
// Entry.Obj only when it needs the object. A store gives every other
// sink, and keeps, decoded objects only.
type LazySink interface {
	Sink
	TakesLazy() bool
}

// TakesLazy reports whether sink takes Lazy entries (a nil sink, which
// sees nothing, does).
func TakesLazy(sink Sink) bool {
	if sink == nil {
		return true
	}
	l, ok := sink.(LazySink)
	return ok && l.TakesLazy()
}
