package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/cache"
)

// cacheFlags are --cache and --no-cache: where the render cache is, or
// that there is none.
type cacheFlags struct {
	dir string
	off bool
}

func (c *cacheFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&c.dir, "cache", "", "render cache directory: applications whose inputs are unchanged since a render are not rendered again (default: drydock's directory under the user cache directory)")
	fs.BoolVar(&c.off, "no-cache", false, "render every application, reading and writing no render cache")
}

// open opens the render cache the flags name; nil with --no-cache. A
// cache that does not open is a warning on stderr, and no cache.
func (c *cacheFlags) open(stderr io.Writer) *cache.Store {
	if c.off {
		return nil
	}
	dir := c.dir
	if dir == "" {
		d, err := cache.DefaultDir()
		if err != nil {
			fmt.Fprintf(stderr, "drydock: warning: render cache: %s (rendering without it)\n", err)
			return nil
		}
		dir = d
	}
	s, err := cache.Open(cache.Options{Dir: dir})
	if err != nil {
		fmt.Fprintf(stderr, "drydock: warning: render cache: %s (rendering without it)\n", err)
		return nil
	}
	return s
}

// closeCache closes s, warning on stderr about a failure to write it
// (cacheErr, the render's) or to trim it.
func closeCache(s *cache.Store, cacheErr error, stderr io.Writer) {
	if cacheErr != nil {
		fmt.Fprintf(stderr, "drydock: warning: render cache: %s\n", cacheErr)
	}
	if err := s.Close(); err != nil {
		fmt.Fprintf(stderr, "drydock: warning: render cache: %s\n", err)
	}
}
