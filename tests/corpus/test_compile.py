"""zomgen on real-world schemas it has never seen: every usable schema of the shared corpus.

Each corpus schema is compiled through a small wrapper convention in tests/corpus_conventions/
(a node schema that references it, the way a user would write one):

- OME-NGFF 0.4 (v2 `.zattrs`), 0.5, 0.6.dev4, 0.6rc0 (every schema, strict_* and ome_zarr
  included; the fragments axes / coordinate systems / transformations / version as one attribute),
  and RFC-4's orientation classes: the group's `attributes` refer to the schema;
- zarr-conventions (whole `zarr.json` schemas): the node is the base node *and* the convention,
  `allOf: [GroupSpec, <convention>]`, with array members refined the same way where the
  convention applies to arrays; the older attribute-level ones refine `attributes`;
- zarr-extensions: each codec as `codecs.items`, each data type as `data_type`, the chunk grid
  as `chunk_grid` of an ArraySpec, and all of them at once as a union;
- a few core-metadata schemas that are node schemas in their own right (PR #347, pydantic-zarr,
  d-v-b).

Every wrapper is built with `zomgen build` into its own package; then ONE mypy --strict, ONE
pyright (strict), ONE pyrefly, ONE ty (both configured as tests/support/checkers.py says) and ONE
ruff check / ruff format --check run over all packages (pyright, pyrefly and ty read the run time
every package vendors once: tests/support/package_checks.py), and the findings are reported per
package. Pyright also checks that every schema-valid document of the
corpus (OME test suites and examples, convention examples and stores) is accepted, as a literal,
by the package's `documents` TypedDicts.

Known compiler bugs are xfail(strict=True): when a fix lands the test XPASSes and fails, which is
the signal to delete the mark. The corpus lives in ../shared/corpus beside the clone.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_zomgen
from tests.support.convert_branches import unreachable_branches
from tests.support.corpus_literals import (
    attributes_annotation,
    package_for_schema,
)
from tests.support.corpus_verdicts import (
    CORPUS_SCHEMAS,
    corpus_cases,
    original_verdict,
    schema_by_uri,
)
from tests.support.corpus_wrappers import (
    ALL_WRAPPERS,
    WRAPPERS_TO_BUILD,
    ZARR_CONVENTIONS,
    corpus_refs,
    includes_for,
)
from tests.support.package_checks import Findings, build, build_many, check_packages, zomgen
from tests.support.paths import CORPUS

pytestmark = [
    pytest.mark.checkers,
    pytest.mark.node,
    pytest.mark.corpus,
    pytest.mark.slow,
]

# Corpus schemas deliberately not compiled, with the reason.
NOT_WRAPPED = {
    f"{ZARR_CONVENTIONS}/pvanlaake__zarr-conventions-registry/schema/convention.schema.json": (
        "validates a registry entry, not a Zarr node"
    ),
    f"{ZARR_CONVENTIONS}/zarr-conventions__stac/schema.json": (
        "its STAC v1.1.0 targets are not in the corpus: refused (test_stac_is_refused_offline)"
    ),
    "zarr-extensions/codecs/n5_default/schema.json": (
        "malformed (`items: {type: '#/$defs/codec'}`): must be refused (test_malformed_...)"
    ),
}


# --- known compiler bugs (reported; remove a mark when its fix lands) ---------------------------

KNOWN: dict[str, dict[str, str]] = defaultdict(dict)


def _param(name: str, check: str) -> Any:
    known = KNOWN.get(name, {})
    reason = known.get(check) or known.get("build")  # a package that does not build fails all
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, marks=marks, id=name)


# --- the corpus packages ----------------------------------------------------------------------


@dataclass
class Corpus:
    folder: Path
    builds: dict[str, subprocess.CompletedProcess[str]]
    findings: Findings
    examples: dict[str, list[str]]  # package -> labels of the documents checked as literals


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    folder = tmp_path_factory.mktemp("corpus_packages")
    jobs = {n: (p, includes_for(p)) for n, p in WRAPPERS_TO_BUILD.items()}
    builds = build_many(jobs, folder)
    built = sorted(n for n, r in builds.items() if r.returncode == 0)
    examples = write_example_modules(folder, built)
    extra = [f"_examples/{name}.py" for name in sorted(examples)]
    return Corpus(folder, builds, check_packages(folder, built, extra), examples)


def _built(corpus: Corpus, name: str) -> None:
    result = corpus.builds[name]
    if result.returncode != 0:
        pytest.fail(f"{name} did not build:\n{result.stderr}")


@pytest.mark.parametrize("name", [_param(n, "build") for n in WRAPPERS_TO_BUILD])
def test_corpus_schema_compiles(corpus: Corpus, name: str) -> None:
    result = corpus.builds[name]
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    package = corpus.folder / name
    assert {"models.py", "documents.py", "schema.json", "__init__.py"} <= {
        p.name for p in package.iterdir()
    }


@pytest.mark.parametrize("name", [_param(n, "mypy") for n in WRAPPERS_TO_BUILD])
def test_mypy_strict(corpus: Corpus, name: str) -> None:
    _built(corpus, name)
    assert not corpus.findings.mypy.get(name), "\n".join(corpus.findings.mypy[name])


@pytest.mark.parametrize("name", [_param(n, "pyright") for n in WRAPPERS_TO_BUILD])
def test_pyright_strict(corpus: Corpus, name: str) -> None:
    _built(corpus, name)
    assert not corpus.findings.pyright.get(name), "\n".join(corpus.findings.pyright[name])


@pytest.mark.parametrize("name", [_param(n, "pyrefly") for n in WRAPPERS_TO_BUILD])
def test_pyrefly(corpus: Corpus, name: str) -> None:
    _built(corpus, name)
    assert not corpus.findings.pyrefly.get(name), "\n".join(corpus.findings.pyrefly[name])


@pytest.mark.parametrize("name", [_param(n, "ty") for n in WRAPPERS_TO_BUILD])
def test_ty(corpus: Corpus, name: str) -> None:
    _built(corpus, name)
    assert not corpus.findings.ty.get(name), "\n".join(corpus.findings.ty[name])


@pytest.mark.parametrize("name", [_param(n, "ruff") for n in WRAPPERS_TO_BUILD])
def test_ruff_check_and_format(corpus: Corpus, name: str) -> None:
    _built(corpus, name)
    assert not corpus.findings.ruff.get(name), "\n".join(corpus.findings.ruff[name])


@pytest.mark.parametrize("name", [_param(n, "typescript") for n in WRAPPERS_TO_BUILD])
def test_typescript_strict_and_validate_runs(corpus: Corpus, name: str) -> None:
    _built(corpus, name)
    assert not corpus.findings.typescript.get(name), "\n".join(corpus.findings.typescript[name])


@pytest.mark.parametrize("name", [_param(n, "build") for n in WRAPPERS_TO_BUILD])
def test_no_union_branch_is_unreachable(corpus: Corpus, name: str) -> None:
    _built(corpus, name)
    converters = (corpus.folder / name / "_convert.py").read_text("utf-8")
    assert unreachable_branches(converters) == []


def test_valid_corpus_documents_are_accepted_by_the_typeddicts(corpus: Corpus) -> None:
    """Every document the original schema accepts type-checks (pyright) as a `documents` literal:
    the static types are never narrower than the schema. (mypy cannot: it has no PEP 728 and
    rejects the unknown keys of open TypedDicts, as the packages' READMEs say.)"""
    checked = sum(len(labels) for labels in corpus.examples.values())
    assert checked >= 250, corpus.examples
    problems = corpus.findings.pyright.get("_examples", [])
    assert not problems, "\n".join(problems[:40])


def test_the_checks_cover_the_whole_corpus() -> None:
    """Every corpus schema is compiled through some wrapper, or is listed in NOT_WRAPPED."""
    reached: set[Path] = set()
    for wrapper in ALL_WRAPPERS.values():
        for ref in corpus_refs(json.loads(wrapper.read_text("utf-8"))):
            target = schema_by_uri(ref, wrapper)
            assert target is not None, f"{wrapper.name}: {ref} is no corpus schema"
            reached.add(target)
    # A byte-identical copy under the same `$id` (zarr-cm vendors two) is reached with it.
    reached |= {
        p for p in CORPUS_SCHEMAS for r in list(reached) if p.read_bytes() == r.read_bytes()
    }
    expected = {
        p
        for p in CORPUS_SCHEMAS
        if p.relative_to(CORPUS).parts[0] in ("ome-ngff", ZARR_CONVENTIONS, "zarr-extensions")
    }
    missing = sorted(
        str(p.relative_to(CORPUS))
        for p in expected - reached
        if str(p.relative_to(CORPUS)) not in NOT_WRAPPED
    )
    assert not missing, missing


# --- valid corpus documents as TypedDict literals ---------------------------------------------


def write_example_modules(folder: Path, built: Sequence[str]) -> dict[str, list[str]]:
    """_examples/<package>.py: every schema-valid corpus document, as a typed literal."""
    modules: dict[str, list[tuple[str, str, object]]] = defaultdict(list)
    for case in corpus_cases():
        if original_verdict(case) is not True:
            continue
        name = package_for_schema(case.schema)
        if name is None or name not in built:
            continue
        doc = case.instance
        is_node = isinstance(doc, dict) and "attributes" in doc and "zarr_format" in doc
        attributes = doc["attributes"] if is_node else doc
        array = is_node and doc.get("node_type") == "array"
        annotation = attributes_annotation(folder / name, array_member=array)
        if annotation is None:
            continue
        modules[name].append((case.label, annotation, attributes))
    (folder / "_examples").mkdir(exist_ok=True)
    labels: dict[str, list[str]] = {}
    for name, items in sorted(modules.items()):
        lines = [f"from {name} import documents", ""]
        for i, (label, annotation, attributes) in enumerate(items):
            lines += [f"# {label}", f"example_{i}: {annotation} = {attributes!r}", ""]
        (folder / "_examples" / f"{name}.py").write_text("\n".join(lines), encoding="utf-8")
        labels[name] = [label for label, _a, _d in items]
    return labels


# --- what must be refused ---------------------------------------------------------------------


def _assert_refused(result: subprocess.CompletedProcess[str], out: Path) -> list[str]:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert not out.exists(), "nothing may be written for refused input"
    lines = result.stderr.splitlines()
    assert lines
    for line in lines:
        # zomgen: <file>:<JSON pointer>: <message>, the file one that exists
        match = re.match(r"zomgen: ([^:]+):(/.*?): \S", line)
        assert match and Path(match.group(1)).exists(), line
    return lines


def test_stac_is_refused_offline(tmp_path: Path) -> None:
    """The stac convention refers to STAC schemas on schemas.stacspec.org that are not in the
    corpus: zomgen never fetches, so it refuses and names the reference."""
    wrapper = ALL_WRAPPERS["conventions_stac__stac"]
    out = tmp_path / "stac"
    lines = _assert_refused(build(wrapper, out, includes_for(wrapper)), out)
    assert any(
        "cannot resolve `$ref` 'https://schemas.stacspec.org/" in line
        and "zarr-conventions__stac/schema.json:/$defs/" in line
        for line in lines
    ), lines


def test_malformed_corpus_schema_is_refused_cleanly(tmp_path: Path) -> None:
    """zarr-extensions n5_default says `items: {"type": "#/$defs/codec"}` (meant `$ref`)."""
    wrapper = ALL_WRAPPERS["extensions__codec_n5_default"]
    out = tmp_path / "n5"
    lines = _assert_refused(build(wrapper, out, includes_for(wrapper)), out)
    assert any("/items/type:" in line for line in lines), lines


# --- compiler bugs the corpus revealed, each as a minimal schema ------------------------------

V3_GROUP = {"$ref": "urn:zom:v3#/$defs/GroupSpec"}


def _group(attributes: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "title": "Probe",
        "allOf": [V3_GROUP],
        "properties": {"attributes": attributes},
        **extra,
    }


def _write(path: Path, schema: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(schema), encoding="utf-8")
    return path


def _ir(schema: Path, *includes: Path) -> dict[str, Any]:
    args = ["ir", str(schema)]
    for folder in includes:
        args += ["-I", str(folder)]
    result = zomgen(*args)
    assert result.returncode == 0, result.stderr
    ir: dict[str, Any] = json.loads(result.stdout)
    return ir


def _types(ir: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in ir["types"]}


def _field(ir: dict[str, Any], owner: str, key: str) -> dict[str, Any] | None:
    for f in _types(ir)[owner]["fields"]:
        if f["key"] == key:
            found: dict[str, Any] = f
            return found
    return None


def test_files_with_the_same_name_are_different_types(tmp_path: Path) -> None:
    _write(tmp_path / "lib" / "a" / "schema.json", {"enum": ["x"]})
    _write(tmp_path / "lib" / "b" / "schema.json", {"enum": ["y"]})
    root = _write(
        tmp_path / "conv" / "probe.json",
        _group(
            {
                "type": "object",
                "properties": {
                    "p": {"$ref": "https://example.org/a/schema.json"},
                    "q": {"$ref": "https://example.org/b/schema.json"},
                },
            }
        ),
    )
    ir = _ir(root, tmp_path / "lib")

    def values(key: str) -> list[object]:
        found = _field(ir, "ProbeAttributes", key)
        assert found is not None
        t = found["type"]
        while t.get("form") == "ref":
            t = _types(ir)[t["name"]]["target"]
        return list(t["values"])

    assert values("p") == ["x"]
    assert values("q") == ["y"]  # today: ["x"], both files are the one type `Schema`


def test_array_of_impossible_items_still_admits_the_empty_array(tmp_path: Path) -> None:
    schema = _group(
        {
            "type": "object",
            "properties": {
                "xs": {"type": ["array", "null"], "items": {"type": "string", "const": 1}}
            },
            "additionalProperties": False,
        }
    )
    ir = _ir(_write(tmp_path / "probe.json", schema))
    assert _field(ir, "ProbeAttributes", "xs") is not None  # {"xs": []} and {"xs": null} are valid


def test_recursive_union_alias_compiles(tmp_path: Path) -> None:
    schema = _group(
        {"type": "object", "properties": {"v": {"$ref": "#/$defs/J"}}},
        **{
            "$defs": {
                "J": {
                    "anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/J"}}]
                }
            }
        },
    )
    out = tmp_path / "pkg"
    result = build(_write(tmp_path / "probe.json", schema), out)
    assert result.returncode == 0, result.stderr


def test_object_form_of_a_data_type_type_checks(tmp_path: Path) -> None:
    schema = {
        "title": "Probe",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/ArraySpec"}],
        "properties": {
            "data_type": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "name": {"const": "int4"},
                            "configuration": {"type": "object"},
                        },
                        "required": ["name"],
                        "additionalProperties": False,
                    },
                    {"const": "int4"},
                ]
            }
        },
    }
    out = tmp_path / "pkg"
    assert build(_write(tmp_path / "probe.json", schema), out).returncode == 0
    findings = check_packages(tmp_path, ["pkg"])
    python = (findings.mypy, findings.pyright, findings.pyrefly, findings.ty)
    assert not any(python), python


@pytest.mark.parametrize(
    ("ref", "include"),
    [
        ("https://ngff.openmicroscopy.org/0.5/schemas/image.schema", "ome-ngff/0.4/schemas"),
        (
            "https://schemas.stacspec.org/v1.1.0/item-spec/json-schema/basics.json",
            "external-schemas/stac-spec@v1.0.0",
        ),
    ],
    ids=["ome-0.5-as-0.4", "stac-1.1.0-as-1.0.0"],
)
def test_a_ref_is_never_resolved_to_a_schema_with_another_id(
    tmp_path: Path, ref: str, include: str
) -> None:
    schema = _group({"type": "object", "properties": {"x": {"$ref": ref}}})
    out = tmp_path / "pkg"
    lines = _assert_refused(
        build(_write(tmp_path / "probe.json", schema), out, [CORPUS / include]), out
    )
    assert any(f"`$ref` {ref!r}" in line for line in lines), lines


def test_duplicate_ids_are_not_resolved_at_random(tmp_path: Path) -> None:
    _write(tmp_path / "a" / "x.json", {"$id": "https://example.org/x.json", "type": "string"})
    _write(tmp_path / "b" / "x.json", {"$id": "https://example.org/x.json", "type": "integer"})
    root = _write(
        tmp_path / "conv" / "probe.json",
        _group({"type": "object", "properties": {"v": {"$ref": "https://example.org/x.json"}}}),
    )
    outcomes = set()
    for seed in range(12):
        out = tmp_path / f"out{seed}" / "pkg"
        result = run_zomgen(
            "build",
            root,
            "-o",
            out,
            "-I",
            tmp_path / "a",
            "-I",
            tmp_path / "b",
            env={"PYTHONHASHSEED": str(seed)},
        )
        models = (out / "models.py").read_text("utf-8") if out.exists() else None
        outcomes.add((result.returncode, result.stderr.replace(str(out), "OUT"), models))
    # Always the same package, or always the same refusal (naming both files).
    assert len(outcomes) == 1, outcomes


def test_defs_of_foreign_files_may_share_a_name(tmp_path: Path) -> None:
    link_a = {"type": "object", "properties": {"href": {"type": "string"}}, "required": ["href"]}
    link_b = {"type": "object", "properties": {"rel": {"type": "string"}}, "required": ["rel"]}
    for stem, link in (("item", link_a), ("collection", link_b)):
        _write(
            tmp_path / "lib" / f"{stem}.json",
            {
                "$id": f"https://example.org/{stem}.json",
                "type": "object",
                "properties": {"link": {"$ref": "#/definitions/link"}},
                "definitions": {"link": link},
            },
        )
    root = _write(
        tmp_path / "conv" / "probe.json",
        _group(
            {
                "type": "object",
                "properties": {
                    "item": {"$ref": "https://example.org/item.json"},
                    "collection": {"$ref": "https://example.org/collection.json"},
                },
            }
        ),
    )
    out = tmp_path / "pkg"
    result = build(root, out, [tmp_path / "lib"])
    assert result.returncode == 0, result.stderr
