# drydock's developer entry points. CI runs .ci/run, which calls `make lint test`.
GO ?= go
STATICCHECK_VERSION ?= v0.8.2
FUZZTIME ?= 60s

.PHONY: build test lint vet-platforms bench fuzz tools docs

# Built as released (.goreleaser.yaml, Dockerfile): bin/drydock, the front
# (it answers version and execs the engine beside it for every other
# command), and bin/drydock-engine; static, CGO_ENABLED=0, -trimpath. With cgo on, kustomize's plugin loader (which krusty links:
# sigs.k8s.io/kustomize/api/internal/plugins/loader imports package
# plugin) makes the linker export every symbol dynamically: a 160 MB
# binary whose start dirties ~90 MiB more pages and costs ~10 ms more.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -o bin/ ./cmd/drydock ./cmd/drydock-engine

# The conformance counts first (go test hides passing tests' logs), then
# every test; go test's summary closes the output.
test:
	@$(GO) test -count=1 -run 'TestConformance|TestBuiltinsMatch' -v ./cmd/drydock-engine | grep -E 'conformance|built-ins vs' || true
	$(GO) test -count=1 ./...

# The reference pages, docs/reference/<command>.md, from the commands' flags
# (a test fails while the committed pages differ from them).
docs:
	$(GO) test -count=1 -run '^TestReferenceDocs$$' ./cmd/drydock-engine -args -update-docs

lint: tools
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$$($(GO) env GOPATH)/bin/staticcheck ./...

# go vet, tests included, for the other released platforms (windows, darwin)
# and a 32-bit one: compiling the standard library and every dependency for
# another GOOS costs minutes on a fresh machine (windows alone: ~7 min on 2
# cores), so CI does not run it; run it before a release and after touching
# platform code (build tags, syscall, x/sys/unix).
vet-platforms:
	GOOS=windows $(GO) vet ./...
	GOOS=darwin $(GO) vet ./...
	GOARCH=386 $(GO) vet ./...

tools:
	@test -x $$($(GO) env GOPATH)/bin/staticcheck || $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# Benchmarks. The CLI ones run drydock as a process per operation and report
# cpu-s/op, peak-rss-MiB and apps/s (1,000 and 10,000 apps, the cold single
# render, version, Karmada's 1,000 x 10 x 5 set, `drydock test -p` of 500,
# 1,290 and 2,580 plain manifest files); their output trees go under
# BENCH_DIR (tmpfs when there is one: file creation on some disks is noisy).
# Then the in-process library benchmarks (check: plain files streamed and
# whole, with their peak heap; charts: a 50-template chart, 100 HelmReleases
# of one chart, a Kustomization build, a helmchart component).
BENCH_DIR ?= $(shell test -d /dev/shm && test -w /dev/shm && echo /dev/shm)
bench:
	DRYDOCK_BENCH_DIR=$(BENCH_DIR) $(GO) test -run '^$$' -bench CLI -benchtime 3x ./cmd/drydock-engine/
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./pipeline/ ./render/ ./check/
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 3x ./charts/... ./render/cueval/

# Long fuzzing, one target at a time (go test -fuzz takes one package and one
# target): every parser of user bytes, then the mutation test over the corpora.
FUZZ_TARGETS = \
	FuzzParse:./fieldpath/ \
	FuzzDecode:./manifest/ \
	FuzzParse:./parsers/ \
	FuzzInventory:./cluster/ \
	FuzzParseSchedule:./karmada/propagation/ \
	FuzzParseApply:./overrides/karmada/ \
	FuzzNativePatch:./overrides/karmada/ \
	FuzzParseCUEDefinitions:./render/ \
	FuzzParseApplication:./render/ \
	FuzzParseSet:./render/addon/ \
	FuzzOpen:./charts/source/ \
	FuzzBuild:./charts/kustomize/ \
	FuzzRenderAddon:./render/addon/ \
	FuzzLoadConfig:./check/ \
	FuzzDiff:./golden/ \
	FuzzEncode:./tree/ \
	FuzzJournal:./tree/

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "== $${t%%:*}"; \
		$(GO) test -run '^$$' -fuzz "^$${t%%:*}$$" -fuzztime $(FUZZTIME) $${t#*:}; \
	done
	$(GO) test -run TestMutatedInputs ./pipeline/ -mutations 200
