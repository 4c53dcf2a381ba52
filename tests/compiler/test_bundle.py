"""The bundled `schema.json` gives the same verdicts as the original schemas.

A generated package validates with one self-contained 2020-12 document (zomgen.schema.bundle):
every `$ref` target copied in, draft-07 meaning kept (keywords beside `$ref` dropped, array
`items` -> `prefixItems`, `dependencies` split). Here each instance of the shared corpus is
validated with python-jsonschema

(a) against the original schema, through a `referencing` Registry of every corpus schema by
    `$id` and by file, with the validator its `$schema` names (Draft 7, 2019-09, 2020-12): the
    way the corpus itself was checked (its MANIFEST), which the first test re-proves;
(b) against `bundle(load_schema_set(schema, [include]))`, with an empty registry;

and the verdicts must be equal: for the OME-NGFF test suites, examples and attribute / zarr.json
test cases, the zarr-conventions examples and the GeoZarr / GDAL stores, for a fixed sample of
mutations of each of them, and for third-party draft-07 schemas (STAC 1.0.0, GeoJSON, PROJJSON)
on the values the corpus holds. Where the manifest gives an expected validity that JSON Schema
can express (python-jsonschema agreed when the corpus was built), the verdict must be it.
Bundler bugs found with small schemas are xfail(strict=True) at the end.
"""

from __future__ import annotations

import copy
import functools
import json
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry

from tests.support.corpus_cases import read_json
from tests.support.corpus_verdicts import (
    EXTERNAL,
    Case,
    Json,
    corpus_cases,
    original_validator,
    original_verdict,
    verdict,
)
from tests.support.paths import CORPUS
from zomgen.errors import CompileError
from zomgen.schema.bundle import bundle
from zomgen.schema.registry import load_schema_set

pytestmark = pytest.mark.slow

MUTATIONS_PER_INSTANCE = 8


def is_stac(path: Path) -> bool:
    return "zarr-conventions__stac" in path.as_posix()


@functools.cache
def bundled(schema: Path, includes: tuple[Path, ...]) -> dict[str, Any]:
    return bundle(load_schema_set(schema, list(includes)))


@functools.cache
def bundled_validator(schema: Path, includes: tuple[Path, ...]) -> Validator:
    # An empty registry: a reference the bundle left pointing outside itself cannot resolve.
    return Draft202012Validator(bundled(schema, includes), registry=Registry())


def _groups() -> dict[str, list[Case]]:
    groups: dict[str, list[Case]] = {}
    for case in corpus_cases():
        if not is_stac(case.schema):
            groups.setdefault(case.schema.relative_to(CORPUS).as_posix(), []).append(case)
    return groups


GROUPS = _groups()


def test_the_corpus_cases_are_all_here() -> None:
    cases = corpus_cases()
    assert len(cases) >= 760
    assert {c.schema.relative_to(CORPUS).parts[0] for c in cases} == {
        "ome-ngff",
        "zarr-conventions",
    }
    assert sum(1 for c in cases if c.expected is False) >= 300


@pytest.mark.parametrize("schema", sorted(GROUPS))
def test_harness_reproduces_the_corpus_verdicts(schema: str) -> None:
    """(a) is how the corpus was checked: the original verdicts are the manifest's."""
    wrong = [
        (c.label, original_verdict(c), c.manifest_verdict)
        for c in GROUPS[schema]
        if c.manifest_verdict is not None and original_verdict(c) != c.manifest_verdict
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("schema", sorted(GROUPS))
def test_bundled_schema_gives_the_same_verdicts(schema: str) -> None:
    cases = GROUPS[schema]
    check = bundled_validator(cases[0].schema, cases[0].includes)
    differ = []
    unexpected = []
    for case in cases:
        mine = verdict(check, case.instance)
        if mine != original_verdict(case):
            differ.append((case.label, "original", original_verdict(case), "bundled", mine))
        # Upstream's expectation, wherever JSON Schema can express it (the manifest records the
        # cases it cannot: OME well paths, stale 0.6 zarr cases, three 0.6 examples...).
        expressible = case.expected is not None and case.manifest_verdict == case.expected
        if expressible and mine != case.expected:
            unexpected.append((case.label, "expected", case.expected, "bundled", mine))
    assert not differ, differ
    assert not unexpected, unexpected


def _paths(doc: Json, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield prefix
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from _paths(value, (*prefix, i))


_REPLACEMENTS: list[Json] = [None, "x", "", 1.5, -1, 0, True, [], [1], {}, {"a": 1}]


def mutations(doc: Json, count: int, seed: str) -> list[Json]:
    """`count` documents that differ from `doc` at one place: a key removed or a value replaced
    (deterministic for a given seed)."""
    rng = random.Random(seed)
    paths = list(_paths(doc))
    out = []
    for _ in range(count):
        path = rng.choice(paths)
        how = rng.choice(["delete", *range(len(_REPLACEMENTS))]) if path else rng.randrange(11)
        mutated = copy.deepcopy(doc)
        if not path:
            out.append(_REPLACEMENTS[int(how)])
            continue
        parent = mutated
        for step in path[:-1]:
            parent = parent[step]
        if how == "delete":
            del parent[path[-1]]
        else:
            parent[path[-1]] = copy.deepcopy(_REPLACEMENTS[int(how)])
        out.append(mutated)
    return out


@pytest.mark.parametrize("schema", sorted(GROUPS))
def test_bundled_schema_gives_the_same_verdicts_on_mutations(schema: str) -> None:
    cases = GROUPS[schema]
    original = original_validator(cases[0].schema)
    check = bundled_validator(cases[0].schema, cases[0].includes)
    differ = []
    for case in cases:
        for i, doc in enumerate(mutations(case.instance, MUTATIONS_PER_INSTANCE, case.label)):
            a, b = verdict(original, doc), verdict(check, doc)
            if a != b:
                differ.append((f"{case.label} mutation {i}", a, b, json.dumps(doc)[:300]))
    assert not differ, differ[:10]


def _refs(node: Json, pointer: str = "") -> Iterator[tuple[str, Json]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield pointer, value
            yield from _refs(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _refs(value, f"{pointer}/{i}")


@pytest.mark.parametrize("schema", sorted(GROUPS))
def test_bundle_is_one_self_contained_2020_12_document(schema: str) -> None:
    case = GROUPS[schema][0]
    document = bundled(case.schema, case.includes)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(document)
    json.dumps(document, allow_nan=False)  # plain JSON
    remote = [(p, r) for p, r in _refs(document) if not str(r).startswith("#")]
    assert not remote, remote


def test_stac_cannot_be_bundled_offline() -> None:
    """Its STAC v1.1.0 targets are not in the corpus; nothing is fetched."""
    stac = CORPUS / "zarr-conventions" / "zarr-conventions__stac" / "schema.json"
    with pytest.raises(CompileError) as info:
        bundle(load_schema_set(stac, []))
    message = str(info.value.problems[0])
    assert "cannot resolve `$ref` 'https://schemas.stacspec.org/" in message, message


# --- draft-07: keywords beside `$ref` are ignored, as python-jsonschema's Draft7 does ---------

SPATIAL = CORPUS / "zarr-conventions" / "zarr-conventions__spatial" / "schema.json"
CF = CORPUS / "zarr-conventions" / "zarr-conventions__CF" / "schema.json"


def test_draft07_drops_ref_siblings_like_draft7_does() -> None:
    """MANIFEST §6.3: under draft-07 (spatial) a document without `zarr_conventions` passes,
    because `required` sits beside a `$ref`; under 2020-12 (CF, same layout) it fails."""
    spatial_doc = read_json(SPATIAL.parent / "examples" / "proj.json")
    del spatial_doc["attributes"]["zarr_conventions"]
    assert original_validator(SPATIAL).is_valid(spatial_doc)
    assert bundled_validator(SPATIAL, (EXTERNAL,)).is_valid(spatial_doc)

    cf_doc = read_json(CF.parent / "examples" / "minimal.json")
    del cf_doc["attributes"]["zarr_conventions"]
    assert not original_validator(CF).is_valid(cf_doc)
    assert not bundled_validator(CF, (EXTERNAL,)).is_valid(cf_doc)

    document = bundled(SPATIAL, (EXTERNAL,))
    attributes = document["properties"]["attributes"]
    assert set(attributes) <= {"$ref", "description", "title", "$defs", "definitions"}


def _values(doc: Json, key: str) -> Iterator[Json]:
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k == key:
                yield v
            yield from _values(v, key)
    elif isinstance(doc, list):
        for v in doc:
            yield from _values(v, key)


def _third_party() -> list[tuple[str, Path, list[Json]]]:
    stac_examples = sorted(
        (CORPUS / "zarr-conventions" / "zarr-conventions__stac").glob("examples/*.json")
    )
    docs = [read_json(p) for p in stac_examples]
    items = [v for d in docs for v in _values(d, "stac:item")]
    geometries = [v for d in docs for v in _values(d, "geometry")]
    projjson = [
        v
        for p in sorted((CORPUS / "stores").rglob("zarr.json"))
        for v in _values(read_json(p), "proj:projjson")
    ]
    geojson = EXTERNAL / "geojson-schema@gh-pages"
    return [
        ("stac-1.0.0-item", EXTERNAL / "stac-spec@v1.0.0/item-spec/json-schema/item.json", items),
        ("geojson-geometry", geojson / "Geometry.json", geometries),
        ("geojson-feature", geojson / "Feature.json", items),
        ("projjson", EXTERNAL / "proj/schemas/v0.7/projjson.schema.json", projjson),
    ]


@pytest.mark.parametrize(
    ("schema", "instances"),
    [(s, i) for _n, s, i in _third_party()],
    ids=[n for n, _s, _i in _third_party()],
)
def test_third_party_draft07_schemas_bundle_faithfully(schema: Path, instances: list[Json]) -> None:
    """STAC 1.0.0 (`dependencies`, `if/then/else`, relative refs), GeoJSON and PROJJSON
    (recursive `definitions`) on the values the corpus holds, and on their mutations."""
    assert instances
    original = original_validator(schema)
    check = bundled_validator(schema, (EXTERNAL,))
    docs = [
        *instances,
        *(m for i, d in enumerate(instances) for m in mutations(d, 40, f"{schema}{i}")),
    ]
    differ = [
        (json.dumps(d)[:200], verdict(original, d), verdict(check, d))
        for d in docs
        if verdict(original, d) != verdict(check, d)
    ]
    assert not differ, differ[:10]


# --- bundler behaviour on small schemas -------------------------------------------------------

D7 = "http://json-schema.org/draft-07/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"


PROBES: list[tuple[str, Json, list[Json], str | None]] = [
    (
        "anchor",
        {
            "$defs": {"a": {"$anchor": "foo", "type": "integer"}},
            "properties": {"x": {"$ref": "#foo"}},
        },
        [{"x": "s"}, {"x": 1}],
        None,
    ),
    (
        "draft07-plain-name-id",
        {
            "$schema": D7,
            "definitions": {"a": {"$id": "#foo", "type": "integer"}},
            "properties": {"x": {"$ref": "#foo"}},
        },
        [{"x": "s"}, {"x": 1}],
        None,
    ),
    (
        "escaped-pointer",
        {"$defs": {"a/b~c": {"type": "integer"}}, "properties": {"x": {"$ref": "#/$defs/a~1b~0c"}}},
        [{"x": "s"}, {"x": 1}],
        None,
    ),
    (
        "percent-encoded-space",
        {"$defs": {"a b": {"type": "integer"}}, "properties": {"x": {"$ref": "#/$defs/a%20b"}}},
        [{"x": "s"}, {"x": 1}],
        None,
    ),
    (
        "hash-in-key",
        {"$defs": {"a#b": {"type": "integer"}}, "properties": {"x": {"$ref": "#/$defs/a%23b"}}},
        [{"x": "s"}, {"x": 1}],
        None,
    ),
    (
        "embedded-relative-id",
        {
            "$id": "http://e.com/root.json",
            "$defs": {
                "a": {
                    "$id": "sub/a.json",
                    "$defs": {"b": {"type": "integer"}},
                    "properties": {"y": {"$ref": "#/$defs/b"}},
                }
            },
            "properties": {"x": {"$ref": "sub/a.json"}},
        },
        [{"x": {"y": "s"}}, {"x": {"y": 1}}],
        None,
    ),
    (
        "recursion-through-root",
        {"type": "object", "required": ["n"], "properties": {"c": {"$ref": "#"}}},
        [{"n": 1, "c": {"n": 2}}, {"n": 1, "c": {}}],
        None,
    ),
    (
        "unevaluated-properties",
        {"allOf": [{"properties": {"a": True}}], "unevaluatedProperties": False},
        [{"a": 1}, {"b": 1}],
        None,
    ),
    (
        "draft07-ref-beside-definitions",
        {
            "$schema": D7,
            "$ref": "#/definitions/a",
            "definitions": {"a": {"type": "integer"}},
            "type": "string",
        },
        [1, "s"],
        None,
    ),
    (
        "draft07-tuple-items",
        {"$schema": D7, "items": [{"type": "string"}], "additionalItems": False},
        [["a"], ["a", 1], [1]],
        None,
    ),
    (
        "draft07-dependencies",
        {"$schema": D7, "dependencies": {"a": ["b"], "c": {"required": ["d"]}}},
        [{"a": 1}, {"c": 1}, {"c": 1, "d": 1}],
        None,
    ),
    (
        "2019-09-tuple-items",
        {"$schema": D2019, "items": [{"type": "string"}], "additionalItems": {"type": "integer"}},
        [["a", 1], ["a", "b"], [1]],
        None,
    ),
    (
        "2019-09-ref-siblings-apply",
        {
            "$schema": D2019,
            "$defs": {"a": {"type": "integer"}},
            "properties": {"x": {"$ref": "#/$defs/a", "minimum": 5}},
        },
        [{"x": 1}, {"x": 6}],
        None,
    ),
    (
        "ref-like-values-are-data",
        {
            "properties": {
                "x": {"enum": [{"$ref": "#/nowhere"}]},
                "y": {"const": {"$id": "z", "$ref": "#/x"}},
            }
        },
        [{"x": {"$ref": "#/nowhere"}}, {"x": 1}, {"y": {"$id": "z", "$ref": "#/x"}}],
        None,
    ),
    (
        "properties-named-like-keywords",
        {
            "properties": {
                "$ref": {"type": "string"},
                "$id": {"type": "integer"},
                "id": {"type": "boolean"},
            }
        },
        [{"$ref": 1}, {"$ref": "a", "$id": 1, "id": True}, {"$id": "x"}],
        None,
    ),
    (
        "2020-12-dependencies-is-no-keyword",
        {"dependencies": {"a": ["b"]}},
        [{"a": 1}, {"a": 1, "b": 2}],
        None,
    ),
    (
        "2019-09-dependencies-is-no-keyword",
        {"$schema": D2019, "dependencies": {"a": ["b"]}},
        [{"a": 1}],
        None,
    ),
    (
        "draft07-prefixItems-is-no-keyword",
        {"$schema": D7, "prefixItems": [{"type": "string"}]},
        [[1], ["a"]],
        None,
    ),
    (
        "draft07-maxContains-is-no-keyword",
        {"$schema": D7, "contains": {"type": "integer"}, "maxContains": 1},
        [[1, 2], ["a"]],
        None,
    ),
    (
        "draft07-dependentRequired-is-no-keyword",
        {"$schema": D7, "dependentRequired": {"a": ["b"]}},
        [{"a": 1}],
        None,
    ),
    (
        "draft07-unevaluatedProperties-is-no-keyword",
        {"$schema": D7, "properties": {"a": True}, "unevaluatedProperties": False},
        [{"b": 1}],
        None,
    ),
    (
        "draft07-id-beside-ref-is-ignored",
        {
            "$schema": D7,
            "definitions": {
                "a": {"$id": "http://example.com/other.json", "$ref": "#/definitions/b"},
                "b": {"type": "string"},
            },
            "properties": {"x": {"$ref": "#/definitions/a"}},
        },
        [{"x": 1}, {"x": "s"}],
        None,
    ),
    (
        "ref-to-boolean-schema",
        {
            "$defs": {"any": True, "none": False},
            "properties": {"x": {"$ref": "#/$defs/any"}, "y": {"$ref": "#/$defs/none"}},
        },
        [{"x": 1}, {"y": 1}],
        None,
    ),
    (
        "draft07-pointer-into-a-dropped-sibling",
        {
            "$schema": D7,
            "definitions": {"s": {"type": "string"}},
            "properties": {
                "a": {"$ref": "#/definitions/s", "properties": {"inner": {"type": "integer"}}},
                "b": {"$ref": "#/properties/a/properties/inner"},
            },
        },
        [{"b": 1}, {"b": "x"}],
        None,
    ),
    (
        "draft07-pointer-into-array-items",  # JSON-Schema-Test-Suite draft7/ref.json
        {"$schema": D7, "items": [{"type": "integer"}, {"$ref": "#/items/0"}]},
        [[1, 2], [1, "foo"], ["a", 1]],
        None,
    ),
    (
        "draft07-pointer-through-array-items",
        {
            "$schema": D7,
            "items": [{"type": "integer"}, {"properties": {"x": {"type": "string"}}}],
            "additionalItems": {"$ref": "#/items/1/properties/x"},
            "properties": {"o": {"$ref": "#/items/1"}},
        },
        [[1, {"x": "a"}, "s"], [1, {"x": 1}], [1, {}, 2], {"o": {"x": 2}}, {"o": {"x": "b"}}],
        None,
    ),
    (
        "draft07-pointer-to-additionalItems-and-dependencies",
        {
            "$schema": D7,
            "items": [{"type": "integer"}],
            "additionalItems": {"type": "string"},
            "dependencies": {"a": {"required": ["b"]}},
            "properties": {
                "x": {"$ref": "#/additionalItems"},
                "y": {"$ref": "#/dependencies/a"},
            },
        },
        [{"x": "s"}, {"x": 1}, {"y": {}}, {"y": {"b": 1}}, [1, "s"], [1, 2], {"a": 1, "b": 2}],
        None,
    ),
    (
        "2019-09-pointer-into-array-items",
        {"$schema": D2019, "items": [{"type": "integer"}, {"$ref": "#/items/0"}]},
        [[1, 2], [1, "foo"]],
        None,
    ),
    (
        "pointer-into-data-and-unknown-keywords",
        {
            "x-kept": {"type": "integer"},
            "examples": [{"type": "string"}],
            "properties": {
                "a": {"$ref": "#/x-kept"},
                "b": {"$ref": "#/examples/0"},
            },
        },
        [{"a": 1}, {"a": "s"}, {"b": "s"}, {"b": 1}],
        None,
    ),
    (
        "percent-in-a-defs-key",
        {
            "$defs": {"a%20b": {"type": "string"}, "a b": {"type": "integer"}},
            "properties": {"x": {"$ref": "#/$defs/a%2520b"}},
        },
        [{"x": "s"}, {"x": 1}],
        None,
    ),
]


@pytest.mark.parametrize(
    ("schema", "instances"),
    [
        pytest.param(s, i, id=n, marks=[pytest.mark.xfail(strict=True, reason=r)] if r else [])
        for n, s, i, r in PROBES
    ],
)
def test_bundle_keeps_the_meaning_of_small_schemas(schema: Json, instances: list[Json]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "schema.json"
        path.write_text(json.dumps(schema), encoding="utf-8")
        document = bundle(load_schema_set(path, []))
    original = validator_for(schema, default=Draft202012Validator)(schema)
    check = Draft202012Validator(document, registry=Registry())
    for instance in instances:
        assert verdict(check, instance) == verdict(original, instance), (instance, document)


def test_pointers_from_another_document_into_draft07_array_items(tmp_path: Path) -> None:
    """A 2020-12 convention pointing into a draft-07 file's array `items` (which the bundle
    writes as `prefixItems`) keeps pointing at the same schemas."""
    other = {
        "$schema": D7,
        "definitions": {
            "pair": {"items": [{"type": "integer"}, {"properties": {"x": {"type": "string"}}}]}
        },
    }
    root = {
        "properties": {
            "first": {"$ref": "other.json#/definitions/pair/items/0"},
            "x": {"$ref": "other.json#/definitions/pair/items/1/properties/x"},
            "pair": {"$ref": "other.json#/definitions/pair"},
        }
    }
    (tmp_path / "other.json").write_text(json.dumps(other), encoding="utf-8")
    (tmp_path / "schema.json").write_text(json.dumps(root), encoding="utf-8")
    document = bundle(load_schema_set(tmp_path / "schema.json", []))
    assert "/items/" not in json.dumps(document)
    check = Draft202012Validator(document, registry=Registry())
    instances = [
        {"first": 1},
        {"first": "a"},
        {"x": "s"},
        {"x": 2},
        {"pair": [1, {"x": "s"}]},
        {"pair": [1, {"x": 2}]},
        {"pair": ["a"]},
    ]
    # (python-jsonschema cannot be the judge here: it applies 2020-12 keywords to the draft-07
    # `items` array a 2020-12 schema refers to, and fails.)
    assert [verdict(check, i) for i in instances] == [True, False, True, False, True, False, False]


def test_malformed_schema_is_a_compile_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "schema.json"
    path.write_text(json.dumps({"items": [{"type": "string"}]}), encoding="utf-8")
    with pytest.raises(CompileError) as info:
        bundle(load_schema_set(path, []))
    assert info.value.problems[0].pointer == "/items"
