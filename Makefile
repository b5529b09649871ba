# evalkit's developer commands. `make test` is what CI runs (.ci/run).
GO        ?= go
GOTESTSUM  = $(GO) tool -modfile=tools/go.mod gotestsum
PKGS       = ./...

.PHONY: test race record demo lint bench bench-all buildcost cover report fuzz checks sdktest

## test: lint, then every test of every package (the CI command)
test: lint
	$(GOTESTSUM) --format pkgname-and-test-fails -- -count=1 $(PKGS)

## sdktest: agents written with the real SDKs (openai-go, anthropic-sdk-go, go-openai, langchaingo),
## replayed with no key and no network, from their own module (sdktest/go.mod); then every committed
## recording of the repository is verified (evalkit golden verify)
sdktest:
	cd sdktest && $(GO) vet ./... && $(GO) test -count=1 ./...
	$(GO) run ./cmd/evalkit golden verify

## race: every test under the race detector (assert's take ~8 minutes on a busy 2-core machine:
## past go test's default 10-minute limit a little load would be a failure, so the limit is 30)
race:
	$(GOTESTSUM) --format pkgname-and-test-fails -- -race -count=1 -timeout 30m $(PKGS)

## record: record the judge verdicts and model calls tests lack (asks the live APIs; needs their keys)
record:
	EVALKIT_MODE=record $(GO) test -count=1 $(PKGS)

## demo: the main job on real data: assert on 22 real τ-bench agent runs, verbose
demo:
	$(GO) test -count=1 -v -run '^TestTauBench' .

## report: every test with a results file, then report.html and report.md (evalkit report)
report:
	rm -f $(CURDIR)/results.jsonl
	-EVALKIT_REPORT=$(CURDIR)/results.jsonl $(GO) test -count=1 $(PKGS)
	$(GO) run ./cmd/evalkit report -html report.html -md report.md results.jsonl

## lint: gofmt and go vet must be clean
lint:
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet $(PKGS)

## fuzz: every fuzz target of every package for FUZZTIME each, one at a time
## (go test -fuzz takes one target per package per run); crashers land in the
## package's testdata/fuzz, to commit as regression seeds
FUZZTIME  ?= 30s
FUZZFLAGS ?= -fuzzminimizetime=10s
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "fuzz: $$pkg $$target for $(FUZZTIME)"; \
			$(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) $$pkg; \
		done; \
	done


## bench: issue 8's and issue 21's (the real corpus: BenchmarkCorpus*) benchmarks beside their baselines, $(BENCH_COUNT) runs of -count=1 (so the i-th results of a
## benchmark and its baseline are minutes closer than -count=n would put them), into bench.txt, then the ratios (BENCHMARKS.md)
BENCH_COUNT ?= 5
BENCH       = for i in $$(seq $(BENCH_COUNT)); do $(GO) test -run '^$$' -benchmem -count=1
bench:
	@rm -f bench.txt
	@echo "go test -bench ... >> bench.txt (a few minutes)"
	$(BENCH) -benchtime=0.3s -bench 'ChainVsHandWritten|JSONPathParseOnce|JSONSchemaVsValidateOnly' ./assert ./evaltest || exit 1; done >> bench.txt
	$(BENCH) -benchtime=0.3s -bench '^BenchmarkCorpus' . ./assert ./evaltest || exit 1; done >> bench.txt
	$(BENCH) -benchtime=2000x -bench 'ReplayVsFixedFake' ./golden || exit 1; done >> bench.txt
	$(BENCH) -benchtime=1s -bench '^BenchmarkLoad$$' ./golden || exit 1; done >> bench.txt
	$(BENCH) -benchtime=1x -bench 'RecordDurably/entries=1000/(baseline|journal)' ./golden || exit 1; done >> bench.txt
	$(BENCH) -benchtime=1x -bench 'JudgeThroughput' ./evaltest || exit 1; done >> bench.txt
	$(BENCH) -benchtime=0.5s -bench '^BenchmarkScale$$' . || exit 1; done >> bench.txt
	$(BENCH) -benchtime=20x -bench '^BenchmarkRedact$$' ./internal/secret || exit 1; done >> bench.txt
	$(GO) run ./internal/cmd/benchratio bench.txt

## bench-all: every benchmark of every package once, with allocations
bench-all:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

## buildcost: the cold compile of a user's test package importing evaltest and openaijudge (empty GOCACHE), and its modules
buildcost:
	$(GO) run ./internal/cmd/buildcost

## cover: coverage profile and per-function summary
cover:
	$(GO) test -count=1 -coverprofile=coverage.out $(PKGS)
	$(GO) tool cover -func=coverage.out | tail -n 1

## checks: regenerate CHECKS.md, the check reference, from the registry (TestChecksMarkdown compares it)
checks:
	$(GO) run ./cmd/evalkit checks -md > CHECKS.md
