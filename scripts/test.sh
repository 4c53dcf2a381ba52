#!/usr/bin/env bash
# The whole test suite, from nothing: install (scripts/setup.sh), then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
