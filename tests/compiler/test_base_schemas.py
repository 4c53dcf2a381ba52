"""The bundled base schemas urn:zom:v3 and urn:zom:v2 against real Zarr metadata.

(a) every valid metadata document of the shared corpus, wrapped as a ZOM node, is accepted, and
    the few documents that are genuinely invalid are rejected for the listed reason;
(b) every invalid conformance case of d-v-b/zarr-metadata-ts is rejected at the expected place,
    except the listed faults JSON Schema cannot see (left to the loader);
(c) the ZEP 6 example hierarchies validate as whole trees once their errata are fixed, and the
    drafts' own text fails for the documented reasons.

The corpus lives in ../shared/corpus beside the project (CI checks shared/ out next to the clone).
Nothing here opens a network connection: both bases sit in a `referencing` Registry.
"""

from __future__ import annotations

import copy
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.validators import extend
from referencing import Registry, Resource
from zomgen_runtime.false_schemas import false_schema_keywords

from tests.support.paths import ROOT, SHARED

SCHEMAS = ROOT / "schemas" / "zom"
CORPUS = SHARED / "corpus"
METADATA = CORPUS / "zarr-metadata"
CONFORMANCE = METADATA / "d-v-b__zarr-metadata-ts" / "conformance"
FIXTURES = METADATA / "zarr-python-zarr-metadata-fixtures"
STORES = CORPUS / "stores"
SPECS = SHARED / "specs"

Json = Any
Loc = tuple[str | int, ...]

V3_BASE = json.loads((SCHEMAS / "v3.schema.json").read_text())
V2_BASE = json.loads((SCHEMAS / "v2.schema.json").read_text())
REGISTRY: Registry = Registry().with_resources(
    [(base["$id"], Resource.from_contents(base)) for base in (V2_BASE, V3_BASE)]
)
NODE = {3: "urn:zom:v3#/$defs/Node", 2: "urn:zom:v2#/$defs/Node"}


# The engine the run time uses: a key a `false` subschema forbids (`node_type` on a v2 node)
# is an error at that key (runtime/python/zomgen_runtime/false_schemas.py).
_Validator = extend(
    Draft202012Validator,
    false_schema_keywords(dict(Draft202012Validator.VALIDATORS), ValidationError),
)


def validator(ref: str) -> Draft202012Validator:
    return _Validator({"$ref": ref}, registry=REGISTRY)


def read_json(path: Path) -> Json:
    return json.loads(path.read_text(encoding="utf-8"))


def rel(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


# --------------------------------------------------------------------------------------------
# Errors: the leaves that explain a rejection
# --------------------------------------------------------------------------------------------


DISCRIMINATORS = ("zarr_format", "node_type")


def _discriminated(errors: list[ValidationError]) -> bool:
    """A branch of Node that fails on zarr_format/node_type is the other kind of node."""
    return any(
        e.validator == "const" and e.absolute_path and e.absolute_path[-1] in DISCRIMINATORS
        for e in errors
    )


def leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The innermost errors, keeping of each anyOf only the branches that explain the failure.

    Branches of a group-or-array choice that fail on node_type are dropped; of the others, those
    whose errors reach deepest into the instance are kept (both on a tie).
    """
    if not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = defaultdict(list)
    for sub in error.context:
        branches[sub.relative_schema_path[0]].append(sub)
    candidates = [errs for errs in branches.values() if not _discriminated(errs)]
    if not candidates:
        candidates = list(branches.values())
    deepest = max(max(len(e.absolute_path) for e in errs) for errs in candidates)
    for errs in candidates:
        if max(len(e.absolute_path) for e in errs) == deepest:
            for sub in errs:
                yield from leaves(sub)


def problems(ref: str, instance: Json) -> list[ValidationError]:
    return [leaf for e in validator(ref).iter_errors(instance) for leaf in leaves(e)]


def explains(leaf: ValidationError, loc: Loc) -> bool:
    """Does this leaf error point at `loc` (or inside it)?

    `required` and `additionalProperties` errors sit on the object and name the key.
    """
    path = tuple(leaf.absolute_path)
    if path[: len(loc)] == loc:
        return True
    return (
        leaf.validator in ("required", "additionalProperties")
        and len(loc) > 0
        and path == loc[:-1]
        and repr(loc[-1]) in leaf.message
    )


def describe(errors: list[ValidationError]) -> str:
    return "\n".join(f"  /{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors)


# --------------------------------------------------------------------------------------------
# Wrapping Zarr metadata as ZOM nodes (what the loader does before validating)
# --------------------------------------------------------------------------------------------


def wrap_v3(doc: Json) -> Json:
    """zarr.json -> ZOM node: attributes {} when absent, members {} for groups,
    consolidated_metadata dropped (a way of reading the store, not part of the document)."""
    if not isinstance(doc, dict):
        return doc
    node = {k: v for k, v in doc.items() if k != "consolidated_metadata"}
    node.setdefault("attributes", {})
    if node.get("node_type") == "group":
        node.setdefault("members", {})
    return node


def wrap_v2(meta: Json, attrs: Json, kind: str) -> Json:
    """.zgroup/.zarray + .zattrs -> ZOM node (attributes {} when .zattrs is absent)."""
    if not isinstance(meta, dict):
        return meta
    node = dict(meta)
    node.setdefault("attributes", {} if attrs is None else attrs)
    if kind == "group":
        node.setdefault("members", {})
    return node


def insert(root: Json, path: str, node: Json) -> None:
    """Place `node` at "a/b/c" below `root`, through the members of existing groups."""
    *parents, name = path.split("/")
    group = root
    for part in parents:
        group = group["members"][part]
    group["members"][name] = node


def tree_from_inline_v3(doc: Json) -> Json:
    """A v3 group read through its inline consolidated metadata."""
    root = wrap_v3(doc)
    entries = doc["consolidated_metadata"]["metadata"]
    for key in sorted(entries, key=lambda k: k.count("/")):
        insert(root, key, wrap_v3(entries[key]))
    return root


def tree_from_zmetadata(doc: Json) -> Json | None:
    """A v2 hierarchy read through .zmetadata (None when it lists no root node)."""
    entries = doc["metadata"]
    nodes: dict[str, tuple[str, Json]] = {}
    for key, value in entries.items():
        prefix, _, leaf = key.rpartition("/")
        if leaf in (".zgroup", ".zarray"):
            kind = "group" if leaf == ".zgroup" else "array"
            attrs = entries.get(f"{prefix}/.zattrs" if prefix else ".zattrs")
            nodes[prefix] = (kind, wrap_v2(value, attrs, kind))
    if "" not in nodes:
        return None
    root = nodes.pop("")[1]
    for prefix in sorted(nodes, key=lambda p: p.count("/")):
        insert(root, prefix, nodes[prefix][1])
    return root


def envelope_problems_v2(doc: Json) -> list[str]:
    """The .zmetadata envelope: the loader's consolidated reader checks it, not the ZOM schema."""
    if not isinstance(doc, dict):
        return ["not an object"]
    found = []
    if doc.get("zarr_consolidated_format") != 1:
        found.append("zarr_consolidated_format is not 1")
    if not isinstance(doc.get("metadata"), dict):
        found.append("metadata is missing or not an object")
    found += [
        f"unexpected key {k!r}" for k in doc if k not in ("zarr_consolidated_format", "metadata")
    ]
    return found


def envelope_problems_v3(doc: Json) -> list[str]:
    """consolidated_metadata of a v3 group (core spec 3.1, 'Additional fields')."""
    cm = doc.get("consolidated_metadata") if isinstance(doc, dict) else None
    if cm is None:  # absent, or null as zarr-python once wrote: read the store instead
        return []
    found = []
    if cm.get("kind") != "inline":
        found.append("kind is not 'inline'")
    if cm.get("must_understand") is not False:
        found.append("must_understand is not false")
    if not isinstance(cm.get("metadata"), dict):
        found.append("metadata is not an object")
    return found


METADATA_FILES = (".zarray", ".zgroup", ".zattrs", "zarr.json", ".zmetadata")


def has_metadata(directory: Path) -> bool:
    return any((directory / name).is_file() for name in METADATA_FILES)


def has_node(directory: Path) -> bool:
    return any((directory / name).is_file() for name in ("zarr.json", ".zarray", ".zgroup"))


def tree_from_directory(directory: Path, orphans: list[str]) -> Json | None:
    """Read a store folder by folder. Folders with metadata but no node go to `orphans`."""
    if (directory / "zarr.json").is_file():
        node = wrap_v3(read_json(directory / "zarr.json"))
    elif (directory / ".zarray").is_file() or (directory / ".zgroup").is_file():
        kind = "array" if (directory / ".zarray").is_file() else "group"
        attrs_file = directory / ".zattrs"
        attrs = read_json(attrs_file) if attrs_file.is_file() else None
        node = wrap_v2(read_json(directory / f".z{kind}"), attrs, kind)
    else:
        if has_metadata(directory):
            orphans.append(rel(directory))
        for child in sorted(p for p in directory.iterdir() if p.is_dir()):
            tree_from_directory(child, orphans)
        return None
    for child in sorted(p for p in directory.iterdir() if p.is_dir()):
        member = tree_from_directory(child, orphans)
        if member is not None:
            if "members" not in node:  # metadata below an array
                orphans.append(rel(child))
            else:
                node["members"][child.name] = member
    return node


# --------------------------------------------------------------------------------------------
# (a) valid documents of the corpus
# --------------------------------------------------------------------------------------------


def corpus_documents() -> Iterator[tuple[str, int, Json]]:
    """(id, zarr version, ZOM node) for every single metadata document in the corpus."""
    for kind in ("v2_array", "v2_group", "v3_array", "v3_group"):
        version = int(kind[1])
        for i, case in enumerate(read_json(CONFORMANCE / f"{kind}.json")):
            if not case["problems"]:
                doc = case["document"]
                node = wrap_v3(doc) if version == 3 else wrap_v2(doc, None, kind[3:])
                yield f"conformance/{kind}#{i}", version, node
                if version == 3 and isinstance(doc.get("consolidated_metadata"), dict):
                    yield f"conformance/{kind}#{i}+consolidated", 3, tree_from_inline_v3(doc)
    for i, case in enumerate(read_json(CONFORMANCE / "v2_consolidated.json")):
        if not case["problems"]:
            yield f"conformance/v2_consolidated#{i}", 2, tree_from_zmetadata(case["document"])

    for path in sorted(FIXTURES.glob("v2/*/*.json")):
        kind = path.parent.name
        doc = read_json(path)
        node = tree_from_zmetadata(doc) if kind == "consolidated" else wrap_v2(doc, None, kind)
        if node is not None:  # v2/consolidated/minimal.json lists no node at all
            yield rel(path), 2, node
    for path in sorted(FIXTURES.glob("v3/*/*.json")):
        if path.parent.name == "consolidated":  # the value of a group's consolidated_metadata
            group = {
                "zarr_format": 3,
                "node_type": "group",
                "consolidated_metadata": read_json(path),
            }
            yield rel(path), 3, tree_from_inline_v3(group)
        elif path.parent.name in ("array", "group"):
            yield rel(path), 3, wrap_v3(read_json(path))

    for path in sorted(METADATA.glob("zarr-specs-pr347/examples/**/zarr.json")):
        yield rel(path), 3, wrap_v3(read_json(path))

    # Every metadata file of every store, and everything outside the two named folders too
    # (OME-NGFF's one-node test stores, zarr-extensions' samples).
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or path.name not in METADATA_FILES or path.is_relative_to(METADATA):
            continue
        if rel(path) in NOT_JSON:
            continue
        if path.name == "zarr.json":
            doc = read_json(path)
            yield rel(path), 3, wrap_v3(doc)
            cm = doc.get("consolidated_metadata")
            if isinstance(cm, dict):
                for key, entry in sorted(cm["metadata"].items()):
                    yield f"{rel(path)}#consolidated:{key}", 3, wrap_v3(entry)
        elif path.name in (".zarray", ".zgroup"):
            kind = "array" if path.name == ".zarray" else "group"
            attrs_file = path.with_name(".zattrs")
            attrs = read_json(attrs_file) if attrs_file.is_file() else None
            yield rel(path), 2, wrap_v2(read_json(path), attrs, kind)
        elif path.name == ".zmetadata":
            entries = read_json(path)["metadata"]
            for key, meta in sorted(entries.items()):
                prefix, _, leaf = key.rpartition("/")
                if leaf in (".zarray", ".zgroup"):
                    kind = "array" if leaf == ".zarray" else "group"
                    attrs = entries.get(f"{prefix}/.zattrs" if prefix else ".zattrs")
                    yield f"{rel(path)}#{key}", 2, wrap_v2(meta, attrs, kind)


# Metadata files that are not JSON at all (a missing closing quote after the OME version): the
# loader's JSON parsing reports them before any schema sees them.
NOT_JSON = {
    "ome-ngff/0.6rc0/tests/zarr/spec/invalid/plate/zero_field_count.ome.zarr/zarr.json",
    "ome-ngff/0.6rc0/tests/zarr/spec/invalid/label/colors_rgba_length.ome.zarr/zarr.json",
}


@pytest.mark.parametrize("path", sorted(NOT_JSON))
def test_not_json(path: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        read_json(CORPUS / path)


# Documents of the corpus that are genuinely invalid Zarr metadata: id -> (reason, places the
# schema must name). Everything else in corpus_documents() must be accepted.
_GDAL_NO_CODECS: tuple[str, list[Loc]] = (
    (
        "GDAL's byte_cf1.zr3 test store: its arrays have no `codecs`, which the v3 core spec "
        "requires (a pipeline holds at least the array -> bytes codec)"
    ),
    [("codecs",)],
)
KNOWN_INVALID: dict[str, tuple[str, list[Loc]]] = {
    "stores/gdal-autotest/byte_cf1.zr3/Band1/zarr.json": _GDAL_NO_CODECS,
    "stores/gdal-autotest/byte_cf1.zr3/transverse_mercator/zarr.json": _GDAL_NO_CODECS,
    "stores/gdal-autotest/byte_cf1.zr3/x/zarr.json": _GDAL_NO_CODECS,
    "stores/gdal-autotest/byte_cf1.zr3/y/zarr.json": _GDAL_NO_CODECS,
    "stores/d-v-b__zarr-metadata-ts-examples/broken_array/zarr.json": (
        (
            "deliberately broken example: must_understand=false at data_type, an unknown key in "
            "chunk_grid, no chunk_key_encoding, an empty codec list (and 2 dimension_names for 3 "
            "dimensions, which only the loader sees)"
        ),
        [
            ("data_type", "must_understand"),
            ("chunk_grid", "extra"),
            ("chunk_key_encoding",),
            ("codecs",),
        ],
    ),
    "stores/d-v-b__zarr-metadata-ts-examples/v2_array/.zarray": (
        (
            "deliberately broken example: order 'Q' (and 3 chunk lengths for 2 dimensions, which "
            "only the loader sees)"
        ),
        [("order",)],
    ),
    "zarr-metadata/zarr-python-zarr-metadata-fixtures/v2/array/empty_filters_list.json": (
        (
            "`filters: []`: the v2 spec spells 'no filters' as null; zarr-python reads this fixture "
            "but warns it is contrary to the spec and will become an error, and d-v-b's conformance "
            "case v2_array#8 rejects it"
        ),
        [("filters",)],
    ),
}

DOCUMENTS = {doc_id: (version, node) for doc_id, version, node in corpus_documents()}


def test_corpus_is_present() -> None:
    assert CONFORMANCE.is_dir() and STORES.is_dir(), f"shared corpus not found at {CORPUS}"
    assert len(DOCUMENTS) > 300


def test_known_invalid_list_is_current() -> None:
    assert set(KNOWN_INVALID) <= set(DOCUMENTS)


@pytest.mark.parametrize("doc_id", sorted(DOCUMENTS))
def test_corpus_document(doc_id: str) -> None:
    version, node = DOCUMENTS[doc_id]
    errors = problems(NODE[version], node)
    if doc_id not in KNOWN_INVALID:
        assert not errors, f"{doc_id} rejected:\n{describe(errors)}"
        return
    reason, locs = KNOWN_INVALID[doc_id]
    assert errors, f"{doc_id} accepted, but it is invalid: {reason}"
    for loc in locs:
        assert any(explains(e, loc) for e in errors), f"{loc} not reported:\n{describe(errors)}"


# Whole stores, read folder by folder and, where they have it, through consolidated metadata.


def store_roots() -> list[Path]:
    return sorted(
        d
        for d in STORES.rglob("*")
        if d.is_dir() and has_metadata(d) and not has_metadata(d.parent)
    )


# Store roots that are not valid hierarchies: path -> reason.
INVALID_STORES: dict[str, str] = {
    "stores/gdal-autotest/byte_cf1.zr3": _GDAL_NO_CODECS[0],
    "stores/d-v-b__zarr-metadata-ts-examples/broken_array": "deliberately broken array",
    "stores/d-v-b__zarr-metadata-ts-examples/v2_array": "deliberately broken array",
}
# OME validator samples that carry only a .zattrs: no .zgroup/.zarray/zarr.json, so no node.
ATTRIBUTES_ONLY = {
    "stores/ome-ngff-validator-test_samples/invalid/invalid_version.zarr",
    "stores/ome-ngff-validator-test_samples/invalid/no_version_v0.4.zarr",
    "stores/ome-ngff-validator-test_samples/invalid/no_version_v0.5.zarr",
}


@pytest.mark.parametrize("store", store_roots(), ids=rel)
def test_store_tree(store: Path) -> None:
    orphans: list[str] = []
    if not has_node(store) and (store / ".zmetadata").is_file():
        # GDAL's copies keep only .zmetadata: the store can only be read through it.
        tree = tree_from_zmetadata(read_json(store / ".zmetadata"))
    else:
        tree = tree_from_directory(store, orphans)
    if rel(store) in ATTRIBUTES_ONLY:
        assert tree is None and orphans == [rel(store)]
        return
    assert tree is not None and orphans == []
    version = tree["zarr_format"]
    errors = problems(NODE[version], tree)
    if rel(store) in INVALID_STORES:
        assert errors, INVALID_STORES[rel(store)]
    else:
        assert not errors, describe(errors)


def consolidated_stores() -> list[Path]:
    def consolidated(path: Path) -> bool:
        if path.name == ".zmetadata":
            return True
        return path.name == "zarr.json" and isinstance(
            read_json(path).get("consolidated_metadata"), dict
        )

    return [path for path in sorted(STORES.rglob("*")) if consolidated(path)]


@pytest.mark.parametrize("path", consolidated_stores(), ids=rel)
def test_consolidated_tree(path: Path) -> None:
    """Reading through consolidated metadata gives a valid tree, equal to the folder-by-folder
    read where the store has every file (consolidation is only a way of reading)."""
    doc = read_json(path)
    if path.name == ".zmetadata":
        assert envelope_problems_v2(doc) == []
        tree = tree_from_zmetadata(doc)
    else:
        assert envelope_problems_v3(doc) == []
        tree = tree_from_inline_v3(doc)
    assert tree is not None
    errors = problems(NODE[tree["zarr_format"]], tree)
    assert not errors, describe(errors)
    orphans: list[str] = []
    on_disk = tree_from_directory(path.parent, orphans)
    if on_disk is not None and on_disk.get("members"):
        assert on_disk == tree


# Fragments: per-codec, per-grid, per-encoding, per-data-type cases of the zarr-python fixtures.
FRAGMENT_DEFS = {
    "codec": "Extension",
    "chunk_grid": "MandatoryExtension",
    "chunk_key_encoding": "MandatoryExtension",
}


def fragments() -> Iterator[tuple[str, str, Json]]:
    for path in sorted(FIXTURES.glob("v3/*/*/*.json")):
        area = path.parts[-3]
        cases = read_json(path)
        if area in FRAGMENT_DEFS:
            for name, value in cases.items():
                yield f"{rel(path)}#{name}", FRAGMENT_DEFS[area], value
        elif path.name == "data_type.json":
            yield rel(path), "MandatoryExtension", cases
        elif path.name == "fill_values.json":
            for name, value in cases.items():
                yield f"{rel(path)}#{name}", "FillValue", value


FRAGMENTS = {frag_id: (definition, value) for frag_id, definition, value in fragments()}


@pytest.mark.parametrize("frag_id", sorted(FRAGMENTS))
def test_fixture_fragment(frag_id: str) -> None:
    definition, value = FRAGMENTS[frag_id]
    errors = problems(f"urn:zom:v3#/$defs/{definition}", value)
    assert not errors, describe(errors)


# --------------------------------------------------------------------------------------------
# (b) invalid conformance cases
# --------------------------------------------------------------------------------------------

# Faults JSON Schema cannot express (they compare two values of one document): the schema
# accepts the document and the loader's own checks report the fault.
INEXPRESSIBLE: dict[str, str] = {
    "v2_array#3": "len(chunks) != len(shape): JSON Schema cannot compare two arrays' lengths",
    "v3_array#13": "len(dimension_names) != len(shape): JSON Schema cannot compare two lengths",
}
# Faults of the consolidated-metadata envelope. The envelope is how the loader reads a store;
# it is never part of a ZOM document, so the loader's consolidated reader reports these.
ENVELOPE: dict[str, str] = {
    "v2_consolidated#1": ".zmetadata without `metadata`",
    "v2_consolidated#2": ".zmetadata with zarr_consolidated_format 2",
    "v2_consolidated#3": ".zmetadata with an unknown top-level key",
    "v2_consolidated#4": ".zmetadata whose `metadata` is not an object",
    "v3_group#6": "consolidated_metadata with kind 'external' and must_understand true",
}

BASE_DEF = {
    "v2_array": "urn:zom:v2#/$defs/ArraySpec",
    "v2_group": "urn:zom:v2#/$defs/GroupSpec",
    "v3_array": "urn:zom:v3#/$defs/ArraySpec",
    "v3_group": "urn:zom:v3#/$defs/GroupSpec",
    "v2_consolidated": "urn:zom:v2#/$defs/Node",
}


def invalid_cases() -> Iterator[tuple[str, str, Json, list[dict[str, Any]]]]:
    for kind in BASE_DEF:
        for i, case in enumerate(read_json(CONFORMANCE / f"{kind}.json")):
            if case["problems"]:
                yield f"{kind}#{i}", kind, case["document"], case["problems"]


INVALID_CASES = {case_id: rest for case_id, *rest in invalid_cases()}


def zom_loc(kind: str, loc: list[str | int]) -> Loc:
    """A conformance `loc` in the ZOM tree: consolidated entries become members."""
    if kind == "v3_group" and loc[:2] == ["consolidated_metadata", "metadata"]:
        key, rest = str(loc[2]), loc[3:]
        path: list[str | int] = []
        for part in key.split("/"):
            path += ["members", part]
        return (*path, *rest)
    return tuple(loc)


def test_exception_lists_are_current() -> None:
    assert set(INEXPRESSIBLE) | set(ENVELOPE) <= set(INVALID_CASES)


@pytest.mark.parametrize("case_id", sorted(INVALID_CASES))
def test_invalid_conformance_case(case_id: str) -> None:
    kind, doc, expected = INVALID_CASES[case_id]
    if case_id in ENVELOPE:
        if kind == "v2_consolidated":
            assert envelope_problems_v2(doc), ENVELOPE[case_id]
            return
        assert envelope_problems_v3(doc), ENVELOPE[case_id]
        # What remains once the loader has read the envelope is a valid ZOM document.
        assert problems(BASE_DEF[kind], wrap_v3(doc)) == []
        return
    if kind.startswith("v3"):
        consolidated = isinstance(doc, dict) and isinstance(doc.get("consolidated_metadata"), dict)
        node = tree_from_inline_v3(doc) if consolidated else wrap_v3(doc)
    else:
        node = wrap_v2(doc, None, kind[3:])
    errors = problems(BASE_DEF[kind], node)
    if case_id in INEXPRESSIBLE:
        assert errors == [], f"now rejected, drop it from INEXPRESSIBLE:\n{describe(errors)}"
        return
    assert errors, f"{case_id} accepted"
    for problem in expected:
        loc = zom_loc(kind, problem["loc"])
        assert any(explains(e, loc) for e in errors), (
            f"{problem} not reported at {loc}:\n{describe(errors)}"
        )


# --------------------------------------------------------------------------------------------
# (c) ZEP 6 example hierarchies
# --------------------------------------------------------------------------------------------


def zep6_examples(path: Path) -> tuple[Json, Json]:
    """The v3 and v2 example hierarchies of a ZEP 6 draft (markdown or plain text)."""
    text = path.read_text(encoding="utf-8")
    decoder = json.JSONDecoder()
    found = []
    for anchor in ("contain user metadata.", "can also be represented as a ZOM group:"):
        start = text.index("{", text.index(anchor))
        found.append(decoder.raw_decode(text, start)[0])
    return found[0], found[1]


ZEP6_DRAFTS = sorted(SPECS.glob("zep0006-*"))


def fix_zep6_v3(example: Json) -> Json:
    """The errata of the v3 example, fixed:
    - data_type "|u1" is a v2 dtype; the v3 name is "uint8";
    - codec "GZip" is registered as "gzip" (raw names are lower case);
    - storage_transformers null: the spec wants a list ([] or absent means none);
    - the pipeline has no array -> bytes codec, which the spec requires: prepend "bytes"
      (the schema cannot tell which codecs are array -> bytes; readers do).
    """
    fixed = copy.deepcopy(example)
    array = fixed["members"]["array"]
    array["data_type"] = "uint8"
    array["codecs"] = [
        {"name": "bytes", "configuration": {"endian": "little"}},
        {"name": "gzip", "configuration": {"level": 1}},
    ]
    array["storage_transformers"] = []
    return fixed


def fix_zep6_v2(example: Json) -> Json:
    """The erratum of the v2 example, fixed: "filters": {} -> null (a list or null)."""
    fixed = copy.deepcopy(example)
    fixed["members"]["foo"]["filters"] = None
    return fixed


@pytest.mark.parametrize("draft", ZEP6_DRAFTS, ids=lambda p: p.name)
def test_zep6_examples_fixed_validate(draft: Path) -> None:
    v3, v2 = zep6_examples(draft)
    assert problems("urn:zom:v3", fix_zep6_v3(v3)) == []
    assert problems("urn:zom:v2", fix_zep6_v2(v2)) == []
    assert problems("urn:zom:v3#/$defs/GroupSpec", fix_zep6_v3(v3)) == []
    assert problems("urn:zom:v2#/$defs/GroupSpec", fix_zep6_v2(v2)) == []


@pytest.mark.parametrize("draft", ZEP6_DRAFTS, ids=lambda p: p.name)
def test_zep6_examples_as_published_fail(draft: Path) -> None:
    v3, v2 = zep6_examples(draft)
    array: Loc = ("members", "array")
    expected_v3 = {
        (*array, "data_type"),  # "|u1"
        (*array, "codecs", 0, "name"),  # "GZip"
        (*array, "storage_transformers"),  # null
    }
    v3_errors = problems("urn:zom:v3", v3)
    assert {tuple(e.absolute_path) for e in v3_errors} == expected_v3, describe(v3_errors)
    v2_errors = problems("urn:zom:v2", v2)
    assert {tuple(e.absolute_path) for e in v2_errors} == {("members", "foo", "filters")}


def error_tree(error: ValidationError) -> Iterator[ValidationError]:
    yield error
    for sub in error.context or ():
        yield from error_tree(sub)


def zep6_draft_schemas(path: Path) -> tuple[Json, Json]:
    text = path.read_text(encoding="utf-8")
    decoder = json.JSONDecoder()
    found = []
    for anchor in ("the ZOM for Zarr V3 expressed as a JSON schema:", "And likewise for Zarr V2:"):
        start = text.index("{", text.index(anchor))
        found.append(decoder.raw_decode(text, start)[0])
    return found[0], found[1]


@pytest.mark.parametrize("draft", ZEP6_DRAFTS, ids=lambda p: p.name)
def test_zep6_draft_schemas_are_wrong_where_documented(draft: Path) -> None:
    """Why the bases do not reuse the drafts' schemas (facts.md, 'Errata in the seeds')."""
    draft_v3, draft_v2 = zep6_draft_schemas(draft)
    v3, v2 = zep6_examples(draft)
    # v2: `required` names "attributess" while additionalProperties is false (and the version
    # key is "zarr_version"), so the draft's own example -- fixed or not -- cannot validate.
    messages = [
        leaf.message
        for error in Draft202012Validator(draft_v2).iter_errors(fix_zep6_v2(v2))
        for leaf in error_tree(error)
    ]
    assert any("'attributess' is a required property" in m for m in messages)
    assert any("'zarr_format'" in m and "unexpected" in m for m in messages)
    # v3: the draft accepts what the spec forbids (the unfixed example: a v2 dtype, "GZip",
    # storage_transformers null; and an empty codec list) ...
    assert Draft202012Validator(draft_v3).is_valid(v3)
    no_codecs = copy.deepcopy(v3)
    no_codecs["members"]["array"]["codecs"] = []
    assert Draft202012Validator(draft_v3).is_valid(no_codecs)
    # ... and rejects what the spec allows: a codec without configuration, a null dimension
    # name, an extension-object data_type.
    allowed = fix_zep6_v3(v3)
    allowed["members"]["array"].update(
        codecs=[{"name": "bytes"}],
        dimension_names=["rows", None],
        data_type={"name": "uint8"},
    )
    assert problems("urn:zom:v3", allowed) == []
    assert not Draft202012Validator(draft_v3).is_valid(allowed)


# --------------------------------------------------------------------------------------------
# The shape the compiler relies on
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("base", [V3_BASE, V2_BASE], ids=lambda b: b["$id"])
def test_base_layout(base: Json) -> None:
    Draft202012Validator.check_schema(base)
    version = int(base["$id"][-1])
    defs = base["$defs"]
    assert base["$ref"] == "#/$defs/Node"
    for name in ("GroupSpec", "ArraySpec"):
        spec = defs[name]
        assert spec["title"] == name
        assert spec["properties"]["zarr_format"]["const"] == version
        assert "zarr_format" in spec["required"] and "attributes" in spec["required"]
        if version == 3:
            node_type = "group" if name == "GroupSpec" else "array"
            assert spec["properties"]["node_type"]["const"] == node_type
    members = defs["GroupSpec"]["properties"]["members"]
    assert members["type"] == "object"
    assert members["additionalProperties"] == {"$ref": "#/$defs/Node"}
    if version == 3:
        assert "NamedConfig" in defs
        assert "consolidated_metadata" not in json.dumps(defs["GroupSpec"]["properties"])


def test_refinement_keeps_base_constraints() -> None:
    """A convention narrows a base node with allOf + sibling keywords (input-language.md §2)."""
    convention = {
        "title": "XarrayDataset",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"members": {"additionalProperties": {"$ref": "#/$defs/Variable"}}},
        "$defs": {
            "Variable": {
                "allOf": [{"$ref": "urn:zom:v3#/$defs/ArraySpec"}],
                "properties": {"dimension_names": {"type": "array", "items": {"type": "string"}}},
                "required": ["dimension_names"],
            }
        },
    }
    check = Draft202012Validator(convention, registry=REGISTRY)
    air = METADATA / "zarr-specs-pr347" / "examples" / "air_temperature.zarr"
    orphans: list[str] = []
    tree = tree_from_directory(air, orphans)
    assert tree is not None and orphans == [] and check.is_valid(tree)
    broken = copy.deepcopy(tree)
    del broken["members"]["air"]["codecs"]  # a base constraint still holds under refinement
    assert not check.is_valid(broken)
    unnamed = copy.deepcopy(tree)
    unnamed["members"]["air"]["dimension_names"][0] = None  # the convention's narrowing
    assert not check.is_valid(unnamed)


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("gzip", True),
        ("numcodecs.adler32", True),
        ("sharding_indexed", True),
        ("https://example.com/zarr/offset", True),
        ("urn:example:datetime", True),
        ("GZip", False),
        ("|u1", False),
        ("foo/bar", False),
        ("", False),
    ],
)
def test_extension_names(name: str, valid: bool) -> None:
    assert validator("urn:zom:v3#/$defs/ExtensionName").is_valid(name) is valid


@pytest.mark.parametrize(
    ("field", "value", "valid"),
    [
        ("unknown", {"must_understand": False, "x": 1}, True),
        ("unknown", {"must_understand": True}, False),
        ("unknown", {"x": 1}, False),
        ("unknown", 1, False),
        ("codecs", [{"name": "crc32c", "must_understand": False}], True),
        ("data_type", {"name": "float64", "must_understand": True}, True),
        ("chunk_key_encoding", {"name": "default", "must_understand": False}, False),
        ("storage_transformers", None, False),
        ("dimension_names", ["y", None], True),
        ("fill_value", "0x7fc00000", True),
        ("fill_value", ["NaN", "-Infinity"], True),
    ],
    ids=lambda v: re.sub(r"\W+", "_", json.dumps(v)).strip("_")[:40],
)
def test_v3_array_fields(field: str, value: Json, valid: bool) -> None:
    array = {
        "zarr_format": 3,
        "node_type": "array",
        "attributes": {},
        "shape": [4],
        "data_type": "float32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": "default",
        "fill_value": 0,
        "codecs": ["bytes"],
        field: value,
    }
    assert validator("urn:zom:v3#/$defs/ArraySpec").is_valid(array) is valid


@pytest.mark.parametrize(
    ("name", "valid"),
    [("a", True), ("..a", True), ("", False), ("a/b", False), ("..", False), ("__x", False)],
)
def test_v3_member_names(name: str, valid: bool) -> None:
    group = {"zarr_format": 3, "node_type": "group", "attributes": {}, "members": {}}
    tree = {**group, "members": {name: group}}
    assert validator("urn:zom:v3").is_valid(tree) is valid


# --------------------------------------------------------------------------------------------
# The generated loaders validate with jsonschema-rs: its regex dialect and keyword handling must
# give the same verdict on every document above.
# --------------------------------------------------------------------------------------------


def test_jsonschema_rs_agrees() -> None:
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    registry = jsonschema_rs.Registry([(base["$id"], base) for base in (V2_BASE, V3_BASE)])

    def rs_valid(ref: str, instance: Json) -> bool:
        check = jsonschema_rs.Draft202012Validator({"$ref": ref}, registry=registry)
        return bool(check.is_valid(instance))

    samples: list[tuple[str, Json]] = [(NODE[v], node) for v, node in DOCUMENTS.values()]
    samples += [(f"urn:zom:v3#/$defs/{d}", value) for d, value in FRAGMENTS.values()]
    for case_id, (kind, doc, _) in INVALID_CASES.items():
        if case_id not in ENVELOPE:
            node = wrap_v3(doc) if kind.startswith("v3") else wrap_v2(doc, None, kind[3:])
            samples.append((BASE_DEF[kind], node))
    names = ["gzip", "numcodecs.adler32", "https://example.com/x", "urn:a:b", "GZip", "a b"]
    samples += [("urn:zom:v3#/$defs/ExtensionName", name) for name in names]
    node_names = ["a", "", "a/b", "..", "...", "__x", "_x", "zarr.json"]
    samples += [("urn:zom:v3#/$defs/NodeName", name) for name in node_names]
    disagreements = [
        (ref, instance)
        for ref, instance in samples
        if rs_valid(ref, instance) != validator(ref).is_valid(instance)
    ]
    assert disagreements == []
    assert len(samples) > 500
