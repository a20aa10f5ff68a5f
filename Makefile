# The one command that runs every check: make test
GO ?= go

.PHONY: test deps vet fmt-check unit bench fuzz build demo

test: deps fmt-check vet unit

# The pinned ACP SDK (its JSON Schema validates every message the tests see).
deps: e2e/node_modules/.package-lock.json

e2e/node_modules/.package-lock.json: e2e/package.json e2e/package-lock.json
	npm ci --prefix e2e --no-audit --no-fund

build:
	$(GO) build ./...

demo:
	$(GO) run ./cmd/dsh-acp demo

fmt-check:
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	$(GO) test -race -count=1 ./...

# Benchmarks recorded in docs/benchmarks.md.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Each fuzz target for FUZZTIME (default 60s).
FUZZTIME ?= 60s
fuzz:
	$(GO) test ./jsonvalue -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./schema -run '^$$' -fuzz '^FuzzCompileValidate$$' -fuzztime $(FUZZTIME)
	$(GO) test ./registry -run '^$$' -fuzz '^FuzzMaterializeValidate$$' -fuzztime $(FUZZTIME)
