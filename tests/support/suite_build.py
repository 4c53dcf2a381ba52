"""Builds every JSON-Schema-Test-Suite group into a package, once per test session (the
`suite` fixture in tests/suite/conftest.py calls `build_suite`), and builds every option of
every union of each (tests/suite/test_suite_options.py pins what that gives)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.support.packages import import_package, imported
from tests.support.suite_cases import Group, groups, wrap
from zomgen.cases.coverage import coverage, option_cases
from zomgen.cases.derive import refusals
from zomgen.errors import CompileError
from zomgen.pipeline import Generated, Options, generate_package
from zomgen.write import write_package


@dataclass(frozen=True)
class Built:
    group: Group
    ok: bool
    messages: tuple[str, ...]  # the refusal (one line per problem), or the build's warnings
    # every option of every union built (zomgen/cases/coverage.py): its summary, or None
    # where the group did not build or has no union
    options: dict[str, Any] | None = None


@dataclass(frozen=True)
class Suite:
    folder: Path  # holds one package per group that builds, beside `sources/`
    built: tuple[Built, ...]

    def packages(self) -> Iterator[Built]:
        return (b for b in self.built if b.ok)

    def module(self, built: Built) -> ModuleType:
        """The package built for a group, imported from the suite's folder."""
        return import_package(self.folder, built.group.package)


def _build(job: tuple[Group, Path]) -> Built:
    group, folder = job
    source = wrap(group, folder / "sources" / group.package)
    try:
        generated = generate_package(Options(source, (), group.package))
    except CompileError as exc:
        return Built(group, False, tuple(_relative(str(p), folder) for p in exc.problems))
    except RecursionError:
        return Built(group, False, ("RecursionError",))
    write_package(generated.files, folder / group.package)
    warnings = tuple(_relative(str(w), folder) for w in generated.warnings)
    return Built(group, True, warnings, _options(generated, folder, group.package))


def _options(generated: Generated, folder: Path, package: str) -> dict[str, Any] | None:
    """The union options of the group built, as `zomgen cases` reports them."""
    assert generated.hierarchy is not None
    with imported(folder, package) as (module,):
        bundled = json.loads(generated.files["schema.json"])
        cases = option_cases(generated.hierarchy, module, bundled, lambda d: refusals(module, d))
    return coverage(cases) if cases else None


def _relative(message: str, folder: Path) -> str:
    return message.replace(str(folder / "sources") + "/", "")


def build_suite(folder: Path) -> Suite:
    """Build every group into `folder` (two processes)."""
    jobs = [(group, folder) for group in groups()]
    with ProcessPoolExecutor(max_workers=2) as pool:
        built = tuple(pool.map(_build, jobs, chunksize=8))
    return Suite(folder, built)
