package report

import (
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/shards"
)

// Source is where something comes from, as the JSON formats write it
// (shards.Source: a place and what produced the object).
type Source = shards.Source

// SourceOf is the Source of a place and an object's origin (either may
// be zero); nil when both say nothing.
func SourceOf(pos manifest.Pos, o cluster.Origin) *Source {
	s := &Source{File: pos.File, Line: pos.Line, Column: pos.Col,
		Application: o.Application, Component: o.Component, Trait: o.Trait, Policy: o.Policy}
	if *s == (Source{}) {
		return nil
	}
	return s
}

// EntrySource is the Source of an object in a fake cluster: where its
// producer is authored (its origin, else the object's own place), who
// produced it, and render's description of the writer.
func EntrySource(e cluster.Entry) *Source {
	pos := e.Origin.Pos
	if !pos.IsValid() && e.Object != nil {
		pos = e.Object.Pos
	}
	s := SourceOf(pos, e.Origin)
	if s == nil {
		s = &Source{}
	}
	s.Text = e.Source
	if *s == (Source{}) {
		return nil
	}
	return s
}
