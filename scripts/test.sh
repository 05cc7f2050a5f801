#!/usr/bin/env bash
# The test command of the README: unit and in-process suites, then the compiled binary and the
# real browser. Installs what a fresh machine lacks (dependencies, Debian's Chromium).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

[ -x node_modules/.bin/bun ] || npm ci --no-audit --no-fund

if [ ! -x /usr/bin/chromium ]; then
  echo "installing Debian's chromium for the browser tests"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "could not install chromium; the browser suite will report it"
fi

mkdir -p .tmp
bun run build || exit 1
bun test --timeout 60000 "$@" 2>&1 | tee .tmp/test.log
status=${PIPESTATUS[0]}
passed=$(grep -Eo '^ *[0-9]+ pass' .tmp/test.log | grep -Eo '[0-9]+' | tail -1)
failed=$(grep -Eo '^ *[0-9]+ fail' .tmp/test.log | grep -Eo '[0-9]+' | tail -1)
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
