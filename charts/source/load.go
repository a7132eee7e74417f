package source

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"

	"helm.sh/helm/v4/pkg/chart/loader/archive"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/ignore"
)

// loaded is the process-wide store of loaded charts, keyed by content
// (the SHA-256 of a package's bytes, or of a directory's file names
// and contents): two caches, or two revisions of a repository, holding
// the same chart share one *chart.Chart.
var loaded struct {
	mu sync.Mutex
	m  map[[32]byte]*loadOnce
}

type loadOnce struct {
	once sync.Once
	ch   *chart.Chart
	err  error
}

// LoadCount is how many charts Helm's loader has parsed in this
// process: a (chart, version) asked for again, by any Cache, is not
// parsed again.
func LoadCount() int64 {
	loadMu.Lock()
	defer loadMu.Unlock()
	return loadCount
}

var (
	loadMu    sync.Mutex
	loadCount int64
)

// shared returns the chart for key, running load once per process.
func shared(key [32]byte, load func() (*chart.Chart, error)) (*chart.Chart, error) {
	loaded.mu.Lock()
	if loaded.m == nil {
		loaded.m = map[[32]byte]*loadOnce{}
	}
	l, ok := loaded.m[key]
	if !ok {
		l = &loadOnce{}
		loaded.m[key] = l
	}
	loaded.mu.Unlock()
	l.once.Do(func() {
		loadMu.Lock()
		loadCount++
		loadMu.Unlock()
		l.ch, l.err = load()
	})
	return l.ch, l.err
}

// loadArchive loads a packaged chart (.tgz bytes) named file.
func loadArchive(file string, data []byte) (*chart.Chart, error) {
	key := sha256.Sum256(data)
	ch, err := shared(key, func() (*chart.Chart, error) {
		return loader.LoadArchive(bytes.NewReader(data))
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadChart, file, err)
	}
	return ch, nil
}

// loadDir loads the chart directory dir as Helm's loader.LoadDir does
// (.helmignore and its defaults honoured, a UTF-8 BOM trimmed), through
// f.
func loadDir(f fsys, dir string) (*chart.Chart, error) {
	files, err := readChartDir(f, dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadChart, dir, err)
	}
	h := sha256.New()
	var n [8]byte
	for _, bf := range files {
		binary.LittleEndian.PutUint64(n[:], uint64(len(bf.Name)))
		h.Write(n[:])
		h.Write([]byte(bf.Name))
		binary.LittleEndian.PutUint64(n[:], uint64(len(bf.Data)))
		h.Write(n[:])
		h.Write(bf.Data)
	}
	var key [32]byte
	copy(key[:], h.Sum(nil))
	ch, err := shared(key, func() (*chart.Chart, error) { return loader.LoadFiles(files) })
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadChart, dir, err)
	}
	return ch, nil
}

var utf8bom = []byte{0xEF, 0xBB, 0xBF}

// readChartDir reads the files of a chart directory in the order
// Helm's loader walks them (lexical, directory by directory): the
// order of .Files and of crds/.
func readChartDir(f fsys, dir string) ([]*archive.BufferedFile, error) {
	rules := ignore.Empty()
	if data, err := f.readFile(f.join(dir, ignore.HelmIgnore)); err == nil {
		r, err := ignore.Parse(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		rules = r
	}
	rules.AddDefaults()
	var files []*archive.BufferedFile
	var walk func(rel string) error
	walk = func(rel string) error {
		entries, err := f.readDir(f.join(dir, rel))
		if err != nil {
			return err
		}
		for _, e := range entries {
			n := e.Name()
			if rel != "" {
				n = rel + "/" + n
			}
			fi, err := f.stat(f.join(dir, n))
			if err != nil {
				return err
			}
			if fi.IsDir() {
				if !rules.Ignore(n, fi) {
					if err := walk(n); err != nil {
						return err
					}
				}
				continue
			}
			if rules.Ignore(n, fi) {
				continue
			}
			if !fi.Mode().IsRegular() {
				return fmt.Errorf("cannot load irregular file %s as it has file mode type bits set", n)
			}
			data, err := f.readFile(f.join(dir, n))
			if err != nil {
				return fmt.Errorf("error reading %s: %w", n, err)
			}
			files = append(files, &archive.BufferedFile{Name: n, ModTime: fi.ModTime(), Data: bytes.TrimPrefix(data, utf8bom)})
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, err
	}
	return files, nil
}

// isChartDir reports whether dir holds a Chart.yaml.
func isChartDir(f fsys, dir string) bool {
	return f.isFile(f.join(dir, "Chart.yaml"))
}

// trimSlash drops a URL's trailing slashes.
func trimSlash(u string) string { return strings.TrimRight(u, "/") }
