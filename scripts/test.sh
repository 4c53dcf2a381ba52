#!/usr/bin/env bash
# The whole test suite, from nothing: install (scripts/setup.sh), then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Two workers (pytest-xdist), each running whole test modules, so that a module's fixtures are
# built once: most tests wait on one single-threaded checker or compiler at a time, so two
# cores run two modules side by side. xdist sends the modules out by their number of tests,
# most first; sending the longest first instead measured slower (tests/README.md, "Time").
# ZOMGEN_TEST_WORKERS=0 runs everything in this process; a later `-n N` in the arguments wins.
exec .venv/bin/python -m pytest -n "${ZOMGEN_TEST_WORKERS:-2}" --dist loadfile "$@"
