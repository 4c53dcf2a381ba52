#!/usr/bin/env bash
# Install everything zomgen's tests and demo need, from nothing: a virtualenv in .venv with
# zomgen and zomgen-runtime (both editable) and zomgen's test dependencies, spatialdata in
# .venv-spatialdata, the pinned TypeScript toolchain from package-lock.json, and Chromium for
# the browser tests. Safe to run again: it only installs what is missing or outdated.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
# zomgen-runtime first on the same command line: zomgen depends on it, and it is not on PyPI.
.venv/bin/python -m pip install --quiet -e ./runtime/python -e ".[test]"
# spatialdata, which writes the stores of tests/runtime/test_spatialdata.py, pins a dask that
# ome-zarr 0.18 (in .venv) refuses: it gets a virtualenv of its own, pinned by its requirements.
SPATIALDATA_REQUIREMENTS=tests/runtime/spatialdata/requirements.txt
if [ ! -x .venv-spatialdata/bin/python ]; then
  "$PYTHON" -m venv .venv-spatialdata
fi
if ! cmp -s "$SPATIALDATA_REQUIREMENTS" .venv-spatialdata/installed.txt; then
  .venv-spatialdata/bin/python -m pip install --quiet -r "$SPATIALDATA_REQUIREMENTS"
  cp "$SPATIALDATA_REQUIREMENTS" .venv-spatialdata/installed.txt
fi
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
# @zomgen/runtime (runtime/typescript, a workspace: node_modules/@zomgen/runtime links to it),
# which the generated TypeScript imports: its dist/ built from src/ by the pinned tsc.
node_modules/.bin/tsc -p runtime/typescript/tsconfig.json
# Chromium, for the validator page's browser tests (tests/browser): Debian's package, installed
# where it is missing and this user may (root with apt-get). Elsewhere the tests say what to
# install.
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q chromium >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; } ||
      echo "setup: apt-get could not install chromium; tests/browser will fail until it is installed" >&2
  else
    echo "setup: Chromium is missing: install Debian's chromium (apt-get install chromium) or your" \
      "system's, as /usr/bin/chromium on PATH; tests/browser fails until then" >&2
  fi
fi
