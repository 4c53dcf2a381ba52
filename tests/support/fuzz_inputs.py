"""The hostile input of the fuzz tests: names and injection payloads (fuzz/test_campaign.py puts
them in hypothesis-built schemas, fuzz/test_mutations.py in mutated corpus schemas), the marker
file a payload that ran would leave behind, and the mutation of a corpus schema: the sample of
corpus wrappers mutated, their workspaces (copies of the wrapper and of the folders it
includes) and `mutate`, one seeded careless or hostile edit."""

from __future__ import annotations

import copy
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.support.corpus_wrappers import WRAPPERS_TO_BUILD, includes_for

# A payload that would leave this file behind if any generated code ever ran schema text.
MARKER = "ZOMGEN_FUZZ_PWNED"
PAYLOADS = [
    f"__import__('pathlib').Path('{MARKER}').touch()",
    f'"""; __import__("pathlib").Path("{MARKER}").touch(); """',
    f"*/ require('fs').writeFileSync('{MARKER}', ''); /*",
    "${process.exit(3)}",
    "{{ cycler.__init__.__globals__ }}",
    "{% raw %}",
    "\\N{foo} \\x00 \\u12",
    "line\nbreak\r\n\u2028end",
    "`tick` <script>",
    "",
]
NAMES = [
    "a", "b", "type", "class", "None", "dict", "str", "field", "extras", "__init__", "1st",
    "with space", 'q"uote', "back\\slash", "line\nbreak", "größe", "名前", "$ref", "emoji🎉",
    "x\ud800", "Literal", "Mapping", "UNSET", "attributes", "members", "__proto__",
]  # fmt: skip

# The corpus wrappers mutated (fuzz/test_mutations.py; fuzz/test_campaign.py checks the first
# that build), and what `mutate` puts in them besides NAMES and PAYLOADS.
MUTATION_SAMPLE = (
    "ome_0_4__image",
    "ome_0_5__image",
    "conventions__multiscales",
    "zarr_cm__cm_license",
    "extensions__codec_bytes",
    "zarr_metadata__pr347_group",
)
KEYWORDS = (
    "properties", "items", "prefixItems", "anyOf", "oneOf", "allOf", "$defs", "type", "enum",
    "const", "required", "additionalProperties", "patternProperties", "minItems", "maxItems",
    "pattern", "$ref", "title", "description", "not", "if", "then", "contains", "default",
)  # fmt: skip
OTHER_VALUES: list[Any] = [
    None, True, False, 0, -1, 2**63, 1.5, 1e300, "", "string", [], [1, "a"], {}, {"type": 5},
    {"type": "string"}, {"$ref": "#"}, [{"type": "integer"}],
]  # fmt: skip
REFS = [
    "#", "#/$defs/missing", "#/properties", "#/$defs", "urn:zom:v3#/$defs/Nope",
    "urn:zom:v3#/$defs/GroupSpec", "other.json", "#/properties/attributes/properties/x/items",
    "%ZZ", "#/allOf/0/$ref", "http://example.com/unreachable.json",
]  # fmt: skip


def _places(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, container) below `node`: dicts and lists, the root included."""
    if isinstance(node, (dict, list)):
        yield path, node
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            yield from _places(value, (*path, key))


def mutate(doc: Any, rng: random.Random) -> str:
    """Change `doc` in place once; say what was done."""
    places = list(_places(doc))
    objects = [(p, n) for p, n in places if isinstance(n, dict)]
    where, node = rng.choice(objects or places)
    at = "/" + "/".join(map(str, where))
    what = rng.choice(
        ["drop", "duplicate", "swap", "type", "rename", "payload", "ref", "deepen", "list"]
    )
    if not isinstance(node, dict) or not node:
        what = "list" if isinstance(node, list) and node else "payload"
    if what == "drop":
        key = rng.choice(sorted(node))
        del node[key]
        return f"drop {at}/{key}"
    if what == "duplicate":
        key = rng.choice(sorted(node))
        to = rng.choice(KEYWORDS)
        node[to] = copy.deepcopy(node[key])
        return f"duplicate {at}/{key} as {to}"
    if what == "swap":
        key = rng.choice(sorted(node))
        node[key] = copy.deepcopy(rng.choice(OTHER_VALUES))
        return f"swap {at}/{key} for {node[key]!r}"
    if what == "type":
        node["type"] = rng.choice(
            ["string", "integer", "array", "object", "null", ["string", "null"], "foo", []]
        )
        return f"type of {at} = {node['type']!r}"
    if what == "rename":
        key = rng.choice(sorted(node))
        name = rng.choice(NAMES)
        node[name] = node.pop(key)
        return f"rename {at}/{key} to {name!r}"
    if what == "payload":
        if not isinstance(node, dict):
            return "nothing"
        keyword = rng.choice(["title", "description", "enum", "const", "pattern", "properties"])
        payload = rng.choice(PAYLOADS + NAMES)
        node[keyword] = {
            "enum": [payload, rng.choice(OTHER_VALUES)],
            "properties": {payload: {"description": payload}},
        }.get(keyword, payload)
        return f"{keyword} of {at} = {payload!r}"
    if what == "ref":
        node["$ref"] = rng.choice(REFS)
        return f"$ref of {at} = {node['$ref']!r}"
    if what == "list":
        assert isinstance(node, (list, dict))
        if isinstance(node, list):
            node.append(copy.deepcopy(rng.choice(node)))
            return f"duplicate an item of {at}"
        key = rng.choice(sorted(node))
        node[key] = [node[key], node[key]]
        return f"{at}/{key} made a list of two"
    depth = rng.choice([5, 40, 130])
    keyword = rng.choice(["items", "anyOf", "allOf", "properties", "additionalProperties"])
    inner: Any = dict(node)
    for _ in range(depth):
        inner = {
            "items": {"type": "array", "items": inner},
            "anyOf": {"anyOf": [inner, {"type": "null"}]},
            "allOf": {"allOf": [inner]},
            "properties": {"type": "object", "properties": {"p": inner}},
            "additionalProperties": {"type": "object", "additionalProperties": inner},
        }[keyword]
    node.clear()
    node.update(inner)
    return f"nest {at} {depth} deeper in {keyword}"


def workspaces(folder: Path) -> dict[str, tuple[Path, list[Path], list[Path]]]:
    """wrapper name -> (wrapper copy, include folder copies, the files one may mutate)."""
    spaces = {}
    for name in MUTATION_SAMPLE:
        wrapper = WRAPPERS_TO_BUILD[name]
        space = folder / name
        space.mkdir(parents=True)
        includes = []
        for i, source in enumerate(includes_for(wrapper)):
            includes.append(shutil.copytree(source, space / f"include{i}"))
        schema = Path(shutil.copyfile(wrapper, space / wrapper.name))
        files = [schema] + sorted(
            p for include in includes for p in include.rglob("*.json") if p.is_file()
        )
        spaces[name] = (schema, includes, files)
    return spaces
