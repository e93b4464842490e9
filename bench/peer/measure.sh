#!/usr/bin/env bash
# Issue 12: our gateway vs the peer (Hive Gateway 2.15 over a GraphQL Mesh
# OpenAPI source), warm throughput against the same simulator.
#
#   npm run bench:peer                               # 5 s rounds, 3 s warm-up per query and gateway
#   ROUND_SECONDS=1 WARM_SECONDS=1 npm run bench:peer # smoke
#   ONLY=top20,chart npm run bench:peer               # some queries (keys: typename, artist, top20, chart)
#   CHECK_ONLY=1 npm run bench:peer                   # only compare the answers, no load
#
# Starts the simulator (4010, 50 ms latency), our gateway (4000) and the peer
# (4001); stops all three on exit. The ports must be free.
set -euo pipefail

PEER_DIR=$(cd "$(dirname "$0")" && pwd)
MAIN_DIR=${MAIN_DIR:-$(cd "$PEER_DIR/../.." && pwd)}
export ROUND_SECONDS=${ROUND_SECONDS:-5}
export WARM_SECONDS=${WARM_SECONDS:-3}
export CONNECTIONS=${CONNECTIONS:-10}
export AUTOCANNON=${AUTOCANNON:-$MAIN_DIR/node_modules/.bin/autocannon}
LATENCY_MS=${SIMULATOR_LATENCY_MS:-50}
KEY=bench-key
SIM_PORT=4010 OURS_PORT=4000 PEER_PORT=4001
export OURS_URL=http://127.0.0.1:$OURS_PORT/graphql
export PEER_URL=http://127.0.0.1:$PEER_PORT/graphql

RUN_DIR=$(mktemp -d /tmp/peer-measure.XXXXXX)
PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do
    # each was started with setsid: its pid is its process group
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
  PIDS=()
  echo "stopped simulator and gateways; logs in $RUN_DIR" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for port in $SIM_PORT $OURS_PORT $PEER_PORT; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port is in use: stop what listens there first" >&2
    exit 1
  fi
done

wait_for() { # name url [post-body]
  local name=$1 url=$2 body=${3:-}
  for _ in $(seq 150); do
    if [ -n "$body" ]; then
      curl -fsS -o /dev/null -X POST -H 'content-type: application/json' -d "$body" "$url" 2>/dev/null && return 0
    else
      curl -sS -o /dev/null "$url" 2>/dev/null && return 0
    fi
    sleep 0.2
  done
  echo "$name did not come up at $url; see $RUN_DIR" >&2
  exit 1
}

# Dependencies of the peer (pinned in package-lock.json; no install scripts run).
if [ ! -x "$PEER_DIR/node_modules/.bin/hive-gateway" ]; then
  (cd "$PEER_DIR" && npm ci --ignore-scripts --no-audit --no-fund) >&2
fi

echo "building our gateway (npm run build in $MAIN_DIR)" >&2
(cd "$MAIN_DIR" && npm run build --silent) >&2

echo "composing the peer's supergraph (mesh-compose)" >&2
(cd "$PEER_DIR" && node_modules/.bin/mesh-compose >"$RUN_DIR/compose.log" 2>&1) || { cat "$RUN_DIR/compose.log" >&2; exit 1; }

# 1. The upstream simulator, as `npm run simulator` runs it.
(cd "$MAIN_DIR" && SIMULATOR_PORT=$SIM_PORT SIMULATOR_LATENCY_MS=$LATENCY_MS SIMULATOR_API_KEYS=$KEY \
  SIMULATOR_DAILY_LIMIT=1000000000 exec setsid node --enable-source-maps dist/simulator/main.js \
  >"$RUN_DIR/simulator.log" 2>&1) &
PIDS+=($!)
wait_for simulator "http://127.0.0.1:$SIM_PORT/api/v1/charts"

# 2. Our gateway, as `npm start` runs it (its per-request log lines discarded, as bench/run.ts does).
(cd "$MAIN_DIR" && UPSTREAM_URL=http://127.0.0.1:$SIM_PORT UPSTREAM_API_KEY=$KEY UPSTREAM_DAILY_LIMIT=100000000 \
  RATE_LIMIT_REQUESTS=0 PORT=$OURS_PORT HOST=127.0.0.1 BUDGET_FILE="$RUN_DIR/budget.json" \
  exec setsid node dist/main.js >/dev/null 2>"$RUN_DIR/ours.stderr.log") &
PIDS+=($!)

# 3. The peer: Hive Gateway serving the supergraph; the transport reads the
#    upstream address and key from these variables at run time.
(cd "$PEER_DIR" && NODE_ENV=production UPSTREAM_URL=http://127.0.0.1:$SIM_PORT UPSTREAM_API_KEY=$KEY \
  exec setsid node_modules/.bin/hive-gateway supergraph --host 127.0.0.1 --port $PEER_PORT \
  >"$RUN_DIR/peer.log" 2>&1) &
PIDS+=($!)

wait_for "our gateway" "$OURS_URL" '{"query":"{ __typename }"}'
wait_for peer "$PEER_URL" '{"query":"{ __typename }"}'

echo "## Issue 12: ours vs peer (Hive Gateway over Mesh OpenAPI), $(date -u +%Y-%m-%dT%H:%MZ)"
echo
echo "- machine: $(nproc) cores, Node $(node -v); simulator latency ${LATENCY_MS} ms"
echo "- ours: $MAIN_DIR at $(git -C "$MAIN_DIR" rev-parse --short HEAD 2>/dev/null || echo '?')$( [ -n "$(git -C "$MAIN_DIR" status --porcelain --untracked-files=no 2>/dev/null)" ] && echo ' (with uncommitted changes)')"
echo "- peer: @graphql-hive/gateway $(node -p "require('$PEER_DIR/node_modules/@graphql-hive/gateway/package.json').version"), @graphql-mesh/compose-cli $(node -p "require('$PEER_DIR/node_modules/@graphql-mesh/compose-cli/package.json').version"), @omnigraph/openapi $(node -p "require('$PEER_DIR/node_modules/@omnigraph/openapi/package.json').version")"
echo "- autocannon $(node -p "require('$(dirname "$(readlink -f "$AUTOCANNON")")/package.json').version" 2>/dev/null || echo '?'), $CONNECTIONS connections"

(cd "$PEER_DIR" && node measure.mjs)
