#!/usr/bin/env bash
# npm run check:fresh-machine — proves `npm run dev` works on a machine with nothing but Node and npm: it runs in a
# fresh network namespace (only its own loopback: no PostgreSQL on 5432, no Redis on 6379, no network), with
# DATABASE_URL, REDIS_URL and Upstash unset, then checks GET /api/health, a seeded team, and an authenticated call
# with a development token, and stops it (Ctrl-C, as a developer would) making sure nothing is left running.
# Needs `unshare` (util-linux); as root it uses `unshare -n`, otherwise a user namespace mapping the current user.
# Every wait is bounded (FRESH_CHECK_TIMEOUT seconds for the dev start, default 300); exit 0 only when all pass.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ -z "${FRESH_CHECK_INSIDE:-}" ]; then
  command -v unshare >/dev/null || { echo "fresh-machine-check: needs unshare (util-linux)"; exit 2; }
  if [ "$(id -u)" = 0 ]; then ns=(unshare --net); else ns=(unshare --map-current-user --net); fi
  exec "${ns[@]}" env -u DATABASE_URL -u REDIS_URL -u UPSTASH_REDIS_REST_URL -u UPSTASH_REDIS_REST_TOKEN -u REDIS_BACKEND \
    FRESH_CHECK_INSIDE=1 npm_config_update_notifier=false NEXT_TELEMETRY_DISABLED=1 bash "$0" "$@"
fi

ip link set lo up 2>/dev/null || { echo "fresh-machine-check: cannot bring up lo in the namespace (needs the ip command)"; exit 2; }
started=$(date +%s)
say() { echo "[fresh-machine-check +$(($(date +%s) - started))s] $*"; }
fail=0
check() { # name, expected status, curl args...
  local name=$1 want=$2
  shift 2
  local got
  got=$(curl -s -o /tmp/fresh-check-body.$$ -w '%{http_code}' --max-time 180 "$@")
  if [ "$got" = "$want" ]; then say "ok   $name → $got $(head -c 160 /tmp/fresh-check-body.$$)"; else
    say "FAIL $name → $got (want $want) $(head -c 400 /tmp/fresh-check-body.$$)"
    fail=1
  fi
}

say "network namespace: $(ip -brief addr | tr -s ' ' | tr '\n' ';')"
for p in 5432 6379; do
  if (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then say "FAIL something answers on 127.0.0.1:$p"; exit 1; fi
done
say "nothing answers on 127.0.0.1:5432 or :6379; DATABASE_URL/REDIS_URL/Upstash unset"

port=3000
log=$(mktemp /tmp/fresh-check-dev.XXXXXX)
# Its own process group, so a Ctrl-C can be sent to all of it (npm, tsx, scripts/dev.ts, next dev, postgres).
setsid npm run dev -- -p "$port" >"$log" 2>&1 &
pgid=$!
cleanup() {
  if ps -o pid= -g "$pgid" >/dev/null 2>&1; then kill -KILL -- -"$pgid" 2>/dev/null; fi
  rm -f "$log" /tmp/fresh-check-body.$$
}
trap cleanup EXIT
trap "exit 1" INT TERM HUP

deadline=$((started + ${FRESH_CHECK_TIMEOUT:-300}))
until curl -s -o /dev/null --max-time 5 "http://127.0.0.1:$port/api/health"; do
  if ! ps -o pid= -g "$pgid" >/dev/null 2>&1; then say "FAIL npm run dev exited:"; cat "$log"; exit 1; fi
  if [ "$(date +%s)" -ge "$deadline" ]; then say "FAIL no answer on :$port within ${FRESH_CHECK_TIMEOUT:-300}s:"; cat "$log"; exit 1; fi
  sleep 1
done
say "dev server answers; its start-up log:"
grep -E '^(auth|database):|rate limits|Ready in|Local:' "$log" | sed 's/^/    /'

slug=$(npx tsx --eval 'import { TEAMS } from "./dev/seed/data.ts"; console.log(TEAMS[0]!.slug)' 2>/dev/null)
token=$(npm run -s token -- user_x)
check "GET /api/health" 200 "http://127.0.0.1:$port/api/health"
check "GET /api/teams/$slug" 200 "http://127.0.0.1:$port/api/teams/$slug"
check "GET /api/user (Bearer token of user_x)" 200 -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/user"
check "GET /api/user without a token" 401 "http://127.0.0.1:$port/api/user"
grep -q 'rate limits: in-process' "$log" && say "ok   rate limits use the in-process store (logged at start-up)" || {
  say "FAIL no 'rate limits: in-process' line in the log"
  fail=1
}

say "stopping: SIGINT to the dev process group (Ctrl-C)"
kill -INT -- -"$pgid"
for _ in $(seq 1 30); do ps -o pid= -g "$pgid" >/dev/null 2>&1 || break; sleep 1; done
if ps -o pid= -g "$pgid" >/dev/null 2>&1; then
  say "FAIL still running 30 s after Ctrl-C:"
  ps -o pid,comm,args -g "$pgid"
  fail=1
else
  grep -E 'embedded PostgreSQL stopped' "$log" | sed 's/^/    /'
  say "ok   everything stopped (npm, next dev, embedded PostgreSQL)"
fi
if (exec 3<>/dev/tcp/127.0.0.1/5433) 2>/dev/null; then say "FAIL something still answers on 5433"; fail=1; fi
[ -f .data/postgres/PG_VERSION ] && say "ok   data kept in .data/postgres (PostgreSQL $(cat .data/postgres/PG_VERSION))"

if [ $fail = 0 ]; then say "PASS"; else
  say "FAILED; the dev server's log:"
  cat "$log"
fi
exit $fail
