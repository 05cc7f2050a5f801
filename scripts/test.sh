#!/usr/bin/env bash
# The test command of the README: unit and in-process suites, then the compiled binary and the
# real browser. Installs what a fresh machine lacks (dependencies, Debian's Chromium and PostgreSQL
# server; the PostgreSQL suites start their own throw-away clusters, test/support/postgres.ts).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

[ -x node_modules/.bin/bun ] || npm ci --no-audit --no-fund

# Debian package $1 unless $2 already matches an installed file.
install_when_missing() {
  compgen -G "$2" >/dev/null && return
  echo "installing Debian's $1 for the suites that need it"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null) \
    || echo "could not install $1; the suites that need it will report it"
}
install_when_missing chromium /usr/bin/chromium
install_when_missing postgresql "/usr/lib/postgresql/*/bin/initdb"
install_when_missing osmium-tool /usr/bin/osmium

mkdir -p .tmp
bun run build || exit 1
# One throw-away PostgreSQL cluster for the whole run (WAYBILL_TEST_POSTGRES_URL), stopped at the end.
bun scripts/with-postgres.ts bun test "$@" 2>&1 | tee .tmp/test.log
status=${PIPESTATUS[0]}
passed=$(grep -Eo '^ *[0-9]+ pass' .tmp/test.log | grep -Eo '[0-9]+' | tail -1)
failed=$(grep -Eo '^ *[0-9]+ fail' .tmp/test.log | grep -Eo '[0-9]+' | tail -1)
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$status"
