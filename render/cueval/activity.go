package cueval

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Activity is the CUE evaluation an Engine is running: what a watchdog
// names when the evaluation exceeds a time or memory limit.
type Activity struct {
	// Pos is where what is evaluated was authored: the definition, or the
	// Application field holding the expression.
	Pos manifest.Pos
	// What names it: `application "shop": ComponentDefinition "webservice"`.
	What string
	// Since is when the evaluation started.
	Since time.Time
}

// activity is an Engine's current evaluation, readable from any goroutine.
type activity struct {
	cur atomic.Pointer[Activity]
	app string // the application being rendered (engine goroutine only)
}

// Activity returns the evaluation the engine is running, if any. Unlike
// the rest of Engine, it is safe to call from any goroutine: a watchdog
// polls it (see pipeline).
func (e *Engine) Activity() (Activity, bool) {
	a := e.act.cur.Load()
	if a == nil {
		return Activity{}, false
	}
	return *a, true
}

// Begin records the start of an evaluation of what (authored at pos) for
// Activity to report; the returned function records its end. Within
// ForApplication, what is prefixed with the application.
func (e *Engine) Begin(pos manifest.Pos, what string) func() {
	if e.act.app != "" {
		what = fmt.Sprintf("application %q: %s", e.act.app, what)
	}
	e.act.cur.Store(&Activity{Pos: pos, What: what, Since: time.Now()})
	return func() { e.act.cur.Store(nil) }
}

// ForApplication makes Activity name application app (`application
// "shop": ...`) until the returned function is called.
func (e *Engine) ForApplication(app string) (end func()) {
	e.act.app = app
	return func() { e.act.app = "" }
}

// beginDef records the start of an evaluation of definition d.
func (e *Engine) beginDef(d *render.Definition) func() {
	pos := d.Source
	if !pos.IsValid() {
		pos = manifest.Pos{File: d.TemplateFile, Line: 1, Col: 1}
	}
	return e.Begin(pos, fmt.Sprintf("%s %q", d.Kind, d.Name))
}
