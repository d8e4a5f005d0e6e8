#!/usr/bin/env bash
# Tessera build / serve / test / bench entry point.
#
#   ./build.sh build [--relay wss://...]
#                             install JS deps if needed, assemble site/ (naming the relays the
#                             new-game dialog offers; else site.json's "relays")
#   ./build.sh serve [PORT]   build, then serve site/ on http://127.0.0.1:PORT (8000), and a relay for
#                             live play on ws://127.0.0.1:8765
#   ./build.sh test           install test deps if needed, build, run every test
#   ./build.sh bench [--quick] [bench options]
#                             engine benchmarks (CPython vs Pyodide), relay load, page metrics
#
# Everything this needs is installed by the script itself: node modules
# (npm ci from the committed package-lock.json), a Python venv in .venv/
# (requirements-dev.txt), the Pyodide-side test deps in .pyodide-deps/,
# Debian's chromium when /usr/bin/chromium is missing, and Debian's
# redis-server when it is missing (the relay's Redis tests and bench start
# their own on 127.0.0.1 and stop it after).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"

VENV="$ROOT/.venv"
PYODIDE_DEPS="$ROOT/.pyodide-deps"
CHROMIUM="/usr/bin/chromium"
# Test deps installed for Pyodide (pure-Python wheels for CPython 3.14).
# hypothesis is pinned below the releases that ship a compiled part.
PYODIDE_TEST_REQS=("pytest==9.2.0" "hypothesis==6.155.7")
PYODIDE_PY_VERSION="3.14"
# The longest one test step may run (a whole run takes 9-24 minutes on 2 cores; CI stops at 90): a step past
# it is stopped and reported failed, so that one stuck for good leaves the other steps' results
# and the summary, not a CI job stopped from outside with no word of where.
STEP_LIMIT_S="${TESSERA_STEP_LIMIT_S:-3600}"
# Browser test processes (pytest-xdist), each with its own Chromium, servers and lent context,
# a test file each at a time. One left a sixth of two cores idle (pages waiting on timers,
# servers and each other); two keep both busy and took 589 s against 764.
BROWSER_WORKERS="${TESSERA_BROWSER_WORKERS:-2}"

say() { printf '==> %s\n' "$*"; }
die() { printf 'build.sh: error: %s\n' "$*" >&2; exit 1; }

hash_of() { # stdin -> short sha256
  sha256sum | cut -c1-16
}

as_root() {
  if [ "$(id -u)" = "0" ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root (or sudo) to run: $*"
  fi
}

# pip install into the venv (or --target), hiding this machine's warnings
# about unreachable extra index locations; keeps pip's exit code.
pip_install() {
  local rc=0
  set +e
  { "$VENV/bin/python" -m pip install -q --disable-pip-version-check "$@" 2>&1 1>&3 \
      | grep -v "^WARNING: Location '" >&2; rc=${PIPESTATUS[0]}; } 3>&1
  set -e
  return "$rc"
}

host_python() {
  command -v python3 >/dev/null 2>&1 || die "python3 not found"
  echo python3
}

# --------------------------------------------------------------------- deps --

ensure_node_modules() {
  command -v node >/dev/null 2>&1 || die "node (>= 20) not found"
  command -v npm >/dev/null 2>&1 || die "npm not found"
  local want have=""
  want="$(cat package.json package-lock.json | hash_of)"
  [ -f node_modules/.tessera-stamp ] && have="$(cat node_modules/.tessera-stamp)"
  if [ ! -d node_modules ] || [ "$want" != "$have" ]; then
    say "npm ci (node_modules missing or stale)"
    npm ci --no-audit --no-fund --loglevel=error >/dev/null
    echo "$want" > node_modules/.tessera-stamp
  fi
}

ensure_venv() {
  local py want have=""
  py="$(host_python)"
  want="$( (cat requirements-dev.txt; "$py" -c 'import sys; print(sys.version)') | hash_of)"
  [ -f "$VENV/.tessera-stamp" ] && have="$(cat "$VENV/.tessera-stamp")"
  if [ ! -x "$VENV/bin/python" ] || [ "$want" != "$have" ]; then
    say "creating Python venv in .venv (requirements-dev.txt)"
    rm -rf "$VENV"
    if ! "$py" -m venv "$VENV" >/dev/null 2>&1; then
      say "python3 -m venv failed; installing python3-venv"
      as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
      as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq python3-venv >/dev/null
      rm -rf "$VENV"
      "$py" -m venv "$VENV"
    fi
    pip_install -r requirements-dev.txt
    echo "$want" > "$VENV/.tessera-stamp"
  fi
}

ensure_chromium() {
  if [ ! -x "$CHROMIUM" ]; then
    say "installing Debian chromium + chromium-driver"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq chromium chromium-driver >/dev/null
    [ -x "$CHROMIUM" ] || die "$CHROMIUM still missing after apt-get install"
  fi
}

ensure_redis() {
  if ! command -v redis-server >/dev/null 2>&1; then
    say "installing Debian redis-server (the relay's Redis tests and bench run their own)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq redis-server >/dev/null
    command -v redis-server >/dev/null 2>&1 || die "redis-server still missing after apt-get install"
  fi
}

ensure_pyodide_deps() {
  local want have=""
  want="$(printf '%s\n' "${PYODIDE_TEST_REQS[@]}" "$PYODIDE_PY_VERSION" | hash_of)"
  [ -f "$PYODIDE_DEPS/.tessera-stamp" ] && have="$(cat "$PYODIDE_DEPS/.tessera-stamp")"
  if [ ! -d "$PYODIDE_DEPS" ] || [ "$want" != "$have" ]; then
    say "installing Pyodide test deps into .pyodide-deps (${PYODIDE_TEST_REQS[*]})"
    rm -rf "$PYODIDE_DEPS"
    pip_install --no-compile \
      --target "$PYODIDE_DEPS" --python-version "$PYODIDE_PY_VERSION" \
      --only-binary=:all: --implementation py --abi none --platform any \
      "${PYODIDE_TEST_REQS[@]}"
    echo "$want" > "$PYODIDE_DEPS/.tessera-stamp"
  fi
}

# -------------------------------------------------------------------- build --

cmd_build() {
  ensure_node_modules
  "$(host_python)" scripts/build_site.py site "$@"
}

RELAY_PORT=8765   # the app's default relay for a page served from this machine (ui/remote/setup.py)

# Start a relay for live play on 127.0.0.1:$RELAY_PORT in the background (rooms in memory), so two
# tabs of the served site can play each other; its pid goes in RELAY_PID.  Never fatal: without
# the venv or with the port taken, the site is served all the same and the reason is said.
start_local_relay() {
  RELAY_PID=""
  if ! ( ensure_venv ) >&2; then
    say "no relay for live play: the Python venv could not be made (the site is served without it)"
    return 0
  fi
  local out
  out="$(mktemp)"
  PYTHONPATH="$ROOT/py" PYTHONDONTWRITEBYTECODE=1 "$VENV/bin/python" -m tessera relay --port "$RELAY_PORT" \
    >"$out" 2>&1 &
  RELAY_PID=$!
  local waited=0
  until grep -q "relay listening" "$out" 2>/dev/null || ! kill -0 "$RELAY_PID" 2>/dev/null || [ "$waited" -ge 100 ]; do
    sleep 0.1
    waited=$((waited + 1))
  done
  if grep -q "relay listening" "$out"; then
    say "relay for live play at ws://127.0.0.1:$RELAY_PORT (\"A friend online\" finds it; open the invite in a private window)"
  else
    say "no relay for live play: $(tail -n 1 "$out")"
    kill "$RELAY_PID" 2>/dev/null || true
    RELAY_PID=""
  fi
  rm -f "$out"
}

cmd_serve() {
  local port="${1:-8000}" serve_pid
  cmd_build
  start_local_relay
  say "serving site/ (Ctrl-C to stop) at:"
  # Both servers in the background and this shell waiting on them, so Ctrl-C or a TERM stops both.
  "$(host_python)" scripts/serve.py --root site --port "$port" &
  serve_pid=$!
  trap 'kill "$serve_pid" $RELAY_PID 2>/dev/null; wait; exit 130' INT TERM
  trap 'kill "$serve_pid" $RELAY_PID 2>/dev/null || true' EXIT
  wait "$serve_pid"
}

# --------------------------------------------------------------------- test --

# Results of each step: name|status|detail
RESULTS=()
TOTAL_PASSED=0
TOTAL_FAILED=0
TOTAL_SKIPPED=0

# Add up the counts of pytest's closing line found in a log file; the line
# itself (without the ===) goes to $SUMMARY.
SUMMARY=""
count_pytest() {
  local log="$1" line n
  line="$(grep -E '^=+ .*( in [0-9.]+s).* =+$' "$log" | tail -n 1 || true)"
  n="$(grep -oE '[0-9]+ passed' <<<"$line" | grep -oE '[0-9]+' || echo 0)"; TOTAL_PASSED=$((TOTAL_PASSED + n))
  n="$(grep -oE '[0-9]+ failed' <<<"$line" | grep -oE '[0-9]+' || echo 0)"; TOTAL_FAILED=$((TOTAL_FAILED + n))
  n="$(grep -oE '[0-9]+ errors?' <<<"$line" | grep -oE '[0-9]+' || echo 0)"; TOTAL_FAILED=$((TOTAL_FAILED + n))
  n="$(grep -oE '[0-9]+ skipped' <<<"$line" | grep -oE '[0-9]+' || echo 0)"; TOTAL_SKIPPED=$((TOTAL_SKIPPED + n))
  SUMMARY="$(sed -E 's/^=+ (.*) =+$/\1/' <<<"$line")"
}

# run_step NAME ALLOW_EMPTY LOG -- command...: run it here, its output shown as it goes.
run_step() {
  local name="$1" allow_empty="$2" log="$3"; shift 4
  local rc=0 start
  say "$name"
  start=$(date +%s)
  set +e
  # --foreground: the step stays in the terminal's process group, so Ctrl-C reaches it.
  timeout --foreground -k 30 "$STEP_LIMIT_S" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  record_step "$name" "$allow_empty" "$log" "$rc" "$start"
}

# start_step LOG -- command...: run it in the background (its output to LOG, its exit code to
# LOG.rc, its start time to LOG.start); finish_step waits for it. Steps that each use one core
# run side by side on a machine with two.
start_step() {
  local log="$1"; shift 2
  date +%s >"$log.start"
  ( set +e; timeout -k 30 "$STEP_LIMIT_S" "$@" >"$log" 2>&1; echo $? >"$log.rc" ) &
  echo $! >"$log.pid"
}

# finish_step NAME ALLOW_EMPTY LOG: wait for a step start_step began, show its output, count it.
finish_step() {
  local name="$1" allow_empty="$2" log="$3"
  wait "$(cat "$log.pid")" || true
  say "$name"
  cat "$log"
  record_step "$name" "$allow_empty" "$log" "$(cat "$log.rc" 2>/dev/null || echo 1)" "$(cat "$log.start")"
}

record_step() {
  local name="$1" allow_empty="$2" log="$3" rc="$4" start="$5" end summary
  end=$(date +%s)
  count_pytest "$log"
  summary="$SUMMARY"
  [ -n "$summary" ] || summary="(no pytest summary line)"
  if [ "$rc" = "124" ] || [ "$rc" = "137" ]; then
    RESULTS+=("$name|FAIL|stopped after ${STEP_LIMIT_S}s (TESSERA_STEP_LIMIT_S): $summary")
  elif [ "$rc" = "0" ]; then
    RESULTS+=("$name|ok|$summary, $((end - start))s")
  elif [ "$rc" = "5" ] && [ "$allow_empty" = "yes" ]; then
    RESULTS+=("$name|ok|no browser tests yet (pytest exit 5), $((end - start))s")
  elif [ "$rc" = "5" ]; then
    RESULTS+=("$name|FAIL|no tests collected (pytest exit 5)")
  else
    RESULTS+=("$name|FAIL|exit $rc: $summary, $((end - start))s")
  fi
}

cmd_test() {
  ensure_node_modules
  ensure_venv
  ensure_chromium
  ensure_redis
  ensure_pyodide_deps

  local logs
  logs="$(mktemp -d)"
  # A step started in the background ignores Ctrl-C (a script's background jobs do): stop it too.
  stop_steps() { for f in "$logs"/*.pid; do [ -f "$f" ] && pkill -P "$(cat "$f")" 2>/dev/null; done; }
  trap 'stop_steps; exit 130' INT TERM
  export PYTHONDONTWRITEBYTECODE=1

  # Everything runs at once, the browser tests in front, in two processes: they are most of the
  # time. The engine tests, in Pyodide and in CPython, run at a lower priority (nice), so the
  # browser tests lose little to them (the Pyodide ones need no build and start first); what
  # they cannot run meanwhile they run once the browser tests end. The relay tests mostly wait
  # (for a paused Redis, for rooms to expire) and keep their priority.
  start_step "$logs/pyodide.log" -- nice -n 10 node tests/pyodide/run_tests.mjs tests/unit
  "$(host_python)" scripts/build_site.py site || { stop_steps; die "the build failed"; }
  # The browser fixtures would rebuild otherwise; we just built.
  export TESSERA_SITE_BUILT=1
  start_step "$logs/unit.log" -- nice -n 10 "$VENV/bin/python" -m pytest -p no:cacheprovider tests/unit
  start_step "$logs/relay.log" -- "$VENV/bin/python" -m pytest -p no:cacheprovider tests/relay
  run_step "browser tests (Playwright, Chromium)" \
    yes "$logs/browser.log" -- \
    "$VENV/bin/python" -m pytest -p no:cacheprovider -n "$BROWSER_WORKERS" --dist loadfile --reruns 1 --only-rerun "(Target|Page) crashed" --durations=15 tests/browser
  finish_step "unit tests (CPython $("$VENV/bin/python" -c 'import platform; print(platform.python_version())'), beside them)" \
    no "$logs/unit.log"
  finish_step "relay tests (CPython, beside them)" no "$logs/relay.log"
  finish_step "unit tests (Pyodide $PYODIDE_PY_VERSION under Node, from the start)" no "$logs/pyodide.log"

  echo
  echo "## Test summary"
  echo
  local failed=0 r name status detail
  for r in "${RESULTS[@]}"; do
    IFS='|' read -r name status detail <<<"$r"
    printf '  %-4s  %s: %s\n' "$status" "$name" "$detail"
    [ "$status" = "ok" ] || failed=1
  done
  echo
  echo "total: $TOTAL_PASSED passed, $TOTAL_FAILED failed, $TOTAL_SKIPPED skipped"
  rm -rf "$logs"
  if [ "$failed" != "0" ]; then
    echo "build.sh test: FAILED" >&2
    return 1
  fi
  echo "build.sh test: all steps passed"
}

# -------------------------------------------------------------------- bench --

cmd_bench() {
  ensure_node_modules
  ensure_venv
  ensure_chromium
  ensure_redis
  cmd_build
  PYTHONDONTWRITEBYTECODE=1 "$VENV/bin/python" tests/bench/run.py "$@"
}

# --------------------------------------------------------------------- main --

usage() {
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
}

main() {
  local cmd="${1:-}"
  [ $# -gt 0 ] && shift
  case "$cmd" in
    build) cmd_build "$@" ;;
    serve) cmd_serve "$@" ;;
    test) cmd_test "$@" ;;
    bench) cmd_bench "$@" ;;
    -h|--help|help|"") usage ;;
    *) usage >&2; die "unknown command: $cmd" ;;
  esac
}

main "$@"
