"""validate.ts gives the Python loader's verdicts, and the same problems.

Every document is checked by both languages and compared as (verdict, problems), a problem
being (node path, pointer, keyword, schema path) and, for the corpus and the derived cases, what
its message says: the value given, the keys named (check_cases.py's `message_content`; the words
are each engine's own).

- The corpus, through zomgen's TypeScript runtime on its own: every metadata-only store (under
  the base ZOMs, the base ZOMs with the length checks, and the xarray conventions), the Zarr
  metadata conformance cases, the OME-NGFF suites and examples, the zarr-conventions examples;
  and every derived type-check case of every bundled convention and compiler case
  (typecheck_cases/derived/: the valid hierarchy and each mutated document).
- Real stores written by xarray and zarr-python, read by the Python loader, then checked by the
  generated packages' own `validate.ts` (compiled by tsc, run by Node), as an app would: plus
  the same documents broken in the ways users break them.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import shutil
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import zarr
from zomgen_runtime import Problem, check_document, read_document

from tests.support.corpus_cases import (
    CONFORMANCE_CASES,
    CONVENTION_CASES,
    OME_CASES,
    STORE_ROOTS,
    as_node,
    with_length_checks,
)
from tests.support.corpus_wrappers import WRAPPERS_TO_BUILD, includes_for
from tests.support.node import HARNESS, compile_typescript, run_node
from tests.support.option_stores import option_cases
from tests.support.runtime import (
    CHECK_COMBINATOR_CASES,
    CONVENTIONS,
    CORPUS,
    ROOT,
    STORES,
    base,
    bundled,
    convention,
    encoded_cases,
    ome_image_store,
    xarray_dataset,
)
from tests.support.scripts import load_script
from zomgen.cases.check_cases import message_content, twin_differences
from zomgen.pipeline import Options, generate
from zomgen.write import write_package

pytestmark = [pytest.mark.node, pytest.mark.slow]

warnings.filterwarnings("ignore", category=UserWarning)  # zarr: v3 consolidation is not in the spec

Verdict = tuple[bool, list[tuple[str, str, str, str]]]


def _python(document: Any, schema: dict[str, Any]) -> Verdict:
    problems = check_document(document, schema)
    return not problems, sorted(_row(p) for p in problems)


def _row(p: Problem | dict[str, str]) -> tuple[str, str, str, str]:
    if isinstance(p, Problem):
        return p.node_path, p.pointer, p.keyword, p.schema_path
    return p["node_path"], p["pointer"], p["keyword"], p["schema_path"]


def _typescript(result: dict[str, Any]) -> Verdict:
    assert result["valid"] == (result["problems"] == []), "isValid and problems disagree"
    return result["valid"], sorted(_row(p) for p in result["problems"])


# ---------------------------------------------------------------- the corpus, runtime on its own

Case = tuple[str, Callable[[], dict[str, Any]], Any]


def _store_cases() -> list[Case]:
    cases: list[Case] = []
    for root in STORE_ROOTS:
        for consolidated in (True, False):
            document, _problems = read_document(root, use_consolidated=consolidated)
            if document is None:
                continue  # GDAL's .zmetadata-only stores without consolidation: nothing to read
            v = document["zarr_format"]
            label = f"{root.relative_to(STORES)} consolidated={consolidated}"
            for name, schema in (
                ("base", lambda v=v: base(v)),
                ("length checks", lambda v=v: with_length_checks(v)),
                (f"xarray-v{v}", lambda v=v: convention(f"xarray-v{v}")),
            ):
                cases.append((f"{label} [{name}]", schema, document))
    return cases


def _conformance_cases() -> list[Case]:
    cases: list[Case] = []
    for label, case, v in CONFORMANCE_CASES:
        node = as_node(case["document"], v)
        cases.append((f"{label} [base]", lambda v=v: base(v), node))
        cases.append((f"{label} [length checks]", lambda v=v: with_length_checks(v), node))
    return cases


def _ome_cases() -> list[Case]:
    return [(label, lambda s=s, i=i: bundled(s, i), doc) for label, doc, s, i in OME_CASES]


def _convention_cases() -> list[Case]:
    external = CORPUS / "external-schemas"
    return [
        (label, lambda s=s: bundled(s, external), doc)
        for label, doc, s in CONVENTION_CASES
        if "stac" not in s.parts[-2]  # refused at build time: its STAC schema is not offline
    ]


def _combinator_cases() -> list[Case]:
    return [
        (f"combinator case {i}", lambda s=s: copy.deepcopy(s), doc)
        for i, (s, doc, _valid) in enumerate(CHECK_COMBINATOR_CASES)
    ]


def _encoded_cases() -> list[Case]:
    return [
        (label, lambda: convention("encoded-elements"), doc) for label, doc, _ in encoded_cases()
    ]


def _schema_file(path: Path) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return schema


def _derived_cases() -> list[Case]:
    """Every derived case of typecheck_cases/derived/ (each bundled convention and compiler
    case): its valid hierarchy and each mutated document, under the schema it was derived
    from (the package's schema.json in generated/, else the compiler case's, bundled)."""
    schemas = load_script("derive_cases").conventions()
    cases: list[Case] = []
    for path in sorted((ROOT / "typecheck_cases" / "derived").glob("*_cases/cases.json")):
        suite = json.loads(path.read_text("utf-8"))
        package = suite["package"]
        shipped = ROOT / "generated" / package / "schema.json"
        schema_of: Callable[[], dict[str, Any]] = (
            functools.partial(_schema_file, shipped)
            if shipped.is_file()
            else functools.partial(bundled, schemas[package])
        )
        cases.append((f"{package} valid", schema_of, suite["valid"]))
        cases.extend(
            (f"{package} {c['name']} ({c['what']})", schema_of, c["document"])
            for c in suite["cases"]
            if c["document"] is not None
        )
    return cases


FAMILIES: dict[str, Callable[[], list[Case]]] = {
    "stores": _store_cases,
    "conformance": _conformance_cases,
    "ome-ngff": _ome_cases,
    "zarr-conventions": _convention_cases,
    "check combinators": _combinator_cases,
    "options told apart by a tag": _encoded_cases,
    "derived cases": _derived_cases,
}
# At least this many documents per family, so that a corpus that moved is noticed.
MINIMUM = {
    "stores": 150,
    "conformance": 40,
    "ome-ngff": 400,
    "zarr-conventions": 20,
    "check combinators": 10,
    "options told apart by a tag": 9,
    "derived cases": 1500,
}

Compared = tuple[str, dict[str, Any], list[dict[str, str]], dict[str, Any]]


@pytest.fixture(scope="module")
def corpus_verdicts(runtime: Path) -> dict[str, list[Compared]]:
    """family -> [(label, document, Python's problems as JSON, validate.ts's result)], from
    one Node run."""
    out = runtime
    jobs: dict[str, tuple[dict[str, Any], list[tuple[str, str, Any]]]] = {}
    for family, cases in FAMILIES.items():
        for label, schema_of, document in cases():
            schema = schema_of()
            text = json.dumps(schema, sort_keys=True)
            jobs.setdefault(text, (schema, []))[1].append((family, label, document))
    payload = [
        {"schema": text, "documents": [d for _f, _l, d in docs]}
        for text, (_s, docs) in jobs.items()
    ]
    results = run_node(out / "harness" / "verdicts.mjs", payload)
    found: dict[str, list[Compared]] = {family: [] for family in FAMILIES}
    for (schema, docs), job_results in zip(jobs.values(), results, strict=True):
        for (family, label, document), result in zip(docs, job_results, strict=True):
            python = [p.to_json() for p in check_document(document, schema)]
            found[family].append((label, document, python, result))
    return found


@pytest.mark.parametrize("family", list(FAMILIES))
def test_corpus_verdicts_and_problems_agree(
    corpus_verdicts: dict[str, list[Compared]], family: str
) -> None:
    """Same verdicts, and the same problems: at the same places (node path, pointer, keyword,
    schema path), saying the same (the value given, the keys named)."""
    rows = corpus_verdicts[family]
    assert len(rows) >= MINIMUM[family]
    # both verdicts occur, so agreement is not the trivial "everything is valid"
    assert {not python for _label, _doc, python, _ts in rows} == {True, False}
    differ: list[tuple[str, list[str]]] = []
    for label, _document, python, ts in rows:
        assert ts["valid"] == (ts["problems"] == []), f"{label}: isValid and problems disagree"
        differences = twin_differences(python, ts["problems"])
        if differences:
            differ.append((label, differences))
    assert not differ, f"{len(differ)} of {len(rows)} differ, first: {differ[:3]}"


def test_a_value_meant_for_no_option_gets_one_part_per_option(runtime: Path) -> None:
    # as in Python (test_reporting.py): each option's deepest cause, in Ajv's words
    out = runtime
    _label, document, _where = encoded_cases()[-1]
    job = {"schema": json.dumps(convention("encoded-elements")), "documents": [document]}
    ((result,),) = run_node(out / "harness" / "verdicts.mjs", [job])
    (problem,) = result["problems"]
    given = document["members"]["X"]["attributes"]["encoding-type"]
    assert problem["message"].split("; ")[1:] == [
        f'option 0: /attributes/encoding-type: must be equal to constant "csr_matrix" (given: {given!r})',
        f'option 1: /attributes/encoding-type: must be equal to constant "csc_matrix" (given: {given!r})',
    ]


def test_problems_come_from_the_rule_the_node_broke(runtime: Path, tmp_path: Path) -> None:
    """As in Python (test_reporting.py), on the same stores: the option meant, the const with
    the value given, a label image's missing multiscales; in Ajv's words."""
    cases = option_cases(tmp_path)
    payload = [
        {"schema": json.dumps(convention(name)), "documents": [document]}
        for _label, name, document, _expected in cases
    ]
    results = run_node(runtime / "harness" / "verdicts.mjs", payload)
    said: dict[str, list[str]] = {}
    for (label, _name, _document, expected), (result,) in zip(cases, results, strict=True):
        problems = result["problems"]
        assert [(p["node_path"], p["pointer"], p["keyword"]) for p in problems] == [
            row[:3] for row in expected
        ], label
        python = [
            {**dict(zip(("node_path", "pointer", "keyword"), row[:3])), "message": row[3]}
            for row in expected
        ]
        assert (
            twin_differences(
                [{**p, "schema_path": ""} for p in python],
                [{**p, "schema_path": ""} for p in problems],
            )
            == []
        ), label
        said[label] = [p["message"] for p in problems]
    assert said["kinds: 'A' for 'a', three valid arrays below"] == [
        "must be equal to constant \"a\" (given: 'A')"
    ]
    assert said["scalars: a scalar of shape [2]"] == ["must be equal to constant [] (given: [2])"]
    assert said["OME 0.5: a label image without multiscales"] == [
        "must have required property 'multiscales'"
    ]
    parts = (
        "{...} (an object with 4 keys) matches none of the anyOf options; "
        "option 0: /attributes/kind: must be equal to constant \"a\" (given: 'c'); "
        "option 1: /attributes/kind: must be equal to constant \"b\" (given: 'c'); "
        "option 2: /attributes: must NOT have more than 0 properties (given: {'kind': 'c'})"
    )
    assert said["kinds: 'c', no members"] == [parts]


# The smallest v3 array `zomgen cases` synthesises (its cases below change it).
_DERIVED_ARRAY: dict[str, Any] = {
    "zarr_format": 3,
    "node_type": "array",
    "attributes": {},
    "shape": [1],
    "data_type": "uint8",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1]}},
    "chunk_key_encoding": {"name": "default"},
    "fill_value": 0,
    "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
}


def _corpus_wrapper(name: str) -> dict[str, Any]:
    """A corpus wrapper convention (tests/corpus_conventions/) bundled with the corpus schemas it
    references, as `zomgen cases` bundles it."""
    path = WRAPPERS_TO_BUILD[name]
    return bundled(path, *includes_for(path))


def _twins(runtime: Path, jobs: list[tuple[dict[str, Any], Any]]) -> list[tuple[list[Any], Any]]:
    """(Python's problems as JSON, validate.ts's result) for each (schema, document), from one
    Node run; the two must agree (check_cases.py's twin comparison)."""
    payload = [{"schema": json.dumps(schema), "documents": [document]} for schema, document in jobs]
    results = run_node(runtime / "harness" / "verdicts.mjs", payload)
    found: list[tuple[list[Any], Any]] = []
    for (schema, document), (result,) in zip(jobs, results, strict=True):
        python = [p.to_json() for p in check_document(document, schema, fast=False)]
        assert twin_differences(python, result["problems"]) == [], (python, result["problems"])
        found.append((python, result))
    return found


def test_a_key_two_closed_schemas_refuse_is_named_once(runtime: Path) -> None:
    """Ajv reports an unexpected key once per closed schema that refuses it (zarr-extensions'
    bytes codec: the base's NamedConfig and the extension's closed option); python-jsonschema's
    equal errors make one problem naming it once, and so does report.ts. Two closed schemas
    refusing different keys of one object stay two problems, as in Python."""
    # `zomgen cases` on extensions__codec_bytes, case_6: an unknown key in the codec
    codec = {"name": "bytes", "configuration": {"endian": "little"}, "zomgen_unknown": "x"}
    array = {**_DERIVED_ARRAY, "codecs": [codec]}
    closed = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "Named": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "additionalProperties": False,
            },
            "Configured": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "configuration": {"type": "object"}},
                "additionalProperties": False,
            },
        },
        "properties": {
            "attributes": {
                "properties": {
                    "codec": {
                        "allOf": [
                            {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Named"}]},
                            {"oneOf": [{"$ref": "#/$defs/Configured"}, {"type": "string"}]},
                        ]
                    }
                }
            }
        },
    }
    group = {"zarr_format": 3, "node_type": "group", "attributes": {"codec": codec}}
    (bytes_codec, two_schemas) = _twins(
        runtime, [(_corpus_wrapper("extensions__codec_bytes"), array), (closed, group)]
    )
    python, result = bytes_codec
    named_config = "/$defs/zomgen:v3.schema.json/$defs/NamedConfig/additionalProperties"
    assert [(p["pointer"], p["keyword"], p["schema_path"]) for p in python] == [
        ("/codecs/0", "additionalProperties", named_config)
    ]
    assert [p["message"] for p in result["problems"]] == [
        "must NOT have additional properties ('zomgen_unknown' was unexpected)"
    ]
    python, result = two_schemas
    assert sorted((p["schema_path"], p["message"]) for p in result["problems"]) == [
        (
            "/$defs/Configured/additionalProperties",
            "must NOT have additional properties ('zomgen_unknown' was unexpected)",
        ),
        (
            "/$defs/Named/additionalProperties",
            "must NOT have additional properties ('configuration', 'zomgen_unknown' were unexpected)",
        ),
    ]


def test_a_value_no_option_selects_is_weighed_by_its_keys_in_both(runtime: Path) -> None:
    """A Zarr v3 array among a pydantic-zarr v2 group's members: its zarr_format (3) is no
    option's tag, and both options (GroupSpec, ArraySpec) fail at the value itself. Every key
    counts once, missing or unexpected, however the engine groups them: GroupSpec refuses seven
    keys and zarr_format, ArraySpec five keys, two missing ones and zarr_format: no option came
    closer, so one part per option, never GroupSpec's problems alone (python-jsonschema names
    the seven in one error, and counting errors chose the group for an array)."""
    # `zomgen cases` on zarr_metadata__pydantic_v2_group, case_3: an array where a member is
    array = {**_DERIVED_ARRAY, "codecs": [{"name": "bytes"}]}
    document = {"zarr_format": 2, "attributes": {}, "members": {"extra": array}}
    ((python, result),) = _twins(
        runtime, [(_corpus_wrapper("zarr_metadata__pydantic_v2_group"), document)]
    )
    members = "/$defs/zomgen:v2_GroupSpec.validation.schema.json/$defs/GroupSpec/properties/members"
    for problems in (python, result["problems"]):
        assert [
            (p["node_path"], p["pointer"], p["keyword"], p["schema_path"]) for p in problems
        ] == [("/extra", "", "anyOf", f"{members}/anyOf/0/additionalProperties/anyOf")]
        (problem,) = problems
        assert message_content("anyOf", problem["message"]) == (
            "options",
            ("size", "object", 9),
            (("option 0", "itself"), ("option 1", "itself")),
        ), problem["message"]
    # each option's unexpected keys named together, in both
    parts = result["problems"][0]["message"].split("; ")
    assert parts[1].startswith(
        "option 0: itself: must NOT have additional properties ('chunk_grid', "
    )


# ---------------------------------------------------------------- real stores, generated packages

OME_IMAGE = CONVENTIONS / "ome-0.4-image.json"
OME_SCHEMAS = CORPUS / "ome-ngff" / "0.4" / "schemas"


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of packages (`<name>/`), compiled into `out/<name>/`: the checked-in xarray
    packages and an OME 0.4 image package built from tests/runtime/conventions."""
    work = tmp_path_factory.mktemp("ts_packages")
    for name in ("xarray_v2", "xarray_v3"):
        shutil.copytree(ROOT / "generated" / name, work / name)
    write_package(generate(Options(OME_IMAGE, (OME_SCHEMAS,), "ome_image")), work / "ome_image")
    compile_typescript(work, ["*/*.ts", "*/_runtime_ts/*.ts"])
    return work


def _zarr_hierarchy(store: Path, zarr_format: Any) -> None:
    """A plain zarr-python hierarchy: a subgroup, which no xarray dataset has."""
    root = zarr.open_group(store, mode="w", zarr_format=zarr_format)
    root.create_array("a", shape=(4,), dtype="int32")
    sub = root.create_group("sub", attributes={"note": "nested"})
    sub.create_array("b", shape=(2, 2), dtype="float64")


def _read(store: Path, consolidated: bool | None = None) -> dict[str, Any]:
    document, problems = read_document(store, use_consolidated=consolidated)
    assert document is not None, problems
    return document


# Ways users break a document: (name, mutation). A mutation returns None when it does not
# apply to that document.
def _first(document: dict[str, Any], kind: str) -> dict[str, Any] | None:
    for child in document.get("members", {}).values():
        if ("shape" in child) == (kind == "array"):
            return child
    return None


def _drop(key: str) -> Callable[[dict[str, Any]], bool]:
    def mutate(document: dict[str, Any]) -> bool:
        array = _first(document, "array")
        if array is None:
            return False
        if key in array:
            del array[key]
            return True
        attributes = array.get("attributes", {})
        return attributes.pop(key, None) is not None

    return mutate


def _set(where: str, key: str, value: Any) -> Callable[[dict[str, Any]], bool]:
    def mutate(document: dict[str, Any]) -> bool:
        node = document if where == "root" else _first(document, "array")
        if node is None:
            return False
        node[key] = value
        return True

    return mutate


def _extra_group(document: dict[str, Any]) -> bool:
    group = {"zarr_format": document["zarr_format"], "attributes": {}, "members": {}}
    if document["zarr_format"] == 3:
        group["node_type"] = "group"
    document.setdefault("members", {})["extra"] = group
    return True


def _wrong_dimension_count(document: dict[str, Any]) -> bool:
    array = _first(document, "array")
    if array is None:
        return False
    names = array.get("dimension_names") or array.get("attributes", {}).get("_ARRAY_DIMENSIONS")
    if not isinstance(names, list):
        return False
    names.append("extra")
    return True


def _rename_dataset(document: dict[str, Any]) -> bool:
    multiscales = document.get("attributes", {}).get("multiscales")
    if not multiscales:
        return False
    multiscales[0]["datasets"][0]["path"] = "missing"
    return True


MUTATIONS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "root zarr_format": _set("root", "zarr_format", 4),
    "unknown key on an array": _set("array", "colour", "red"),
    "shape is not a list": _set("array", "shape", "big"),
    "array without dimension names": _drop("dimension_names"),
    "array without _ARRAY_DIMENSIONS": _drop("_ARRAY_DIMENSIONS"),
    "dimension names one too many": _wrong_dimension_count,
    "a group among the members": _extra_group,
    "dataset path names nothing": _rename_dataset,
}


def _real_documents(tmp_path: Path) -> list[tuple[str, str, dict[str, Any]]]:
    """(package, label, document) of real stores, each also broken every way that applies."""
    found: list[tuple[str, str, dict[str, Any]]] = []
    for zarr_format in (2, 3):
        for consolidated in (True, False):
            store = tmp_path / f"xr{zarr_format}{consolidated}.zarr"
            xarray_dataset().to_zarr(store, zarr_format=zarr_format, consolidated=consolidated)
            label = f"xarray to_zarr v{zarr_format} consolidated={consolidated}"
            found.append((f"xarray_v{zarr_format}", label, _read(store, consolidated)))
            if not consolidated:
                # the store of the other Zarr version: one problem, at the root's zarr_format
                other = f"xarray_v{5 - zarr_format}"
                found.append((other, f"{label}, checked as v{5 - zarr_format}", _read(store)))
        store = tmp_path / f"plain{zarr_format}.zarr"
        _zarr_hierarchy(store, zarr_format)
        found.append((f"xarray_v{zarr_format}", f"zarr-python v{zarr_format}", _read(store)))
    found.append(("ome_image", "OME-NGFF 0.4 image", _read(ome_image_store(tmp_path))))
    broken: list[tuple[str, str, dict[str, Any]]] = []
    for package, label, document in found:
        for name, mutate in MUTATIONS.items():
            changed = copy.deepcopy(document)
            if mutate(changed):
                broken.append((package, f"{label}, {name}", changed))
    return found + broken


def test_real_stores_through_generated_packages(packages: Path, tmp_path: Path) -> None:
    rows = _real_documents(tmp_path)
    for package, label, document in rows:
        if label.endswith(("checked as v2", "checked as v3")):
            schema = json.loads((packages / package / "schema.json").read_text("utf-8"))
            where = [row[:3] for row in _python(document, schema)[1]]
            assert where == [("/", "/zarr_format", "const")], label
    by_package: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for package, label, document in rows:
        by_package.setdefault(package, []).append((label, document))
    payload = [
        {
            "package": str(packages / "out" / name / "validate.js"),
            "documents": [d for _l, d in docs],
        }
        for name, docs in by_package.items()
    ]
    results = run_node(HARNESS / "package_verdicts.mjs", payload)
    verdicts: list[bool] = []
    for (name, docs), job in zip(by_package.items(), results, strict=True):
        # The package's Python side checks with the schema.json the TypeScript side embeds.
        schema = json.loads((packages / name / "schema.json").read_text("utf-8"))
        for (label, document), ts in zip(docs, job, strict=True):
            valid, problems = _python(document, schema)
            verdicts.append(valid)
            ts_problems = sorted(_row(p) for p in ts["problems"])
            assert (valid, problems) == (not ts_problems, ts_problems), label
            assert ts["guard"] is valid, label
            if valid:
                assert ts["parsed"] == document and ts["frozen"] is True, label
            else:
                assert ts["error"]["isZomError"], label
                assert sorted(_row(p) for p in ts["error"]["problems"]) == problems, label
    assert verdicts.count(True) >= 5 and verdicts.count(False) >= 20


# ---------------------------------------------------------------- keys JavaScript treats specially


def _weird_documents() -> list[tuple[str, dict[str, Any]]]:
    """tests/cases/weird-keys: `__proto__`, `constructor`, quotes, spaces and non-ASCII keys,
    valid and broken; Ajv alone misjudges `__proto__` and `constructor` (engine.ts)."""
    array = {
        "zarr_format": 3,
        "node_type": "array",
        "attributes": {},
        "shape": [2],
        "data_type": "float32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0,
        "codecs": [{"name": "bytes"}],
    }
    attributes = {
        "class": "c",
        "ome-zarr": {"version": "0.5"},
        "größe": 2.5,
        "__proto__": "p",
        "constructor": "k",
        'it\'s "quoted"': "q",
    }
    valid = {"zarr_format": 3, "node_type": "group", "attributes": attributes, "members": {}}
    found = [("valid", valid), ("with members", {**valid, "members": {"with space": array}})]
    for key, value in (("__proto__", 1), ("constructor", 1), ("größe", "big")):
        found.append(
            (f"{key} of the wrong type", {**valid, "attributes": {**attributes, key: value}})
        )
    without = {k: v for k, v in attributes.items() if k not in ("__proto__", "constructor")}
    found.append(("no __proto__ or constructor", {**valid, "attributes": without}))
    found.append(("unknown key", {**valid, "attributes": {**attributes, "toString": "x"}}))
    found.append(("missing class", {**valid, "attributes": {"ome-zarr": {"version": "0.5"}}}))
    found.append(("__proto__ member", {**valid, "members": {"__proto__": array}}))
    return found


def test_keys_javascript_treats_specially(tmp_path: Path) -> None:
    schema = ROOT / "tests" / "cases" / "weird-keys" / "schema.json"
    write_package(generate(Options(schema, (), "weird")), tmp_path / "weird")
    out = compile_typescript(tmp_path, ["weird/*.ts", "weird/_runtime_ts/*.ts"])
    rows = _weird_documents()
    bundled_schema = json.loads((tmp_path / "weird" / "schema.json").read_text("utf-8"))
    # JSON text carries `__proto__` as an own key into Node, as JSON.parse does in an app.
    payload = [{"package": str(out / "weird" / "validate.js"), "documents": [d for _l, d in rows]}]
    [results] = run_node(HARNESS / "package_verdicts.mjs", payload)
    for (label, document), ts in zip(rows, results, strict=True):
        python = _python(document, bundled_schema)
        assert python == (not ts["problems"], sorted(_row(p) for p in ts["problems"])), label
    assert [label for (label, d), ts in zip(rows, results, strict=True) if not ts["problems"]] == [
        "valid",
        "with members",
        "no __proto__ or constructor",
    ]


# ---------------------------------------------------------------- regular expression dialects


def _pattern_package(tmp_path: Path, name: str, pattern: str) -> Path:
    schema = {
        "title": "Patterned",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"attributes": {"type": "object", "properties": {"x": {"pattern": pattern}}}},
    }
    source = tmp_path / f"{name}.json"
    source.write_text(json.dumps(schema), encoding="utf-8")
    write_package(generate(Options(source, (), name)), tmp_path / name)
    return tmp_path / name


@pytest.mark.parametrize(
    ("name", "pattern", "values"),
    [
        # `\-` outside a class: a `u`-flag RegExp refused it; RE2 reads it in both run times
        ("escaped", r"^a\-b$", [("a-b", True), ("ab", False), ("a\\-b", False)]),
        # Python's spelling of a named group: RegExp refused it (validate threw); RE2 reads it
        ("named_group", r"^(?P<year>[0-9]{4})$", [("2026", True), ("x2026", False)]),
    ],
)
def test_patterns_a_regexp_could_not_read_agree(
    tmp_path: Path, name: str, pattern: str, values: list[tuple[str, bool]]
) -> None:
    package = _pattern_package(tmp_path, name, pattern)
    out = compile_typescript(tmp_path, [f"{name}/*.ts", f"{name}/_runtime_ts/*.ts"])
    schema = json.loads((package / "schema.json").read_text("utf-8"))
    group = {"zarr_format": 3, "node_type": "group", "members": {}}
    documents = [{**group, "attributes": {"x": value}} for value, _ in values]
    payload = [{"package": str(out / name / "validate.js"), "documents": documents}]
    [results] = run_node(HARNESS / "package_verdicts.mjs", payload)
    verdicts = [not ts["problems"] for ts in results]
    assert verdicts == [_python(d, schema)[0] for d in documents] == [v for _, v in values]


def test_the_typescript_runtime_is_flat_and_imports_only_itself_and_its_peers() -> None:
    """It is copied file by file into a vendored package (`_runtime_ts/`) and into every page.
    zarrita is imported by http.ts alone, so a bundle of validate.ts holds none of it; re2js by
    patterns.ts alone; @marcbachmann/cel-js by rules.ts alone."""
    runtime = ROOT / "runtime" / "typescript" / "src"
    assert sorted(p.suffix for p in runtime.iterdir()) == [".ts"] * len(list(runtime.iterdir()))
    for source in runtime.glob("*.ts"):
        for spec in re.findall(r'\bfrom "([^"]+)"', source.read_text("utf-8")):
            local = spec.startswith("./") and (runtime / spec[2:]).with_suffix(".ts").is_file()
            zarrita = spec == "zarrita" and source.name == "http.ts"
            re2js = spec == "re2js" and source.name == "patterns.ts"
            cel = spec == "@marcbachmann/cel-js" and source.name == "rules.ts"
            peer = zarrita or re2js or cel or spec.startswith("ajv/dist/")
            assert local or peer, (source.name, spec)


def _nested(depth: int, attributes: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = {"zarr_format": 2, "attributes": attributes, "members": {}}
    for _ in range(depth):
        node = {"zarr_format": 2, "attributes": {}, "members": {"c": node}}
    return node


def test_deep_hierarchies(tmp_path: Path) -> None:
    """Groups of groups (tests/cases/recursive-group): 120 levels agree with Python, broken at the
    bottom; 5,000 levels, beyond the JavaScript stack, are a problem, not an exception."""
    schema_file = ROOT / "tests" / "cases" / "recursive-group" / "schema.json"
    write_package(generate(Options(schema_file, (), "tree")), tmp_path / "tree")
    out = compile_typescript(tmp_path, ["tree/*.ts", "tree/_runtime_ts/*.ts"])
    schema = json.loads((tmp_path / "tree" / "schema.json").read_text("utf-8"))
    documents = [_nested(120, {}), _nested(120, {"note": 5}), _nested(5000, {})]
    payload = [{"package": str(out / "tree" / "validate.js"), "documents": documents}]
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)  # json.dumps recurses once per level
    try:
        [results] = run_node(HARNESS / "package_verdicts.mjs", payload)
    finally:
        sys.setrecursionlimit(limit)
    for document, ts in zip(documents[:2], results[:2], strict=True):
        assert _python(document, schema) == (ts["guard"], sorted(_row(p) for p in ts["problems"]))
    assert results[1]["problems"][0]["node_path"] == "/c" * 120
    too_deep = results[2]
    assert too_deep["guard"] is False and too_deep["error"]["isZomError"]
    assert [(p["keyword"], p["message"]) for p in too_deep["problems"]] == [
        ("schema", "the document nests too deeply to check")
    ]


def test_a_key_a_false_subschema_forbids_is_named_alike(runtime: Path) -> None:
    """A `false` under `properties` or `patternProperties` forbids a key: both run times name it
    at its own pointer, with the keyword `false schema` and the same words (python-jsonschema
    alone stood at the object holding it, keyword None)."""
    schema = {
        "type": "object",
        "properties": {
            "attributes": {
                "type": "object",
                "properties": {"x": False, "z": {"type": "string"}},
                "patternProperties": {"^y": False},
            }
        },
    }
    document = {"attributes": {"x": 1, "yy": 2, "yz": [3], "z": "ok"}}
    payload = [{"schema": json.dumps(schema), "documents": [document]}]
    ((result,),) = run_node(runtime / "harness" / "verdicts.mjs", payload)
    python = [p.to_json() for p in check_document(document, schema, fast=False)]
    assert sorted(python, key=str) == sorted(result["problems"], key=str)
    assert [(p["pointer"], p["keyword"], p["message"]) for p in python] == [
        ("/attributes/x", "false schema", "'x' is not allowed here: its schema is false"),
        ("/attributes/yy", "false schema", "'yy' is not allowed here: its schema is false"),
        ("/attributes/yz", "false schema", "'yz' is not allowed here: its schema is false"),
    ]


def test_a_value_is_shown_alike_whatever_characters_it_holds(runtime: Path) -> None:
    """repr in pointers.ts writes what Python's repr escapes (not printable: controls, format
    characters such as U+202E, separators, surrogates, private use) the same way."""
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {"attributes": {"properties": {"v": {"const": "x"}}}},
    }
    values = [
        "plain é 名",
        "tab\tnew\nline",
        "bell\x07 del\x7f c1\x9b",
        "nbsp\xa0 soft\xad",
        "rlo\u202e zw\u200b ls\u2028 ps\u2029",
        "private\ue000 astral\U0001f600",
        "quote' and \"",
    ]
    documents = [
        {"zarr_format": 3, "node_type": "group", "attributes": {"v": v}, "members": {}}
        for v in values
    ]
    job = {"schema": json.dumps(schema), "documents": documents}
    (results,) = run_node(runtime / "harness" / "verdicts.mjs", [job])
    for value, document, result in zip(values, documents, results, strict=True):
        (python,) = check_document(document, schema)
        (typescript,) = result["problems"]
        assert python.message.endswith(f"(given: {value!r})"), python.message
        assert typescript["message"].endswith(f"(given: {value!r})"), typescript["message"]
