"""Rebuild generated/ from schemas/: one package per bundled convention, and schemas/bundled/:
the bundled catalog's schemas with their references bundled in (zomgen/catalog/bundles.py).

`schemas/<name>/schema.json` becomes `generated/<name with - as _>/`, built as `zomgen build
--cases` builds it: its README carries the agreement report of its derived cases (the cases
themselves are in typecheck_cases/derived/, scripts/derive_cases.py). Run it after changing the
compiler, the templates, the runtime or a bundled schema; tests/targets/test_generated.py and
tests/catalog/test_bundles.py fail with a diff until you do.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from zomgen.cases.derive import derive
from zomgen.catalog.bundles import all_bundles, bundles_dir
from zomgen.write import write_package


def conventions() -> list[tuple[Path, Path]]:
    """(schema, package folder) of every bundled convention."""
    pairs: list[tuple[Path, Path]] = []
    for schema in sorted((ROOT / "schemas").glob("*/schema.json")):
        name = schema.parent.name.replace("-", "_")
        pairs.append((schema, ROOT / "generated" / name))
    return pairs


def package_files(schema: Path, name: str) -> dict[str, str]:
    """The package `zomgen build SCHEMA -o generated/NAME --cases DIR` writes."""
    with tempfile.TemporaryDirectory(prefix="zomgen-regenerate-") as scratch:
        return derive(schema, Path(scratch), (), name).package_files


def write_bundles() -> None:
    """schemas/bundled/ as all_bundles() gives it, files no entry needs any more removed."""
    folder = bundles_dir()
    folder.mkdir(exist_ok=True)
    files = all_bundles()
    for stale in sorted({p.name for p in folder.iterdir()} - set(files)):
        (folder / stale).unlink()
    for name, text in files.items():
        path = folder / name
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")
    print(f"{folder.relative_to(ROOT)}: {len(files)} bundled schemas")


def main() -> int:
    write_bundles()
    for schema, out in conventions():
        files = package_files(schema, out.name)
        written = write_package(files, out)
        print(f"{out.relative_to(ROOT)}: {len(written)} of {len(files)} files written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
