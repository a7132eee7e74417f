package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drydock-dev/drydock/report"
)

// interactive reports whether w is a terminal a person watches: a
// character device, TERM not dumb, not a CI run (CI logs are no
// terminal, whatever they emulate).
func interactive(w io.Writer) bool {
	f, ok := raw(w).(*os.File)
	if !ok || os.Getenv("CI") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// raw is the writer under run's wrappers of stdout and stderr: where
// drydock's own sequences (colours, the progress line) go as they are.
func raw(w io.Writer) io.Writer {
	for {
		switch x := w.(type) {
		case *report.StickyWriter:
			w = x.W
		case *report.PrintableWriter:
			w = x.W
		default:
			return w
		}
	}
}

// colour reports whether output to w may be coloured: a terminal, and
// NO_COLOR (no-color.org) not set.
func colour(w io.Writer) bool { return interactive(w) && os.Getenv("NO_COLOR") == "" }

// progress shows how far a run is ("rendered N/M applications") on a
// terminal's last line for runs that take over a second; it writes
// nothing elsewhere.
type progress struct {
	w          io.Writer
	what       string // "rendered %d/%d applications"
	done, all  atomic.Int64
	stop, quit chan struct{}
	once       sync.Once
	shown      bool
}

// startProgress returns a progress line on w, or nil when w is not a
// terminal; its update method is the render's Inputs.Progress.
func startProgress(w io.Writer, what string) *progress {
	if !interactive(w) {
		return nil
	}
	p := &progress{w: raw(w), what: what, stop: make(chan struct{}), quit: make(chan struct{})}
	go p.run()
	return p
}

func (p *progress) update(done, total int) {
	p.done.Store(int64(done))
	p.all.Store(int64(total))
}

func (p *progress) run() {
	defer close(p.quit)
	delay := time.NewTimer(time.Second)
	defer delay.Stop()
	select {
	case <-p.stop:
		return
	case <-delay.C:
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if all := p.all.Load(); all > 0 {
			fmt.Fprintf(p.w, "\r\x1b[Kdrydock: "+p.what, p.done.Load(), all)
			p.shown = true
		}
		select {
		case <-p.stop:
			if p.shown {
				fmt.Fprint(p.w, "\r\x1b[K")
			}
			return
		case <-tick.C:
		}
	}
}

// end clears the line; safe on a nil progress.
func (p *progress) end() {
	if p == nil {
		return
	}
	p.once.Do(func() { close(p.stop); <-p.quit })
}
