"""Every static negative in typecheck_cases/python has its run-time twin, read from the case file
itself so the two cannot drift apart.

Each negative file is run statement by statement. A negative document (`name: documents.<Root>
= ...`, the package's root TypedDict) is passed to `parse`, which must raise `ZomError` naming
the mistake's node path and pointer (`DOCUMENT_TWINS` of tests/support/typecheck_cases.py). A
negative model statement in a `neg_frozen_*` file must raise `dataclasses.FrozenInstanceError`.
Every other negative model (`name = models.X(...)`) is refused as `MODEL_TWINS` says: its
constructor raises TypeError, or the check `create` makes before writing (the schema check of
`dump(model)`) raises `ZomError` at the named node path and pointer. Positive files, `diff_*.py`
files and the valid pieces run whole, and their root documents parse.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.packages import forget, import_package
from tests.support.paths import GENERATED
from tests.support.typecheck_cases import (
    CASES_DIR,
    DOCUMENT_TWINS,
    MUTATION_CASES,
    ROOTS,
    build_packages,
    case_files,
    document_root,
    negative_lines,
    negatives,
    statements,
)

# (case file, model variable) -> how the run time refuses the file's mistake made in a model:
# the constructor raises TypeError (a missing or unknown keyword argument), or `create`'s check
# before it writes, the schema check of `dump(model)` (here: `parse(dump(model))`), raises
# ZomError with this (node path, pointer) among its problems.
MODEL_TWINS: dict[tuple[str, str], tuple[str, str] | type[TypeError]] = {
    ("named_members_cases/neg_group_where_array_must_be.py", "group_0_model"): ("/0", "/node_type"),
    ("named_members_cases/neg_missing_named_member.py", "no_members_model"): ("/", "/members"),
    ("named_members_cases/neg_missing_named_member.py", "only_labels_model"): ("/", "/members"),
    ("named_members_cases/neg_missing_required_attribute.py", "no_labels_model"): TypeError,
    ("named_members_cases/neg_unknown_key_on_closed_object.py", "colour_model"): TypeError,
    ("named_members_cases/neg_wrong_const_or_enum_literal.py", "format_2_model"): (
        "/",
        "/zarr_format",
    ),
    ("named_members_cases/neg_wrong_const_or_enum_literal.py", "node_type_array_model"): (
        "/",
        "/node_type",
    ),
    ("named_members_cases/neg_wrong_data_type.py", "float64_model"): ("/0", "/data_type"),
    ("tagged_union_cases/neg_missing_required_attribute.py", "no_transform_model"): TypeError,
    ("tagged_union_cases/neg_unknown_key_on_closed_object.py", "colour_model"): TypeError,
    ("tagged_union_cases/neg_unknown_key_on_closed_object.py", "coloured_identity_model"): (
        TypeError
    ),
    ("tagged_union_cases/neg_wrong_tag_literal.py", "rotate_model"): (
        "/",
        "/attributes/transform/type",
    ),
    # a scale labelled "translation": the tag says what was meant, so the problem is the
    # translation option's (its `translation` key is missing), at the transform itself
    ("tagged_union_cases/neg_wrong_tag_literal.py", "mislabelled_model"): (
        "/",
        "/attributes/transform",
    ),
    ("xarray_v2_cases/neg_group_where_array_must_be.py", "group_member_model"): ("/g", ""),
    ("xarray_v2_cases/neg_missing_required_attribute.py", "no_dimensions_model"): TypeError,
    ("xarray_v2_cases/neg_unknown_key_on_closed_object.py", "node_type_model"): TypeError,
    ("xarray_v2_cases/neg_wrong_const_or_enum_literal.py", "format_3_model"): (
        "/",
        "/zarr_format",
    ),
    ("xarray_v2_cases/neg_wrong_const_or_enum_literal.py", "order_z_model"): ("/t", "/order"),
    ("xarray_v3_cases/neg_group_where_array_must_be.py", "group_member_model"): (
        "/g",
        "/node_type",
    ),
    ("xarray_v3_cases/neg_missing_dimension_names.py", "no_names_model"): TypeError,
    ("xarray_v3_cases/neg_null_dimension_name.py", "null_name_model"): (
        "/t",
        "/dimension_names/0",
    ),
    ("xarray_v3_cases/neg_unknown_key_on_closed_object.py", "colour_model"): TypeError,
    ("xarray_v3_cases/neg_unknown_key_on_closed_object.py", "colour_variable_model"): TypeError,
    ("xarray_v3_cases/neg_wrong_const_or_enum_literal.py", "format_2_model"): (
        "/",
        "/zarr_format",
    ),
    ("xarray_v3_cases/neg_wrong_const_or_enum_literal.py", "node_type_group_model"): (
        "/t",
        "/node_type",
    ),
}


@pytest.fixture(scope="module")
def pkgs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    out = build_packages(tmp_path_factory.mktemp("twins"))
    cases = [f"{name}_cases" for name in ROOTS]
    try:
        packages = {
            name: import_package(GENERATED if (GENERATED / name).is_dir() else out, name)
            for name in ROOTS
        }
        for name in cases:  # their modules import the packages above by name
            import_package(CASES_DIR, name)
        yield packages
    finally:
        forget(*ROOTS, *cases)


def package_of(path: Path) -> str:
    return path.parent.name.removesuffix("_cases")


def rel(path: Path) -> str:
    return path.relative_to(CASES_DIR).as_posix()


def module_namespace(path: Path) -> dict[str, Any]:
    """A fresh module namespace for running a case file statement by statement."""
    return {
        "__name__": f"{path.parent.name}.{path.stem}",
        "__package__": path.parent.name,
        "__file__": str(path),
    }


def run(stmt: ast.stmt, path: Path, namespace: dict[str, Any]) -> None:
    # The case files are this repository's own code, run one statement at a time so a
    # statement that fails at run time does not stop the ones after it.
    exec(  # noqa: S102
        compile(ast.Module([stmt], type_ignores=[]), str(path), "exec"), namespace
    )


def problems(pkg: ModuleType, document: object) -> list[tuple[str, str]]:
    with pytest.raises(pkg.ZomError) as info:
        pkg.parse(document)
    return [(p.node_path, p.pointer) for p in info.value.problems]


def test_roots_are_the_documents_parse_takes(pkgs: dict[str, ModuleType]) -> None:
    for name, root in ROOTS.items():
        assert pkgs[name].dump.__annotations__["return"] == f"documents.{root}"


def test_every_negative_document_has_its_expected_twin() -> None:
    documents = set()
    for path in case_files(CASES_DIR, "neg_"):
        lines = {n.line for n in negatives(CASES_DIR) if n.path == rel(path)}
        for stmt in statements(path):
            if negative_lines(stmt, lines) and document_root(stmt):
                assert isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
                documents.add((rel(path), stmt.target.id))
    assert documents == DOCUMENT_TWINS.keys()


# The mutations of a `Mapping` field have no run-time twin: models are frozen shallowly
# (docs/runtime.md), test_a_mapping_field_is_read_only_to_the_checkers_only below.
@pytest.mark.parametrize(
    "path",
    [p for p in case_files(CASES_DIR, "neg_") if not p.name.startswith("neg_mutate_")],
    ids=rel,
)
def test_each_negative_fails_at_run_time(path: Path, pkgs: dict[str, ModuleType]) -> None:
    pkg = pkgs[package_of(path)]
    lines = {n.line for n in negatives(CASES_DIR) if n.path == rel(path)}
    namespace = module_namespace(path)
    twins = 0
    for stmt in statements(path):
        if not negative_lines(stmt, lines):
            run(stmt, path, namespace)
        elif document_root(stmt):
            run(stmt, path, namespace)
            assert isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
            found = problems(pkg, namespace[stmt.target.id])
            assert DOCUMENT_TWINS[rel(path), stmt.target.id] in found, (stmt.target.id, found)
            twins += 1
        elif path.name.startswith("neg_frozen_"):
            with pytest.raises(dataclasses.FrozenInstanceError):
                run(stmt, path, namespace)
            twins += 1
        else:
            # A model mistake; its twin is the file's document. Dataclasses check arguments,
            # not their types, so this raises TypeError or nothing.
            try:
                run(stmt, path, namespace)
            except TypeError:
                pass
    assert twins


@pytest.mark.parametrize("path", case_files(CASES_DIR, "neg_mutate_"), ids=rel)
def test_a_mapping_field_is_read_only_to_the_checkers_only(
    path: Path, pkgs: dict[str, ModuleType]
) -> None:
    """The checkers refuse these item assignments (the case files' expectations); at run time
    the dict behind the `Mapping` annotation takes them, as docs/runtime.md says ("Models are
    frozen shallowly"). A change to that choice fails here and must change the docs."""
    namespace = module_namespace(path)  # `pkgs` made the packages it imports importable
    for stmt in statements(path):
        run(stmt, path, namespace)  # the mutations too: nothing raises
    dataset = namespace["dataset"]
    assert type(dataset.members) is dict and "u" in dataset.members


def assigned_name(stmt: ast.stmt) -> str | None:
    """`x` when `stmt` is `x = ...`, else None."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if isinstance(target, ast.Name):
            return target.id
    return None


def model_negatives() -> list[tuple[Path, str]]:
    """(file, variable) of every model mistake outside the mutation files, in file order."""
    found = []
    for path in case_files(CASES_DIR, "neg_"):
        if path.name.startswith(MUTATION_CASES):
            continue
        lines = {n.line for n in negatives(CASES_DIR) if n.path == rel(path)}
        for stmt in statements(path):
            if negative_lines(stmt, lines) and not document_root(stmt):
                name = assigned_name(stmt)
                assert name, f"{rel(path)}:{stmt.lineno}: a model mistake is `name = ...`"
                found.append((path, name))
    return found


def test_every_negative_model_has_its_expected_twin() -> None:
    assert {(rel(p), name) for p, name in model_negatives()} == MODEL_TWINS.keys()


@pytest.mark.parametrize(
    ("path", "name"),
    [pytest.param(p, name, id=f"{rel(p)}:{name}") for p, name in model_negatives()],
)
def test_each_negative_model_is_refused_at_run_time(
    path: Path, name: str, pkgs: dict[str, ModuleType]
) -> None:
    pkg = pkgs[package_of(path)]
    lines = {n.line for n in negatives(CASES_DIR) if n.path == rel(path)}
    namespace = module_namespace(path)
    for stmt in statements(path):
        if assigned_name(stmt) == name and negative_lines(stmt, lines):
            break
        try:
            run(stmt, path, namespace)
        except TypeError:
            assert negative_lines(stmt, lines), f"{rel(path)}:{stmt.lineno}"
    else:
        pytest.fail(f"{name} not found in {rel(path)}")
    expected = MODEL_TWINS[rel(path), name]
    if expected is TypeError:
        with pytest.raises(TypeError):
            run(stmt, path, namespace)
        return
    run(stmt, path, namespace)
    found = problems(pkg, pkg.dump(namespace[name]))
    assert expected in found, (name, found)


@pytest.mark.parametrize(
    "path",
    [
        *case_files(CASES_DIR, "pos_"),
        *case_files(CASES_DIR, "diff_"),
        *case_files(CASES_DIR, "_valid"),
    ],
    ids=rel,
)
def test_positive_cases_run_and_their_documents_parse(
    path: Path, pkgs: dict[str, ModuleType]
) -> None:
    module = importlib.import_module(f"{path.parent.name}.{path.stem}")
    pkg = pkgs[package_of(path)]
    parsed = 0
    for stmt in statements(path):
        if document_root(stmt) == ROOTS[package_of(path)]:
            assert isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
            model = pkg.parse(getattr(module, stmt.target.id))
            assert pkg.dump(model) == getattr(module, stmt.target.id)
            parsed += 1
    assert parsed
