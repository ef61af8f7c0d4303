#!/usr/bin/env bash
# `make run` as on a fresh machine, on a machine that already runs RabbitMQ and Redis.
#
# Clones this repository into a temporary folder, installs the runtime there (`make
# install-runtime`, which needs PyPI), then runs `make run` inside a new network namespace
# (root and `unshare`): there nothing listens on 5672 or 6379, and RabbitMQ gets a data
# folder and an enabled-plugins file of its own (empty: the consistent-hash plugin is
# disabled). It checks that `make run` starts RabbitMQ and Redis, enables the plugin and
# serves the API, then stops what it started. The servers outside the namespace are never
# touched: this script stops its own RabbitMQ node with rabbitmqctl (in the namespace) and
# its own Redis with redis-cli, and never kills processes by name.
#
#   sudo deploy/fresh_machine_check.sh
set -euo pipefail

if [ "${1:-}" != "--inside" ]; then
  repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
  work=$(mktemp -d /tmp/fresh-machine-XXXXXX)
  chmod 755 "$work"
  mkdir -m 777 "$work/rabbitmq"
  install -m 666 /dev/null "$work/rabbitmq/enabled_plugins"
  git clone -q "$repo" "$work/repo"
  echo "== make install-runtime (a fresh clone, $work/repo)"
  (cd "$work/repo" && make install-runtime >"$work/install.log" 2>&1) || {
    tail -20 "$work/install.log"; exit 1; }
  echo "   $(du -sh "$work/repo/.venv" | cut -f1) in .venv"
  exec unshare -n "$0" --inside "$work"
fi

work=$2
ip link set lo up
export RABBITMQ_MNESIA_BASE=$work/rabbitmq/mnesia RABBITMQ_LOG_BASE=$work/rabbitmq/log
export RABBITMQ_ENABLED_PLUGINS_FILE=$work/rabbitmq/enabled_plugins
export RABBITMQ_PID_FILE=$work/rabbitmq/pid
cd "$work/repo"
status=1
cleanup() {
  [ -n "${run_pid:-}" ] && kill -INT "$run_pid" 2>/dev/null && wait "$run_pid" 2>/dev/null
  HOME=/var/lib/rabbitmq rabbitmqctl stop >/dev/null 2>&1 || true
  redis-cli -p 6379 shutdown nosave >/dev/null 2>&1 || true
  if [ "$status" = 0 ]; then echo "PASS"; else echo "FAIL (see $work/run.log)"; fi
}
trap cleanup EXIT
if redis-cli -p 6379 ping >/dev/null 2>&1; then echo "Redis already answers here"; exit 1; fi
echo "== make run (nothing listens on 5672 / 6379; enabled plugins: [$(cat "$RABBITMQ_ENABLED_PLUGINS_FILE")])"
make run >"$work/run.log" 2>&1 &
run_pid=$!
for i in $(seq 1 90); do
  sleep 2
  if curl -sf localhost:8000/readyz >/dev/null; then echo "   ready after $((i * 2)) s"; break; fi
done
curl -sf localhost:8000/readyz >/dev/null
grep -E "RabbitMQ|Redis|consistent_hash" "$work/run.log" | sed 's/^/   /'
token=$(grep '^REFEREE_ADMIN_TOKEN=' .env | cut -d= -f2-)
key=$(curl -sf -X POST localhost:8000/v1/admin/communities -H "Authorization: Bearer $token" \
  -H 'content-type: application/json' -d '{"name": "Plaza limpia"}' |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["api_key"])')
curl -sf -o /dev/null -H "Authorization: Bearer $key" localhost:8000/v1/settings
echo "   a community created, its settings read"
grep -q rabbitmq_consistent_hash_exchange "$RABBITMQ_ENABLED_PLUGINS_FILE"
status=0
