#!/usr/bin/env bash
# Install everything zomgen's tests and demo need, from nothing: a virtualenv in .venv with
# zomgen (editable) and its test dependencies, and the pinned TypeScript toolchain from
# package-lock.json. Safe to run again: it only installs what is missing or outdated.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
.venv/bin/python -m pip install --quiet -e ".[test]"
if [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
