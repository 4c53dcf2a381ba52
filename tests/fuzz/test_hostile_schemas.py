"""Hostile input: every generated schema either compiles into a package that passes mypy --strict,
pyright strict, ruff check, ruff format --check and tsc --strict (with its validate.js loading
and checking documents under Node), or is refused with exit 2, one
`zomgen: file:pointer: message` line per problem, no traceback and nothing written.

The schemas are made here: JSON keys, `$defs` keys, titles and union tags that are keywords,
dunders, digits first, non-ASCII, quotes, backslashes, emoji, separators and empty; 500-character
descriptions full of `\"\"\"`, `*/`, `${`, `{{`, `{%`, backslashes and lone surrogates; `$defs`
that PascalCase alike; 50 levels of nesting; enums of every JSON type; malformed keywords.
Some cases say more than "either": `compile` (valid JSON Schema a user may write, e.g. recursion
or 50 levels) or `refuse` (documented errors: name collisions, malformed keywords). All are built
into one folder and checked with one run of each tool (tests/support/package_checks.py).
Known compiler bugs are xfail(strict=True) with the minimal schema in the case itself. pyrefly and
ty (tests/support/checkers.py) run over the same packages, once each, in a test of their own, so a
package one of them alone refuses is marked there (`python_checkers_bug`) without hiding the
other tools.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

import pytest

from tests.support.cli import run_zomgen
from tests.support.package_checks import Findings, build_many, check_packages
from tests.support.paths import ROOT
from zomgen.errors import CompileError
from zomgen.format import format_python
from zomgen.ir import AliasType
from zomgen.ir.flatten import MAX_TYPE_DEPTH, expressions, flatten, type_depth
from zomgen.ir.zarr import ARRAY_FIELDS
from zomgen.names import pascal_case
from zomgen.pipeline import Options, build_ir, generate, load
from zomgen.schema.atoms import Expander
from zomgen.schema.parse import Builder
from zomgen.schema.read import MAX_ENUM
from zomgen.write import write_package

pytestmark = [
    pytest.mark.checkers,
    pytest.mark.node,
    pytest.mark.fuzz,
    pytest.mark.slow,
]

V3G = {"$ref": "urn:zom:v3#/$defs/GroupSpec"}
V3A = {"$ref": "urn:zom:v3#/$defs/ArraySpec"}
V2G = {"$ref": "urn:zom:v2#/$defs/GroupSpec"}

Expect = Literal["compile", "refuse", "either"]


@dataclass(frozen=True)
class Case:
    name: str
    schema: Any
    expect: Expect = "either"
    outcome_bug: str | None = None  # xfail reason of the outcome test
    checks_bug: str | None = None  # xfail reason of the type-check test
    python_checkers_bug: str | None = None  # xfail reason of the pyrefly and ty test


def group(attributes: Any, title: Any = "Hostile", **extra: Any) -> dict[str, Any]:
    return {"title": title, "allOf": [V3G], "properties": {"attributes": attributes}, **extra}


def obj(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **extra}


def nest(depth: int, leaf: Any, wrap: Any) -> Any:
    for _ in range(depth):
        leaf = wrap(leaf)
    return leaf


# JSON keys that zomgen must keep exactly while turning them into identifiers.
KEYS = [
    "__proto__", "constructor", "class", "None", "True", "1st", "größe", "with space", 'a"b',
    "a\\b", "emoji🎉key", "extras", "a-b", "a_b", "a b", "_x", "self", "cls", "dataclass",
    "Literal", "UNSET", "Unset", "TypedDict", "zarr_format", "node_type", "attributes",
    "members", "__init__", "__class__", "__dict__", "$ref", "$id", "${x}", "{{x}}", "{%x%}",
    "line\nbreak", "nul\x00byte", "k" * 300, "json", "typing", "from", "import", "async",
    "match", "type", "print", "Any", "cast", "extensions", "größe-Maß", "名前",
]  # fmt: skip
# The keys whose type names differ (those that PascalCase alike are collision cases below).
DEF_KEYS = list({pascal_case(k): k for k in reversed(KEYS)}.values())


def ref(key: str) -> str:
    """A `$ref` to `#/$defs/<key>`: JSON-pointer escaped, then percent-encoded for the URI."""
    return "#/$defs/" + quote(key.replace("~", "~0").replace("/", "~1"), safe="$~!'()*+,;=:@")


_HOSTILE = (
    'End """ here; \\ backslash \\""" \'\'\' */ ${x} {{ jinja }} {% if %} `tick` \\N{foo} '
    "C:\\Users\\new \\x00 \\u12 \\U0001 <script> \u2028 \u0007 "
)
LONG = (_HOSTILE + "y" * 500)[:499] + "\\"  # 500 characters, ends with a backslash
SURROGATE = "lone \ud800 surrogate \udfff end"
EVERY_JSON_TYPE = [None, True, False, 0, -1, 1.5, 1e300, -0.0, "s", "", 'a"b', "c\\d", "\n",
                   "\u2028", "'''", '"""', [], [1], {}, {"a": 1}]  # fmt: skip


# Not a compiler bug: pyrefly (1.4.1, 1.5.1) expands type aliases eagerly. A tuple with optional
# positions (`prefixItems` without `minItems`) names its part once per length it may have
# (`tuple[A, int] | tuple[A] | tuple[()]`), so a chain of them costs pyrefly 2^depth (a bare
# 20-alias chain takes ~18 s, 23 over a minute); such a package goes to pyrefly alone, with a
# time limit, and its pyrefly/ty test fails with the timeout. mypy, pyright, ty and tsc read it.
PYREFLY_REPEATED_ALIASES = (
    "pyrefly 1.5.1 expands a chain of 40 aliases of tuples with optional positions, each "
    "naming the next twice (time doubles with each level)"
)
S = {"type": "string"}
# Nested as deep as the 128 levels of objects and arrays allow (each named for its type depth).
DEEP = {
    "deep_items_120": group(obj({"x": nest(120, S, lambda s: {"type": "array", "items": s})})),
    "deep_properties_60": group(nest(60, S, lambda s: obj({"a": s}, required=["a"]))),
    "deep_anyof_60": group(obj({"x": nest(60, S, lambda s: {"anyOf": [s, {"type": "integer"}]})})),
    "deep_anyof_of_arrays_80": group(obj({"x": nest(40, S, lambda s: {"anyOf": [{"type": "array", "items": s}, {"type": "null"}]})})),
    "deep_additional_properties_120": group(obj({"x": nest(120, S, lambda s: {"type": "object", "additionalProperties": s})})),
    "deep_prefix_items_40": group(obj({"x": nest(40, S, lambda s: {"type": "array", "prefixItems": [s, {"type": "integer"}], "items": False})})),
    "deep_const_arrays_120": group(obj({"x": {"const": nest(120, "a", lambda s: [s])}})),
    "deep_items_twice_and_as_extras_110": group(obj({f: nest(110, S, lambda s: {"type": "array", "items": s}) for f in ("x", "y")}, additionalProperties=nest(110, S, lambda s: {"type": "array", "items": s}))),
    "deep_items_beside_a_def_of_the_alias_name_100": group(obj({"x": nest(100, S, lambda s: {"type": "array", "items": s}), "d": {"$ref": "#/$defs/HostileAttributesXItemLevels11"}}), **{"$defs": {"HostileAttributesXItemLevels11": S}}),
}  # fmt: skip


def own_base_copies(version: int) -> dict[str, Any]:
    """A group whose members are arrays of the schema's own copy of the base (not a `$ref` to
    it), each giving one base array key another schema (issue 53: `shape: JsonValue` in
    models.py over the base class's `tuple[int, ...]` failed mypy and pyright)."""
    copy = json.loads((ROOT / "schemas" / "zom" / f"v{version}.schema.json").read_text("utf-8"))
    copy["$id"] = f"urn:lab:copy-v{version}"
    variants = [
        {},
        {"type": ["array", "string"]},
        {"type": "array", "items": {"type": "number"}},
        {"type": "object"},
    ]
    members: dict[str, Any] = {}
    for key in (f.key for f in ARRAY_FIELDS[version]):
        for i, variant in enumerate(variants):
            array = json.loads(json.dumps(copy["$defs"]["ArraySpec"]))
            array["properties"][key] = variant
            copy["$defs"][f"Copied_{key}_{i}"] = array
            members[f"{key}_{i}"] = {"$ref": f"#/$defs/copy/$defs/Copied_{key}_{i}"}
    return {
        "title": f"Copies{version}",
        "allOf": [V3G if version == 3 else V2G],
        "properties": {"members": {"properties": members}},
        "$defs": {"copy": copy},
    }


CASES = [
    Case("keys_as_fields", group(obj({k: {"type": "integer"} for k in KEYS}, required=KEYS[:5])), "compile"),
    Case("keys_as_fields_closed", group(obj({k: {"type": "string"} for k in KEYS}, additionalProperties=False)), "compile"),
    Case("keys_as_nested_objects", group(obj({k: obj({k: {"type": "integer"}}, required=[k]) for k in KEYS})), "compile"),
    Case("keys_as_defs", group(obj({"v": {"$ref": "#/$defs/all"}}), **{"$defs": {"all": {"anyOf": [{"$ref": ref(k)} for k in DEF_KEYS]}, **{k: obj({"tag": {"const": k}}, required=["tag"]) for k in DEF_KEYS}}}), "compile"),
    Case("keys_as_member_names", group({"type": "object"}, properties={"attributes": {"type": "object"}, "members": {"properties": {k: {"allOf": [V3A]} for k in KEYS}, "additionalProperties": False}}), "compile"),
    Case("keys_as_union_tags", group(obj({"u": {"oneOf": [obj({"kind": {"const": k}, "v": {"type": "string"}}, required=["kind"]) for k in KEYS]}})), "compile"),
    Case("keys_as_titles", group(obj({f"p{i}": obj({"a": {"type": "string"}}, title=k) for i, k in enumerate(KEYS)})), "compile"),
    Case("v2_keys", {"title": "V2", "allOf": [V2G], "properties": {"attributes": obj({k: {"type": "string"} for k in KEYS})}}, "compile"),
    Case("key_field", group(obj({"field": {"type": "string"}})), "compile"),
    Case("key_emoji_only", group(obj({"🎉": {"type": "string"}})), "compile"),
    Case("key_mapping", group(obj({"Mapping": {"type": "string"}})), "compile"),
    Case("key_jsonvalue", group(obj({"JsonValue": {"type": "string"}})), "compile"),
    Case("key_empty", group(obj({"": {"type": "string"}})), "either"),
    Case("member_name_zero_width_space", group({"type": "object"}, properties={"attributes": {"type": "object"}, "members": {"properties": {"x\u200by": {"allOf": [V3A]}}}}), "compile"),
    Case("name_arrow", group(obj({"a→b": obj({"x": {"type": "string"}})})), "either"),
    Case("name_euro", group(obj({"v": {"$ref": "#/$defs/price€"}}), **{"$defs": {"price€": obj({"x": {"type": "string"}})}}), "either"),
    Case("name_zero_width_space", group({"type": "object"}, title="x\u200by"), "either"),
    Case("name_line_separator", group(obj({"u": {"oneOf": [obj({"k": {"const": "a\u2028b"}}, required=["k"]), obj({"k": {"const": "c"}}, required=["k"])]}})), "either"),
    Case("title_digit_first", group({"type": "object"}, title="1st"), "compile"),
    Case("title_anynode", group({"type": "object"}, title="AnyNode"), "either"),
    Case("defs_anynode", group(obj({"v": {"$ref": "#/$defs/AnyNode"}}), **{"$defs": {"AnyNode": obj({"x": {"type": "string"}})}}), "either"),
    *(
        Case(f"title_{n.lower()}", group({"type": "object"}, title=n), "either")
        for n in ("Converter", "Problem", "ZomError", "TABLE")
    ),
    Case("collide_dash_underscore", group({"type": "object"}, **{"$defs": {"foo-bar": {"type": "string"}, "foo_bar": {"type": "integer"}}}), "refuse"),
    Case("collide_case", group({"type": "object"}, **{"$defs": {"a": {"type": "string"}, "A": {"type": "integer"}}}), "refuse"),
    Case("collide_reserved", group(obj({"a": {"$ref": "#/$defs/GroupSpec"}, "b": {"$ref": "#/$defs/GroupSpec_"}}), **{"$defs": {"GroupSpec": obj({"x": {"type": "string"}}), "GroupSpec_": obj({"y": {"type": "string"}})}}), "refuse"),
    Case("collide_root_title_and_defs", group(obj({"v": {"$ref": "#/$defs/hostile"}}), **{"$defs": {"hostile": obj({"x": {"type": "string"}})}}), "refuse"),
    Case("description_500_hostile", group(obj({"a": {"type": "string", "description": LONG}, "e": {"enum": ["x", "y"], "description": LONG}}, description=LONG), description=LONG), "compile"),
    Case("description_ends_with_quote", group(obj({"a": {"type": "string", "description": 'x"'}}, description='ends with "'), description='"'), "compile"),
    Case("description_line_breaks", group(obj({"a": {"type": "string", "description": "x\r\ny\x85z\u2029w\x0c"}}, description="a\r\nb\rc\x0bd"), description="\r\n\x0c\x85"), "compile"),
    Case("description_surrogates", group(obj({"a": {"type": "string", "description": SURROGATE}}, description=SURROGATE), description=SURROGATE), "either"),
    Case("enum_surrogates", group(obj({"e": {"enum": [SURROGATE, "\udcff"]}})), "either"),
    Case("enum_every_json_type", group(obj({"e": {"enum": EVERY_JSON_TYPE}})), "compile"),
    Case("enum_scalars", group(obj({"e": {"enum": [v for v in EVERY_JSON_TYPE if not isinstance(v, (list, dict))]}})), "compile"),
    Case("enum_int_float_bool", group(obj({"e": {"enum": [1, 1.0, True, 0, False, 0.0]}})), "compile"),
    Case("const_every_json_type", group(obj({f"c{i}": {"const": v} for i, v in enumerate(EVERY_JSON_TYPE)})), "compile"),
    Case("const_big_integer", group(obj({"c": {"const": 2**70}, "e": {"enum": [2**64, -(2**63) - 1]}})), "compile"),
    Case("empty_tuple", group(obj({"t": {"type": "array", "maxItems": 0}, "u": {"type": "array", "items": False}})), "compile"),
    Case("deep_properties_50", group(nest(50, {"type": "string"}, lambda s: obj({"a": s}, required=["a"]))), "compile"),
    Case("deep_items_50", group(obj({"x": nest(50, {"type": "string"}, lambda s: {"type": "array", "items": s})})), "compile"),
    Case("deep_allof_50", group(obj({"x": nest(50, {"type": "string"}, lambda s: {"allOf": [s, {"minLength": 0}]})})), "compile"),
    Case("deep_anyof_50", group(obj({"x": nest(50, {"type": "string"}, lambda s: {"anyOf": [s, {"type": "integer"}]})})), "compile"),
    Case("deep_ref_chain_50", group(obj({"x": {"$ref": "#/$defs/d0"}}), **{"$defs": {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} if i < 49 else {"type": "string"} for i in range(50)}}), "compile"),
    # Within the 128-level limit, however deep: anonymous types past MAX_TYPE_DEPTH become
    # named aliases (ir/flatten.py), so no generated expression nests with the schema.
    *(
        Case(name, schema, "compile", python_checkers_bug=PYREFLY_REPEATED_ALIASES if "prefix" in name else None)
        for name, schema in DEEP.items()
    ),
    # 30 member levels are 120 levels of schema objects: within zomgen's 128 (docs/input-language.md, Limits).
    Case("deep_members_30", {"title": "Deep", **nest(30, {"allOf": [V3A]}, lambda s: {"allOf": [V3G], "properties": {"members": {"properties": {"child": s}, "required": ["child"]}}})}, "compile"),
    Case("recursive_union_alias", group(obj({"v": {"$ref": "#/$defs/J"}}), **{"$defs": {"J": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/J"}}, {"type": "object", "additionalProperties": {"$ref": "#/$defs/J"}}]}}}), "compile"),
    Case("ref_to_boolean_schema", group(obj({"x": {"$ref": "#/$defs/any"}}), **{"$defs": {"any": True}}), "compile"),
    Case("pattern_properties_ecma_regex", group(obj({"x": {"type": "string"}}, patternProperties={"^\\p{L}+$": {"type": "string"}})), "either"),
    Case("pattern_properties_bad_regex", group(obj({"x": {"type": "string"}}, patternProperties={"(": {"type": "string"}})), "refuse"),
    Case("type_unknown", group(obj({"x": {"type": "foo"}})), "refuse"),
    Case("type_not_a_string", group(obj({"x": {"type": 5}})), "refuse"),
    Case("items_list_in_2020_12", group(obj({"x": {"items": [{"type": "string"}]}})), "refuse"),
    Case("properties_not_an_object", group({"type": "object", "properties": ["a"]}), "refuse"),
    Case("additional_properties_number", group({"type": "object", "additionalProperties": 5}), "refuse"),
    Case("defs_not_an_object", group({"type": "object"}, **{"$defs": [1, 2]}), "refuse"),
    Case("enum_not_an_array", group(obj({"e": {"enum": "abc"}})), "refuse"),
    Case("dialect_draft_04", {**group({"type": "object"}), "$schema": "http://json-schema.org/draft-04/schema#"}, "refuse"),
    Case("not_json", "{not json", "refuse"),
    # Issue 12: schemas that crashed the build, or built packages that did not import or check.
    Case("integer_of_5000_digits", '{"title": "H", "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}], "properties": {"attributes": {"const": ' + "9" * 5000 + "}}}", "refuse"),
    Case("number_1e999", '{"title": "H", "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}], "properties": {"attributes": {"type": "object", "properties": {"c": {"const": 1e999}}}}}', "refuse"),
    Case("const_nan", group(obj({"c": {"const": float("nan")}})), "refuse"),
    Case("ref_into_boolean_subschema", group(obj({"x": {"allOf": [{"$ref": "#/$defs/a/properties/x"}]}}), **{"$defs": {"a": True}}), "refuse"),
    Case("deep_items_200", group(obj({"x": nest(200, {"type": "string"}, lambda s: {"type": "array", "items": s})})), "refuse"),
    Case("deep_properties_300", group(nest(300, {"type": "string"}, lambda s: obj({"a": s}, required=["a"]))), "refuse"),
    Case("defs_key_with_newline", group({"type": "object"}, **{"$defs": {"x\ny": {"type": 5}}}), "refuse"),
    Case("draft07_dependencies_schema_then_list", {**group(obj({"a": {"type": "string"}}, dependencies={"a": {"required": ["b"]}, "c": ["d"]})), "$schema": "http://json-schema.org/draft-07/schema#"}, "compile"),
    Case("keys_that_are_builtins", group(obj({k: {"type": "string"} for k in ("dict", "str", "int", "float", "bool", "tuple", "list", "object", "type")}, additionalProperties={"type": "integer"})), "compile"),
    Case("extras_of_a_class_defined_later", group(obj({"o": obj({"a": {"type": "string"}}, additionalProperties={"$ref": "#/$defs/Later"})}), **{"$defs": {"Later": obj({"z": {"type": "string"}})}}), "compile"),
    Case("own_copy_of_the_v3_base", own_base_copies(3), "compile"),
    Case("own_copy_of_the_v2_base", own_base_copies(2), "compile"),
    Case("array_shape_prefix_items_then_true", {"title": "Arr", "allOf": [V3A], "properties": {"shape": {"prefixItems": [{"type": "integer"}, {"type": "integer"}, True], "items": False}}}, "compile"),
]  # fmt: skip


@dataclass
class Built:
    builds: dict[str, subprocess.CompletedProcess[str]]
    sources: Path
    packages: Path
    findings: Findings


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Built:
    sources = tmp_path_factory.mktemp("hostile_sources")
    packages = tmp_path_factory.mktemp("hostile_packages")
    jobs = {}
    for case in CASES:
        path = sources / case.name / "schema.json"
        path.parent.mkdir()
        text = case.schema if isinstance(case.schema, str) else json.dumps(case.schema)
        path.write_text(text, encoding="utf-8")
        jobs[case.name] = (path, ())
    builds = build_many(jobs, packages)
    built = sorted(name for name, result in builds.items() if result.returncode == 0)
    alone = {case.name for case in CASES if case.python_checkers_bug == PYREFLY_REPEATED_ALIASES}
    return Built(builds, sources, packages, check_packages(packages, built, pyrefly_alone=alone))


def _params(test: Literal["outcome", "checks", "python_checkers"]) -> list[Any]:
    params = []
    for case in CASES:
        reason = {
            "outcome": case.outcome_bug,
            "checks": case.checks_bug,
            "python_checkers": case.python_checkers_bug,
        }[test]
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(case, id=case.name, marks=marks))
    return params


@pytest.mark.parametrize("case", _params("outcome"))
def test_compiles_or_is_refused_cleanly(hostile: Built, case: Case) -> None:
    result = hostile.builds[case.name]
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode in (0, 2), result.stderr
    if result.returncode == 0:
        assert case.expect != "refuse", f"must be refused, compiled: {result.stdout}"
        return
    assert case.expect != "compile", f"must compile, refused: {result.stderr}"
    assert not (hostile.packages / case.name).exists(), "nothing may be written for bad input"
    lines = result.stderr.splitlines()
    assert lines
    schema = (hostile.sources / case.name / "schema.json").resolve()
    for line in lines:  # zomgen: <file>:<JSON pointer>: <message>
        assert line.startswith(f"zomgen: {schema}:/"), line


@pytest.mark.parametrize("case", _params("checks"))
def test_compiled_package_passes_mypy_pyright_ruff_and_tsc(hostile: Built, case: Case) -> None:
    if hostile.builds[case.name].returncode != 0:
        return  # refused (or crashed): the outcome test says whether that is right
    found = hostile.findings
    problems = (
        found.mypy.get(case.name, [])
        + found.pyright.get(case.name, [])
        + found.ruff.get(case.name, [])
        + found.typescript.get(case.name, [])
    )
    assert not problems, "\n".join(problems[:30])


@pytest.mark.parametrize("case", _params("python_checkers"))
def test_compiled_package_passes_pyrefly_and_ty(hostile: Built, case: Case) -> None:
    if hostile.builds[case.name].returncode != 0:
        return  # refused (or crashed): the outcome test says whether that is right
    found = hostile.findings
    problems = found.pyrefly.get(case.name, []) + found.ty.get(case.name, [])
    assert not problems, "\n".join(problems[:30])


# -- limits (issue 12): every refusal is one problem at the deepest pointer reached, in bounded
# time, through the command line and through generate() alike. These inputs are not JSON the
# harness above can write (YAML, text deeper than any parser), or are too slow for it to build.

_G = '"title": "H", "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}]'


def _laughs() -> str:
    lines = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 9):
        name, prev = chr(ord("a") + i), chr(ord("a") + i - 1)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join([*lines, "title: L", "enum: *i", ""])


def _aliased_schemas() -> str:
    lines = ["title: A", "$defs:", "  l0: &l0 {type: string}"]
    for i in range(1, 40):
        lines.append(f"  l{i}: &l{i} {{anyOf: [*l{i - 1}, {{allOf: [*l{i - 1}]}}]}}")
    return "\n".join([*lines, "properties: {x: *l39}", ""])


# (name, file name, text, a fragment of the one line expected: pointer and/or message)
LIMITS = [
    ("yaml_integer_of_5000_digits", "s.yaml", "title: H\nconst: " + "9" * 5000 + "\n", ":/const: "),
    ("yaml_date", "s.yaml", "title: D\nconst: 2020-01-01\n", ":/const: a YAML date"),
    ("yaml_key_that_is_a_number", "s.yaml", "title: I\nproperties:\n  1: {type: string}\n", ":/properties/1: "),
    ("yaml_nan", "s.yaml", "title: N\nconst: .nan\n", ":/const: "),
    ("yaml_billion_laughs", "s.yaml", _laughs(), "more than 200,000 values"),
    ("yaml_alias_inside_itself", "s.yaml", "title: C\ndefinitions: &a\n  x:\n    properties: *a\n", "alias stands inside the node it names"),
    ("yaml_aliases_of_schema_objects", "s.yaml", _aliased_schemas(), "more than 200,000 values"),
    ("lone_surrogate_in_a_description", "s.json", '{' + _G + ', "description": "a \\ud800 b"}', ":/description: the text holds the lone surrogate U+D800"),
    ("lone_surrogate_in_a_key", "s.json", '{' + _G + ', "properties": {"attributes": {"type": "object", "properties": {"k\\udfff": {}}}}}', "lone surrogate U+DFFF"),
    ("enum_of_100000_values_beside_a_string", "s.json", '{' + _G + ', "properties": {"attributes": {"anyOf": [{"enum": [' + ", ".join(f'"v{i}"' for i in range(100_000)) + ']}, {"type": "string"}]}}}', ":/properties/attributes/anyOf/0/enum: 100,000 values"),
    ("nesting_1500_levels", "s.json", '{' + _G + ', "properties": {"attributes": ' + '{"allOf": [' * 1500 + "{}" + "]}" * 1500 + "}}", "/allOf/0/allOf/0/allOf/0"),
    ("defs_chained_300_deep", "s.json", json.dumps({**group({"$ref": "#/$defs/d0"}), "$defs": {f"d{i}": obj({"a": {"$ref": f"#/$defs/d{i + 1}"}}, required=["a"]) for i in range(300)} | {"d300": {"type": "string"}}}), "counting each `$ref` as the schema it names"),
    ("ref_chain_of_6000", "s.json", json.dumps({**group(obj({"x": {"$ref": "#/$defs/d0"}})), "$defs": {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(6000)} | {"d6000": {"type": "string"}}}), ":/$defs/d123: nests deeper than 128 levels"),
    # Past the limit by a few levels: refused at the pointer where the 129th level starts.
    ("items_past_the_limit", "s.json", json.dumps(group(obj({"x": nest(125, S, lambda s: {"type": "array", "items": s})}))), ":/properties/attributes/properties/x" + "/items" * 124 + ": nests deeper than 128 levels"),
    ("properties_past_the_limit", "s.json", json.dumps(group(nest(63, S, lambda s: obj({"a": s}, required=["a"])))), ":/properties/attributes" + "/properties/a" * 63 + ": nests deeper than 128 levels"),
    ("anyof_past_the_limit", "s.json", json.dumps(group(obj({"x": nest(63, S, lambda s: {"anyOf": [s, {"type": "integer"}]})}))), ":/properties/attributes/properties/x" + "/anyOf/0" * 62 + ": nests deeper than 128 levels"),
    ("nesting_100000_levels", "s.json", '{"properties": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}", "(line 1, column "),
]  # fmt: skip


@pytest.mark.parametrize(("name", "file", "text", "expected"), LIMITS, ids=[c[0] for c in LIMITS])
def test_a_schema_past_a_limit_is_one_problem_at_its_pointer(
    tmp_path: Path, name: str, file: str, text: str, expected: str
) -> None:
    schema = tmp_path / file
    schema.write_text(text, encoding="utf-8", errors="surrogatepass")
    started = time.perf_counter()
    result = run_zomgen("build", schema, "-o", tmp_path / "pkg", timeout=120)
    elapsed = time.perf_counter() - started
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-2000:]
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"zomgen: {schema}:/"), lines[:3]
    assert expected in lines[0], lines[0][:500]
    assert elapsed < 30, f"{elapsed:.1f} s"
    assert not (tmp_path / "pkg").exists()
    with pytest.raises(CompileError) as raised:  # the same through the Python API
        generate(Options(schema, (), "pkg"))
    assert [str(p) for p in raised.value.problems] == [lines[0].removeprefix("zomgen: ")]


def test_a_defs_key_with_a_line_break_is_reported_on_one_line(tmp_path: Path) -> None:
    schema = tmp_path / "s.json"
    schema.write_text(
        json.dumps(group({"type": "object"}, **{"$defs": {"x\ny\u2028z": {"type": 5}}}))
    )
    result = run_zomgen("build", schema, "-o", tmp_path / "pkg", timeout=120)
    assert result.returncode == 2
    expected = (
        f"zomgen: {schema}:/$defs/x\\ny\\u2028z/type: not valid JSON Schema (2020-12): 5 is "
        "not valid under any of the given schemas"
    )
    assert result.stderr.splitlines() == [expected]


def test_an_enum_at_the_limit_beside_a_string_builds_in_bounded_time(tmp_path: Path) -> None:
    """20,000 values (the limit) beside a string branch: merge_literals was quadratic."""
    values = [f"v{i}" for i in range(MAX_ENUM)]
    schema = tmp_path / "s.json"
    schema.write_text(
        json.dumps(group(obj({"e": {"anyOf": [{"enum": values}, {"type": "string"}]}})))
    )
    started = time.perf_counter()
    files = generate(Options(schema, (), "pkg"))
    assert time.perf_counter() - started < 30
    assert '"v19999"' in files["models.py"]


def test_generated_python_deeper_than_python_reads_is_refused() -> None:
    """The last guard (format.py), which flattening leaves unreached: code nested past Python's
    200 brackets, however it got there, is one problem, not a SyntaxError."""
    with pytest.raises(CompileError, match="nests deeper than Python's parser reads .* zomgen bug"):
        format_python("x: " + "list[" * 210 + "int" + "]" * 210 + "\n")


# -- deep types become named aliases (ir/flatten.py)


def _bracket_depth(text: str) -> int:
    """The deepest nesting of brackets in `text`, strings included (a string annotation is
    read by the type checkers)."""
    depth = deepest = 0
    for char in text:
        if char in "([{<":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}>":
            depth = max(0, depth - 1)
    return deepest


@pytest.mark.parametrize("name", sorted(DEEP))
def test_a_deep_type_is_named_so_no_generated_code_nests_with_the_schema(
    tmp_path: Path, name: str
) -> None:
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(DEEP[name]), encoding="utf-8")
    options = Options(schema, (), "pkg")
    hierarchy = build_ir(load(options))
    assert max(type_depth(t) for t in expressions(hierarchy)) <= MAX_TYPE_DEPTH
    files = generate(options)
    assert files == generate(options)  # deterministic
    for path, text in files.items():
        if path.endswith((".py", ".ts")) and path not in ("schema.ts",) and "/" not in path:
            # The schema itself (schema.json, schema.ts) nests with the schema, within the
            # 128 levels Python's and Node's JSON readers take.
            assert _bracket_depth(text) <= 3 * MAX_TYPE_DEPTH, path


def _alias_names(schema: dict[str, Any], tmp_path: Path) -> list[str]:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    hierarchy = build_ir(load(Options(path, (), "pkg")))
    return [t.name for t in hierarchy.types if isinstance(t, AliasType)]


def test_a_deep_alias_is_named_from_its_place_in_the_schema(tmp_path: Path) -> None:
    items = [f"HostileAttributesXItemLevels{11 * n}" for n in range(1, 11)]
    assert _alias_names(DEEP["deep_items_120"], tmp_path) == items
    values = [f"HostileAttributesXValueLevels{11 * n}" for n in range(1, 11)]
    assert _alias_names(DEEP["deep_additional_properties_120"], tmp_path) == values
    # anyOf of arrays alternates two words, summed up by depth
    nested = [f"HostileAttributesXNested{11 * n}" for n in range(1, 8)]
    assert _alias_names(DEEP["deep_anyof_of_arrays_80"], tmp_path) == nested
    # the same deep type in three places is one set of aliases, named after the first place
    twice = _alias_names(DEEP["deep_items_twice_and_as_extras_110"], tmp_path)
    assert twice == [f"HostileAttributesXItemLevels{11 * n}" for n in range(1, 10)]
    # a name a `$defs` entry already holds gets a number
    clash = _alias_names(DEEP["deep_items_beside_a_def_of_the_alias_name_100"], tmp_path)
    assert clash == [
        "HostileAttributesXItemLevels11_2",  # the `$defs` entry holds the first name
        *(f"HostileAttributesXItemLevels{11 * n}" for n in range(2, 10)),
        "HostileAttributesXItemLevels11",  # the `$defs` entry (an alias of string)
    ]
    # each optional position of a tuple is named (a length-by-length spelling repeats it)
    prefix = _alias_names(DEEP["deep_prefix_items_40"], tmp_path)
    assert prefix == ["HostileAttributesXItem1"] + [
        f"HostileAttributesXItem1Levels{n}" for n in range(2, 40)
    ]


def test_a_hierarchy_no_deeper_than_the_limit_is_left_as_it_is(tmp_path: Path) -> None:
    shallow = group(
        obj({"x": nest(MAX_TYPE_DEPTH - 1, S, lambda s: {"type": "array", "items": s})})
    )
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(shallow), encoding="utf-8")
    schema_set = load(Options(schema, (), "pkg"))
    built = Builder(schema_set, Expander(schema_set)).build()
    assert flatten(built) is built
    deeper = group(obj({"x": nest(MAX_TYPE_DEPTH, S, lambda s: {"type": "array", "items": s})}))
    assert _alias_names(deeper, tmp_path) == [f"HostileAttributesXItemLevels{MAX_TYPE_DEPTH - 1}"]


def test_zomgen_ir_reads_a_schema_as_deep_as_the_limit(tmp_path: Path) -> None:
    """`zomgen ir` once loaded the schema before raising the recursion limit: a RecursionError
    reported as "nests too deeply to compile" at `/`."""
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(DEEP["deep_items_120"]), encoding="utf-8")
    result = run_zomgen("ir", schema, timeout=120)
    assert result.returncode == 0, result.stderr
    names = [t["name"] for t in json.loads(result.stdout)["types"]]
    assert names[-1] == "HostileAttributesXItemLevels110"


def test_a_package_that_builds_imports(tmp_path: Path) -> None:
    """Builtins as keys, extras naming a class defined later: both once failed at import."""
    for case in CASES:
        if case.name in ("keys_that_are_builtins", "extras_of_a_class_defined_later"):
            schema = tmp_path / f"{case.name}.json"
            schema.write_text(json.dumps(case.schema))
            out = tmp_path / case.name
            write_package(generate(Options(schema, (), case.name)), out)
            result = subprocess.run(
                [sys.executable, "-c", f"import {case.name}.models, {case.name}.documents"],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                check=False,
            )
            assert result.returncode == 0, result.stderr[-2000:]


def test_deep_packages_import_and_round_trip_a_document_as_deep(tmp_path: Path) -> None:
    """The converters follow the aliases: a document as deep as the schema parses and dumps."""
    documents = {
        "deep_items_120": nest(120, "s", lambda s: [s]),
        "deep_additional_properties_120": nest(120, "s", lambda s: {"k": s}),
        "deep_const_arrays_120": nest(120, "a", lambda s: [s]),
        "deep_anyof_of_arrays_80": nest(40, "s", lambda s: [s, None] if s != "s" else [s]),
        "deep_prefix_items_40": nest(40, "s", lambda s: [s, 1]),
    }
    for name, value in documents.items():
        schema = tmp_path / f"{name}.json"
        schema.write_text(json.dumps(DEEP[name]), encoding="utf-8")
        write_package(generate(Options(schema, (), name)), tmp_path / name)
        document = {"zarr_format": 3, "node_type": "group", "attributes": {"x": value}}
        (tmp_path / f"{name}.doc.json").write_text(json.dumps({**document, "members": {}}))
    script = (
        "import importlib, json, sys\n"
        "for name in sys.argv[1:]:\n"
        "    package = importlib.import_module(name)\n"
        "    document = json.load(open(name + '.doc.json'))\n"
        "    assert package.dump(package.parse(document)) == document, name\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, *documents],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
