#!/usr/bin/env bash
# The boto3 smoke test: builds `dynomodel-mem`, starts `dynomodel-mem serve --port 0`, runs smoke.py
# against it (then isolation.py against `serve --isolate 3`), stops the server (by its PID, also on
# failure) and exits with the script's status.
#
# boto3 comes from the system Python when it has it; otherwise it is installed once, quietly, into a
# virtualenv under the cargo target directory (git-ignored), so repeated runs install nothing.
# DYNOMODEL_SKIP_BOTO3=1 skips the test explicitly.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [[ "${DYNOMODEL_SKIP_BOTO3:-}" == 1 ]]; then
    echo "boto3 smoke test: skipped (DYNOMODEL_SKIP_BOTO3=1)"
    exit 0
fi
command -v python3 >/dev/null || { echo "boto3 smoke test: python3 is required" >&2; exit 1; }

target_dir="${CARGO_TARGET_DIR:-target}"
python=python3
if ! python3 -c 'import boto3' 2>/dev/null; then
    venv="${target_dir}/boto3-venv"
    if [[ ! -x "${venv}/bin/python" ]] || ! "${venv}/bin/python" -c 'import boto3' 2>/dev/null; then
        python3 -m venv "${venv}"
        "${venv}/bin/python" -m pip install --quiet --disable-pip-version-check boto3
    fi
    python="${venv}/bin/python"
fi

cargo build --quiet -p dynomodel-mem --features server --bin dynomodel-mem
# In memory, then durable (`--data-dir`, a fresh directory): the same script against both.
data_dir="$(mktemp -d)"
log="$(mktemp)"
server_pid=""
trap 'if [[ -n "${server_pid}" ]]; then kill "${server_pid}" 2>/dev/null || true; wait "${server_pid}" 2>/dev/null || true; fi; rm -rf "${log}" "${data_dir}"' EXIT

smoke() {
    local script="${SCRIPT:-smoke.py}"
    : >"${log}"
    "${target_dir}/debug/dynomodel-mem" serve --port 0 "$@" >"${log}" &
    server_pid=$!
    endpoint=""
    for _ in $(seq 1 100); do
        endpoint="$(sed -n 's/^listening on //p' "${log}")"
        [[ -n "${endpoint}" ]] && break
        kill -0 "${server_pid}" 2>/dev/null || { echo "boto3 smoke test: the server exited" >&2; exit 1; }
        sleep 0.05
    done
    [[ -n "${endpoint}" ]] || { echo "boto3 smoke test: the server did not start" >&2; exit 1; }
    echo "boto3 smoke test against ${endpoint} ${*}"
    "${python}" "tests/python/${script}" "${endpoint}"
    kill "${server_pid}"
    wait "${server_pid}" 2>/dev/null || true
    server_pid=""
}

smoke
smoke --data-dir "${data_dir}"
# Isolation by access key (isolation.py): a database per key, bounded at three here.
SCRIPT=isolation.py smoke --isolate 3
