package check

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkPlainFiles checks n plain manifest files of four documents
// each, in process, streamed (what drydock test does) and whole (every
// file read before the rules run), and reports besides -benchmem's
// figures the highest heap the run reached (peak-heap-MiB, sampled every
// millisecond): streamed, it stays flat as n grows. The CLI's peak RSS is
// BenchmarkCLIPlainFiles* in cmd/drydock-engine.
func BenchmarkPlainFiles(b *testing.B) {
	for _, n := range []int{500, 1290, 2580} {
		dir := b.TempDir()
		files := map[string]string{"policy/main.rego": streamPolicy}
		for i := range n {
			files[fmt.Sprintf("in/team-%02d/app-%04d.yaml", i/100, i)] = benchManifest(i)
		}
		writeFiles(b, dir, files)
		cfg := &Config{Dir: dir}
		s := Suite{Name: "p", Plain: true, Inputs: []string{"in"}, Policies: []string{"policy"}}
		for _, mode := range []string{"streamed", "whole"} {
			b.Run(fmt.Sprintf("files=%d/%s", n, mode), func(b *testing.B) {
				b.ReportAllocs()
				peak := sampleHeap()
				for b.Loop() {
					r := newRunner(cfg, Options{})
					r.renderWorkers = runtime.GOMAXPROCS(0)
					var res *SuiteResult
					if mode == "streamed" {
						res = r.plainSuite(context.Background(), s)
					} else {
						res = r.plainWhole(context.Background(), s)
					}
					if res.Err != nil || res.Objects != 4*n {
						b.Fatalf("%d objects, error %v", res.Objects, res.Err)
					}
				}
				b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
			})
		}
	}
}

// benchManifest is a file of four documents, a few KB.
func benchManifest(i int) string {
	var data strings.Builder
	for k := range 30 {
		fmt.Fprintf(&data, "  key_%02d: \"a value of configuration %d for application %d\"\n", k, k, i)
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web-%[1]d, namespace: team-%[2]d}
spec:
  replicas: 2
  selector: {matchLabels: {app: web-%[1]d}}
  template:
    metadata: {labels: {app: web-%[1]d}}
    spec:
      containers:
        - name: web
          image: registry.example.com/web:%[1]d
          ports: [{containerPort: 8080}]
          env: [{name: INDEX, value: "%[1]d"}]
---
apiVersion: v1
kind: Service
metadata: {name: web-%[1]d, namespace: team-%[2]d, labels: {app: web}}
spec:
  selector: {app: web-%[1]d}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-%[1]d, namespace: team-%[2]d}
data:
%[3]s---
apiVersion: v1
kind: ServiceAccount
metadata: {name: web-%[1]d, namespace: team-%[2]d}
`, i, i%10, data.String())
}

// sampleHeap samples the heap's objects every millisecond until the
// returned function is called, which gives the highest sample.
func sampleHeap() func() uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}
