"""Mutations of the corpus schemas (issue 12, item 7; the real-schema side of the fuzz campaign).

Real conventions of the shared corpus (OME-NGFF 0.4 and 0.5 images, a zarr-conventions
convention, the zarr-cm tests, a zarr-extensions codec, the PR #347 core metadata), each with the
folders its wrapper in tests/corpus_conventions/ includes, copied aside. A seeded generator then
changes one file at a time (the wrapper or one of the schemas it reaches) the way careless or
hostile edits do: a key dropped, a value duplicated under another keyword, a value swapped for
one of another JSON type, `type` changed, a key renamed to a hostile name (keywords, builtins,
quotes, line breaks, lone surrogates), injection payloads as titles, descriptions, enum values and
patterns, a `$ref` pointed elsewhere, a subschema nested 5 to 130 levels deeper. Each mutated
schema goes through `zomgen.pipeline.generate()`: a package, or a `CompileError` whose problems
are one line each and are not "a zomgen bug"; any other exception is a defect, reported with
the seed's index and the mutation to reproduce it. The packages built are imported together in
one fresh interpreter (no payload may run), and the first few go to the checkers with the
hypothesis-built ones (tests/fuzz/test_campaign.py).

The CI run is time-bounded with a fixed seed (ZOMGEN_FUZZ_MUTATION_SECONDS, 30 s by default: on
a loaded 2-core machine about 25 mutated schemas, a build taking 2-3 s, 0 defects); a longer
run on demand: `ZOMGEN_FUZZ_MUTATION_SECONDS=900 pytest tests/fuzz/test_mutations.py -s` (a
300 s run: 269 tried, 104 built and imported, 165 refused, 0 defects).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.corpus_wrappers import INCLUDES, WRAPPERS_TO_BUILD
from tests.support.fuzz_inputs import MARKER, MUTATION_SAMPLE, mutate, workspaces
from zomgen.errors import CompileError
from zomgen.pipeline import Options, generate
from zomgen.write import write_package

SEED = 20261123
SECONDS = float(os.environ.get("ZOMGEN_FUZZ_MUTATION_SECONDS", "30"))
pytestmark = [
    pytest.mark.fuzz,
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore:The recursion limit will not be reset"),
]


@dataclass
class Tally:
    tried: int = 0
    built: int = 0
    refused: int = 0
    defects: list[str] = field(default_factory=list)
    packages: list[str] = field(default_factory=list)


def test_mutated_corpus_schemas_build_or_are_refused(tmp_path: Path) -> None:
    assert set(MUTATION_SAMPLE) <= set(WRAPPERS_TO_BUILD)
    assert {name.split("__")[0] for name in MUTATION_SAMPLE} <= set(INCLUDES)
    spaces = workspaces(tmp_path / "spaces")
    packages = tmp_path / "packages"
    packages.mkdir()
    rng = random.Random(SEED)
    tally = Tally()
    started = time.monotonic()
    while tally.tried < 2 * len(MUTATION_SAMPLE) or time.monotonic() - started < SECONDS:
        name = MUTATION_SAMPLE[tally.tried % len(MUTATION_SAMPLE)]
        schema, includes, files = spaces[name]
        # the wrapper half of the time (it reaches everything), else a file it may reach
        target = schema if rng.random() < 0.5 else rng.choice(files)
        original = target.read_bytes()
        try:
            doc = json.loads(original)
        except ValueError:
            continue  # a YAML or otherwise unreadable corpus file: not mutated
        changes = [mutate(doc, rng) for _ in range(rng.choice([1, 1, 2, 3]))]
        n = tally.tried
        tally.tried += 1
        label = f"#{n} {name}: {target.relative_to(tmp_path)}: {'; '.join(changes)}"
        target.write_text(json.dumps(doc), encoding="utf-8")
        try:
            files_built = generate(Options(schema, tuple(includes), f"mut{n}"))
        except CompileError as exc:
            tally.refused += 1
            for problem in exc.problems:
                text = str(problem)
                if "\n" in text or "\r" in text or "zomgen bug" in problem.message:
                    tally.defects.append(f"{label}: {text[:500]!r}")
        except Exception:  # noqa: BLE001 - the defect being looked for
            tally.defects.append(f"{label}: {traceback.format_exc(limit=-4)}")
        else:
            tally.built += 1
            write_package(files_built, packages / f"mut{n}")
            tally.packages.append(f"mut{n}")
        finally:
            target.write_bytes(original)
    imports = "; ".join(f"import {p}.models, {p}.documents, {p}" for p in tally.packages)
    result = subprocess.run(
        [sys.executable, "-c", imports or "pass"],
        cwd=packages,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    print(
        f"mutation campaign: {tally.tried} tried, {tally.built} built and imported, "
        f"{tally.refused} refused, {len(tally.defects)} defects, "
        f"{time.monotonic() - started:.0f} s"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert not (packages / MARKER).exists() and not Path(MARKER).exists()
    assert not tally.defects, "\n".join(tally.defects[:5])
