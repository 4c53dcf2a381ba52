"""mypy's view of objects that allow other keys (zomgen/targets/python/open_dicts.py): the listed
keys (`typeddict-unknown-key` off), and a union with an option that holds one also holds
`MypyFallback` (any dict to mypy), where the listed keys would make mypy reject a valid
document. Checked on the unions the fallback goes to and by running mypy as users are asked to
run it, on valid documents with other keys at every such place and on a mistake in each."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.checkers import MYPY_AS_USERS_RUN_IT
from tests.support.cli import build_package
from zomgen import ir
from zomgen.pipeline import Options, build_ir, load
from zomgen.targets.python.open_dicts import needs_fallback, open_names, reaching_open

pytestmark = pytest.mark.checkers

PYTHON = sys.executable

OPEN_ATTRS = {"type": "object", "properties": {"kind": {"const": "x"}}, "required": ["kind"]}
SCHEMA = {
    "title": "Root",
    "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
    "properties": {
        "attributes": {"$ref": "#/$defs/RootAttributes"},
        "members": {
            "properties": {"one": {"$ref": "#/$defs/Either"}},
            "required": ["one"],
            "additionalProperties": False,
        },
    },
    "$defs": {
        "RootAttributes": {
            "type": "object",
            "properties": {"title": {"type": "string"}, "inner": {"$ref": "#/$defs/Inner"}},
            "required": ["title"],
        },
        "Inner": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
        # two group options with the same node keys: mypy tries both (the ambiguous path)
        "Either": {"anyOf": [{"$ref": "#/$defs/Left"}, {"$ref": "#/$defs/Right"}]},
        "Left": {
            "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
            "properties": {"attributes": {"$ref": "#/$defs/LeftAttributes"}},
        },
        "Right": {
            "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
            "properties": {"attributes": {"$ref": "#/$defs/RightAttributes"}},
        },
        "LeftAttributes": OPEN_ATTRS,
        "RightAttributes": {**OPEN_ATTRS, "properties": {"kind": {"const": "y"}}},
    },
}


def group(
    attributes: dict[str, object], members: dict[str, object] | None = None
) -> dict[str, object]:
    return {
        "zarr_format": 3,
        "node_type": "group",
        "attributes": attributes,
        "members": members or {},
    }


ROOT_ATTRS = {"title": "t", "inner": {"n": 1, "more": 2}, "extra": True}
VALID = [
    # other keys on the exact-view objects, and below the union option (both options)
    group(ROOT_ATTRS, {"one": group({"kind": "x", "other": 1})}),
    group({"title": "t"}, {"one": group({"kind": "y", "other": [1]})}),
]
MISTAKES = [
    group({"inner": {"n": 1}}, {"one": group({"kind": "x"})}),  # a required key of an open object
    group({"title": "t", "inner": {"n": "1"}}, {"one": group({"kind": "x"})}),  # nested listed key
    group({"title": 5}, {"one": group({"kind": "x"})}),  # a listed key's JSON type
]


def _hierarchy(tmp_path: Path) -> ir.Hierarchy:
    (tmp_path / "root.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    return build_ir(load(Options(schema=tmp_path / "root.json")))


def test_only_a_union_whose_options_hold_an_open_object_gets_the_fallback(tmp_path: Path) -> None:
    h = _hierarchy(tmp_path)
    assert open_names(h) == {"RootAttributes", "Inner", "LeftAttributes", "RightAttributes"}
    reaching = reaching_open(h)
    assert reaching == open_names(h) | {"Root", "Left", "Right", "Either"}
    assert needs_fallback((ir.Ref("Left"), ir.Ref("Right")), reaching)
    assert needs_fallback((ir.Ref("Inner"), ir.Primitive("null")), reaching)
    assert not needs_fallback((ir.Ref("Inner"),), reaching)  # one option: no union
    assert not needs_fallback((ir.Primitive("string"), ir.Primitive("null")), reaching)
    documents = build_package_text(tmp_path, "documents.py")
    assert 'Either: TypeAlias = "Left | Right | MypyFallback"' in documents


def test_each_open_object_is_one_class_under_its_own_name(tmp_path: Path) -> None:
    """Every checker reads the same PEP 728 class (mypy as its listed keys), so no name is
    defined twice and no line needs `fmt: skip`; `MypyFallback` comes from zomgen_runtime."""
    documents = build_package_text(tmp_path, "documents.py")
    models = (tmp_path / "root" / "models.py").read_text(encoding="utf-8")
    for name in ("RootAttributes", "Inner", "LeftAttributes", "RightAttributes"):
        assert documents.count(f"\nclass {name}(  # type: ignore[call-arg]") == 1, name
    left = documents[documents.index("\nclass LeftAttributes(") :]
    assert left.startswith(
        "\nclass LeftAttributes(  # type: ignore[call-arg]  # mypy has no PEP 728 yet\n"
        '    TypedDict, extra_items="JsonValue"\n):\n    kind: Literal["x"]\n'
    ), left[:200]
    for text in (documents, models):
        assert "MYPY" not in text and "fmt: skip" not in text and "Open" not in text
        defined = re.findall(r"^(?:class )?(\w+)(?:: TypeAlias =| =|\()", text, re.MULTILINE)
        assert len(defined) == len(set(defined)), sorted(defined)
    assert "from zomgen_runtime import mypy_view" in documents
    assert "\nMypyFallback: TypeAlias = mypy_view.MypyFallback\n" in documents


def build_package_text(tmp_path: Path, name: str) -> str:
    (tmp_path / "root.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    build_package("root.json", "root", cwd=tmp_path)
    return (tmp_path / "root" / name).read_text(encoding="utf-8")


def test_mypy_accepts_other_keys_everywhere_and_rejects_each_mistake(tmp_path: Path) -> None:
    (tmp_path / "root.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    build_package("root.json", "root", cwd=tmp_path)
    lines = ["from root import documents", ""]
    lines += [f"good{n}: documents.Root = {d!r}" for n, d in enumerate(VALID)]
    first = len(lines) + 1
    lines += [f"bad{n}: documents.Root = {d!r}" for n, d in enumerate(MISTAKES)]
    text = "\n".join(lines) + "\n"
    (tmp_path / "cases.py").write_text(text, encoding="utf-8")
    result = subprocess.run(
        [PYTHON, "-m", "mypy", "--strict", *MYPY_AS_USERS_RUN_IT, "--no-incremental", "cases.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    failing = {int(m) for m in re.findall(r"^cases\.py:(\d+): error", result.stdout, re.MULTILINE)}
    assert failing == {first + n for n in range(len(MISTAKES))}, result.stdout


def test_the_base_extension_object_in_a_union_is_no_named_type_of_the_convention() -> None:
    """`NamedConfig` (the base's extension object) is referred to, never defined, by a
    convention's IR: a union holding it is read, not looked up (a fuzzed codec schema once
    raised `KeyError: 'NamedConfig'` here)."""
    codecs = ir.ListOf(ir.UnionOf((ir.Literal(("bytes",)), ir.Ref("NamedConfig"))))
    node = ir.NodeType(
        name="Arr",
        node_kind="array",
        zarr_format=3,
        attributes=ir.JsonObject(),
        members=None,
        metadata=(ir.Field("codecs", codecs, True),),
        description=None,
        pointer="#",
    )
    h = ir.Hierarchy("arr.json", "Arr", (node,), (3,), (), None)
    assert reaching_open(h) == frozenset()
    assert not needs_fallback(codecs.item.options, reaching_open(h))
