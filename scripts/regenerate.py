"""Rebuild generated/ from schemas/: one package per bundled convention.

`schemas/<name>/schema.json` becomes `generated/<name with - as _>/`. Run it after changing
the compiler, the templates, the runtime or a bundled schema; tests/test_generated.py fails
with a diff until you do.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from zomgen.compile import Options, generate
from zomgen.write import write_package


def conventions() -> list[tuple[Path, Path]]:
    """(schema, package folder) of every bundled convention."""
    pairs: list[tuple[Path, Path]] = []
    for schema in sorted((ROOT / "schemas").glob("*/schema.json")):
        name = schema.parent.name.replace("-", "_")
        pairs.append((schema, ROOT / "generated" / name))
    return pairs


def main() -> int:
    for schema, out in conventions():
        files = generate(Options(schema=schema, package=out.name))
        written = write_package(files, out)
        print(f"{out.relative_to(ROOT)}: {len(written)} of {len(files)} files written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
