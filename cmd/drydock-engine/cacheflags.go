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

// The flags' help of the commands that render (test has its own words).
const (
	cacheUsage   = "render cache directory: applications whose inputs are unchanged since a render are not rendered again (default: drydock's directory under the user cache directory)"
	noCacheUsage = "render every application, reading and writing no render cache"
)

func (c *cacheFlags) register(fs *pflag.FlagSet, cacheHelp, noCacheHelp string) {
	fs.StringVar(&c.dir, "cache", "", cacheHelp)
	fs.BoolVar(&c.off, "no-cache", false, noCacheHelp)
}

// open opens the render cache the flags name; nil with --no-cache. A
// cache that does not open is no cache, and a warning on stderr (how
// says what the command does without it) unless quietDefault is set and
// it is the default directory, which the user did not ask for.
func (c *cacheFlags) open(stderr io.Writer, how string, quietDefault bool) *cache.Store {
	if c.off {
		return nil
	}
	dir := c.dir
	if dir == "" {
		d, err := cache.DefaultDir()
		if err != nil {
			if !quietDefault {
				fmt.Fprintf(stderr, "drydock: warning: render cache: %s (%s)\n", err, how)
			}
			return nil
		}
		dir = d
	}
	s, err := cache.Open(cache.Options{Dir: dir})
	if err != nil {
		if !quietDefault || c.dir != "" {
			fmt.Fprintf(stderr, "drydock: warning: render cache: %s (%s)\n", err, how)
		}
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
