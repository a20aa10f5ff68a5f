# The one command that runs every check: make test
GO ?= go

.PHONY: test deps vet cross fmt-check unit e2e vscode vscode-e2e bench spawn-bench fuzz build demo release release-test

test: deps fmt-check vet cross unit e2e vscode

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

# Every platform a release ships for, with CGO_ENABLED=0: go vet (the
# tests included) and the binary build; and every package's tests compiled
# and linked (go test -c) for Windows and macOS, where they are not run
# here (.ci/wine-tests runs some under Wine).
CROSS_TARGETS ?= darwin/arm64 darwin/amd64 linux/arm64 linux/amd64 windows/arm64 windows/amd64
CROSS_TESTS ?= windows/amd64 darwin/arm64
cross:
	@out="$$(mktemp -d)"; trap 'rm -rf "$$out"' EXIT; set -e; \
	for t in $(CROSS_TARGETS); do \
		echo "cross: vet and build $$t"; \
		CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./...; \
		CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -o "$$out/$$t/" ./cmd/dsh-acp; \
	done; \
	for t in $(CROSS_TESTS); do \
		echo "cross: compile the tests for $$t"; \
		CGO_ENABLED=0 GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) test -c -o "$$out/$$t/" ./...; \
	done

# End to end: the built binary driven over stdio by the official ACP
# TypeScript SDK (Node 20+), with Zed's initialize and a scripted model.
e2e: deps
	@bin="$$(mktemp -d)"; trap 'rm -rf "$$bin"' EXIT; \
	$(GO) build -o "$$bin/dsh-acp" ./cmd/dsh-acp && \
	DSH_ACP_BIN="$$bin/dsh-acp" node --test e2e/

# The VS Code extension (editors/vscode): strict type check, ESLint, unit tests
# with a stub vscode module, and its ACP client against the built binary.
vscode:
	@bin="$$(mktemp -d)"; trap 'rm -rf "$$bin"' EXIT; \
	$(GO) build -o "$$bin/dsh-acp" ./cmd/dsh-acp && \
	cd editors/vscode && npm ci --no-audit --no-fund && npm run typecheck && npm run lint && npm test && \
	DSH_ACP_BIN="$$bin/dsh-acp" npm run test:protocol

# The extension in a real VS Code: code-server and Debian's chromium
# driven by playwright-core (editors/vscode/e2e/README.md). The setup
# installs them once (apt needs root or sudo) under ~/.cache/dsh-vscode-e2e.
vscode-e2e:
	editors/vscode/e2e/setup.sh
	node editors/vscode/e2e/run.mjs

# The spawn benchmark (docs/benchmarks.md): 30 spawns of the built binary.
spawn-bench:
	$(GO) test -run '^$$' -bench Spawn -benchtime 30x ./cmd/dsh-acp

# Benchmarks recorded in docs/benchmarks.md.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Each fuzz target for FUZZTIME (default 60s).
FUZZTIME ?= 60s
fuzz:
	$(GO) test ./jsonvalue -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME)
	$(GO) test ./schema -run '^$$' -fuzz '^FuzzCompileValidate$$' -fuzztime $(FUZZTIME)
	$(GO) test ./registry -run '^$$' -fuzz '^FuzzMaterializeValidate$$' -fuzztime $(FUZZTIME)
	$(GO) test ./diffcard -run '^$$' -fuzz '^FuzzHunks$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s

# The release (internal/release): make release VERSION=x.y.z writes DIST
# (default dist/): an archive per platform with SHA256SUMS, the npm
# packages under DIST/npm, the ACP registry entry under DIST/registry.
# RELEASE_TARGETS picks platforms (default all six); RELEASE_BASE_URL is
# where the archives will be downloaded from (default the version's
# GitHub release).
DIST ?= dist
RELEASE_TARGETS ?= all
RELEASE_BASE_URL ?=
release:
	@test -n "$(VERSION)" || { echo "usage: make release VERSION=x.y.z"; exit 2; }
	rm -rf "$(DIST)"
	$(GO) run ./internal/cmd/mkrelease -version "$(VERSION)" -out "$(DIST)" -targets "$(RELEASE_TARGETS)" $(if $(RELEASE_BASE_URL),-base-url "$(RELEASE_BASE_URL)")

# The release's tests against a real release of the host's and one other
# OS's platform: reproducibility, the registry entry, the npm packages
# installed offline and driven through a turn by acpx, the platform .vsix.
# A macOS, a Linux and a Windows platform: one archive of each kind.
RELEASE_TEST_DIST ?= $(CURDIR)/.release-test
RELEASE_TEST_TARGETS ?= linux-x86_64,darwin-aarch64,windows-x86_64
ACPX_VERSION ?= 0.19.1
ACPX_DIR ?= $(HOME)/.cache/dsh-release-test/acpx-$(ACPX_VERSION)
release-test:
	$(MAKE) release VERSION=0.0.1 DIST="$(RELEASE_TEST_DIST)" RELEASE_TARGETS="$(RELEASE_TEST_TARGETS)" RELEASE_BASE_URL=https://example.invalid/releases/download/v0.0.1
	@test -x "$(ACPX_DIR)/node_modules/.bin/acpx" || npm install --prefix "$(ACPX_DIR)" --no-audit --no-fund acpx@$(ACPX_VERSION)
	@test -d editors/vscode/node_modules || (cd editors/vscode && npm ci --no-audit --no-fund)
	DSH_RELEASE_DIST="$(RELEASE_TEST_DIST)" ACPX="$(ACPX_DIR)/node_modules/.bin/acpx" $(GO) test -count=1 -v -run '^TestDist' ./internal/release
