"""The Python type-check cases of typecheck_cases/python (docs/typecheck-cases.md) as the tests
read them: the packages they are written against and each one's root type, the negative lines
with the codes each checker must report there, the statements of a case file, and
`DOCUMENT_TWINS`, the run-time twin of each negative document. typecheck/test_typecheck_cases.py
runs the checkers over the cases, typecheck/test_runtime_twins.py runs them, and
typescript/test_types_ts.py holds the TypeScript cases to the same mistakes."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from tests.support.cli import build_package
from tests.support.paths import CASES, GENERATED, ROOT

CASES_DIR = ROOT / "typecheck_cases" / "python"
# Compiler cases `build_packages` builds: package name -> its schema.
BUILT = {
    "named_members": CASES / "named-members" / "schema.json",
    "tagged_union": CASES / "oneof-tagged-union" / "schema.json",
}
# Checked-in packages: used from generated/, or built by `build_packages` when generated/ lacks
# them.
CHECKED_IN = {
    "xarray_v2": ROOT / "schemas" / "xarray-v2" / "schema.json",
    "xarray_v3": ROOT / "schemas" / "xarray-v3" / "schema.json",
}
# Each package's root type: every document negative is written against its root TypedDict,
# the document `parse` takes (test_runtime_twins checks these names against the packages).
ROOTS = {
    "xarray_v2": "XarrayDataset",
    "xarray_v3": "XarrayDataset",
    "named_members": "Image",
    "tagged_union": "Transformed",
}
# Negatives about mutating a model: the static mistake has no document to parse; its run-time
# twin is the exception the mutation raises (test_runtime_twins).
MUTATION_CASES = ("neg_frozen_", "neg_mutate_")

CODES = r"[a-z-]+(?:, [a-z-]+)*"
IGNORES = re.compile(
    rf"(?:  # type: ignore\[(?P<mypy>{CODES})\])?"
    r"  # pyright: ignore\[(?P<pyright>report[A-Za-z]+)\]"
    rf"(?:  # pyrefly: ignore\[(?P<pyrefly>{CODES})\])?"
    rf"(?:  # ty: ignore\[(?P<ty>{CODES})\])?$"
)


def ignore_codes(text: str | None) -> frozenset[str]:
    """The codes of one ignore comment (`"misc, arg-type"`), none for a missing one."""
    return frozenset(text.split(", ")) if text else frozenset()


@dataclass(frozen=True)
class Negative:
    path: str  # relative to the cases folder, with "/"
    line: int  # 1-based
    mypy: frozenset[str]  # empty where mypy does not reject the line
    pyright: str  # "" on a `diff_*.py` line
    pyrefly: frozenset[str]  # empty where pyrefly does not reject the line
    ty: frozenset[str]  # empty where ty does not reject the line


def case_files(root: Path, prefix: str) -> list[Path]:
    return sorted(root.glob(f"*_cases/{prefix}*.py"))


def negatives(root: Path) -> list[Negative]:
    found = []
    for path in case_files(root, "neg_"):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            match = IGNORES.search(line)
            if match:
                found.append(
                    Negative(
                        path.relative_to(root).as_posix(),
                        number,
                        ignore_codes(match["mypy"]),
                        match["pyright"],
                        ignore_codes(match["pyrefly"]),
                        ignore_codes(match["ty"]),
                    )
                )
    return found


def build_packages(out: Path) -> Path:
    """Build the compiler cases, and any checked-in package missing from generated/, into
    `out`, one package each; return `out` (it comes after generated/ on the checkers' paths)."""
    missing = {
        package: schema
        for package, schema in CHECKED_IN.items()
        if not (GENERATED / package / "__init__.py").is_file()
    }
    for package, schema in {**BUILT, **missing}.items():
        build_package(schema, out / package)
    return out


def statements(path: Path) -> list[ast.stmt]:
    return ast.parse(path.read_text("utf-8"), str(path)).body


def negative_lines(stmt: ast.stmt, lines: set[int]) -> list[int]:
    return [n for n in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1) if n in lines]


def document_root(stmt: ast.stmt) -> str | None:
    """`documents.X` when `stmt` is `name: documents.X = ...`, else None."""
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.annotation, ast.Attribute):
        value = stmt.annotation.value
        if isinstance(value, ast.Name) and value.id == "documents":
            return stmt.annotation.attr
    return None


# (case file, document variable) -> a (node path, pointer) among the problems `parse` raises.
DOCUMENT_TWINS = {
    ("named_members_cases/neg_group_where_array_must_be.py", "group_0"): ("/0", "/node_type"),
    ("named_members_cases/neg_group_where_array_must_be.py", "group_0_literal"): (
        "/0",
        "/node_type",
    ),
    ("named_members_cases/neg_missing_named_member.py", "no_members"): ("/", "/members"),
    ("named_members_cases/neg_missing_named_member.py", "only_labels"): ("/", "/members"),
    ("named_members_cases/neg_missing_required_attribute.py", "no_labels"): (
        "/labels",
        "/attributes",
    ),
    ("named_members_cases/neg_unknown_key_on_closed_object.py", "colour"): ("/", "/colour"),
    ("named_members_cases/neg_unknown_key_on_closed_object.py", "colour_0"): ("/0", "/colour"),
    ("named_members_cases/neg_wrong_const_or_enum_literal.py", "format_2"): ("/", "/zarr_format"),
    ("named_members_cases/neg_wrong_const_or_enum_literal.py", "node_type_array"): (
        "/",
        "/node_type",
    ),
    ("named_members_cases/neg_wrong_data_type.py", "float64"): ("/0", "/data_type"),
    ("tagged_union_cases/neg_missing_required_attribute.py", "no_transform"): ("/", "/attributes"),
    ("tagged_union_cases/neg_unknown_key_on_closed_object.py", "colour"): ("/", "/attributes"),
    ("tagged_union_cases/neg_unknown_key_on_closed_object.py", "coloured_identity"): (
        "/",
        "/attributes/transform",
    ),
    ("tagged_union_cases/neg_wrong_tag_literal.py", "rotate"): (
        "/",
        "/attributes/transform/type",
    ),
    ("xarray_v2_cases/neg_group_where_array_must_be.py", "group_member"): ("/g", ""),
    ("xarray_v2_cases/neg_missing_required_attribute.py", "no_dimensions"): ("/t", "/attributes"),
    ("xarray_v2_cases/neg_unknown_key_on_closed_object.py", "node_type"): ("/t", "/node_type"),
    ("xarray_v2_cases/neg_wrong_const_or_enum_literal.py", "format_3"): ("/", "/zarr_format"),
    ("xarray_v2_cases/neg_wrong_const_or_enum_literal.py", "order_z"): ("/t", "/order"),
    ("xarray_v3_cases/neg_group_where_array_must_be.py", "group_member"): ("/g", "/node_type"),
    ("xarray_v3_cases/neg_group_where_array_must_be.py", "group_member_literal"): (
        "/g",
        "/node_type",
    ),
    ("xarray_v3_cases/neg_missing_dimension_names.py", "no_names"): ("/t", ""),
    ("xarray_v3_cases/neg_null_dimension_name.py", "null_name"): ("/t", "/dimension_names/0"),
    ("xarray_v3_cases/neg_unknown_key_on_closed_object.py", "colour"): ("/", "/colour"),
    ("xarray_v3_cases/neg_unknown_key_on_closed_object.py", "colour_variable"): (
        "/t",
        "/colour",
    ),
    ("xarray_v3_cases/neg_wrong_const_or_enum_literal.py", "format_2"): ("/", "/zarr_format"),
    ("xarray_v3_cases/neg_wrong_const_or_enum_literal.py", "node_type_group"): (
        "/t",
        "/node_type",
    ),
}
