# The one command that runs every check: make test
GO ?= go

.PHONY: test vet fmt-check unit bench fuzz build

test: fmt-check vet unit

build:
	$(GO) build ./...

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
