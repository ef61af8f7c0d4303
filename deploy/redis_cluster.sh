#!/usr/bin/env bash
# A local 3-node Redis Cluster (3 masters, no replicas) from the redis-server binary, on
# ports of its own, for tests and trials; it never touches the Redis on 6379.
#
#   deploy/redis_cluster.sh start [BASE_PORT]   # 7100, 7101, 7102 by default; prints the URL
#   deploy/redis_cluster.sh stop  [BASE_PORT]   # shuts the three down and removes their files
#   deploy/redis_cluster.sh url   [BASE_PORT]   # redis+cluster://127.0.0.1:BASE_PORT/0
#
# Nothing is saved to disk (no RDB, no AOF); the nodes' cluster files live in
# ${REDIS_CLUSTER_DIR:-/tmp/referee-redis-cluster-BASE_PORT}.
set -euo pipefail

command=${1:-}
base=${2:-${REDIS_CLUSTER_PORT:-7100}}
ports=("$base" "$((base + 1))" "$((base + 2))")
dir=${REDIS_CLUSTER_DIR:-/tmp/referee-redis-cluster-$base}

ping() { [[ "$(timeout 5 redis-cli -p "$1" ping 2>/dev/null)" == "PONG" ]]; }

start() {
    command -v redis-server >/dev/null || { echo "redis-server is not installed" >&2; exit 1; }
    mkdir -p "$dir"
    for port in "${ports[@]}"; do
        if ping "$port"; then
            echo "port $port already answers: stop it first ($0 stop $base)" >&2
            exit 1
        fi
        rm -f "$dir/nodes-$port.conf"
        redis-server --port "$port" --bind 127.0.0.1 --daemonize yes \
            --cluster-enabled yes --cluster-config-file "$dir/nodes-$port.conf" \
            --cluster-node-timeout 5000 --save "" --appendonly no --dir "$dir" \
            --pidfile "$dir/redis-$port.pid" --logfile "$dir/redis-$port.log"
    done
    for port in "${ports[@]}"; do
        for _ in $(seq 50); do ping "$port" && break; sleep 0.1; done
        ping "$port" || { echo "node $port did not start" >&2; tail "$dir/redis-$port.log" >&2; exit 1; }
    done
    redis-cli --cluster create "${ports[@]/#/127.0.0.1:}" --cluster-replicas 0 --cluster-yes \
        >"$dir/create.log"
    for _ in $(seq 100); do
        ok=1
        for port in "${ports[@]}"; do
            redis-cli -p "$port" cluster info | grep -q '^cluster_state:ok' || ok=0
        done
        ((ok)) && break
        sleep 0.1
    done
    ((ok)) || { echo "the cluster did not reach cluster_state:ok" >&2; exit 1; }
    url
}

stop() {
    for port in "${ports[@]}"; do
        if ping "$port"; then
            redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
        fi
        pidfile="$dir/redis-$port.pid"
        if [[ -f $pidfile ]]; then
            pid=$(cat "$pidfile")
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
            kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$dir"
    echo "stopped the Redis Cluster on ${ports[*]}"
}

url() { echo "redis+cluster://127.0.0.1:$base/0"; }

case $command in
    start) start ;;
    stop) stop ;;
    url) url ;;
    *) echo "usage: $0 start|stop|url [BASE_PORT]" >&2; exit 2 ;;
esac
