#!/usr/bin/env bash
# zomgen's main job on a bundled example: compile the xarray-v3 convention into a typed
# package, write a real store with xarray, and load it with the generated package.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
.venv/bin/zomgen build schemas/xarray-v3/schema.json -o "$work/xarray_v3"
PYTHONPATH="$work" .venv/bin/python scripts/demo_load.py "$work/store.zarr"
