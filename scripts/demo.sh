#!/usr/bin/env bash
# zomgen's main job on a bundled example: compile the xarray-v3 convention into a typed
# package, write a real store with xarray, load it with the generated package, and check the
# same document with the package's TypeScript validate.ts under Node.
set -euo pipefail
cd "$(dirname "$0")/.."
# tests/cli/test_demo.py runs this right after the test command installed everything
[ "${ZOMGEN_DEMO_SKIP_SETUP:-}" = 1 ] || bash scripts/setup.sh
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
.venv/bin/zomgen build schemas/xarray-v3/schema.json -o "$work/xarray_v3"
PYTHONPATH="$work" .venv/bin/python scripts/demo_load.py "$work/store.zarr" "$work/document.json"
# The same document checked in TypeScript by the package's validate.ts: compiled by the
# project's tsc (strict), run by Node, as a web app would use it.
ln -s "$PWD/node_modules" "$work/node_modules"
printf '{"extends": "%s", "compilerOptions": {"noEmit": false, "outDir": "js", "rootDir": "."},
  "include": ["xarray_v3/*.ts", "xarray_v3/_runtime_ts/*.ts"]}\n' "$PWD/tsconfig.json" \
  > "$work/tsconfig.json"
node_modules/.bin/tsc -p "$work/tsconfig.json"
echo '{"type": "module"}' > "$work/js/package.json"
node scripts/demo_validate.mjs "$work/js/xarray_v3/validate.js" "$work/document.json"
