"""The Zarr base schemas (urn:zom:v2, urn:zom:v3) as the parser meets them: which schema
objects are the base group and array, `NamedConfig`, and the base's own recursive definitions.
A convention's type that is exactly one of them is that base type, never a new one."""

from __future__ import annotations

from zomgen import ir
from zomgen.schema.documents import SchemaSet

BASE_URIS = {"urn:zom:v2": 2, "urn:zom:v3": 3}


class BaseSchemas:
    def __init__(self, schema_set: SchemaSet) -> None:
        self.nodes: dict[int, tuple[ir.NodeKind, int]] = {}  # id(GroupSpec/ArraySpec) -> kind
        self.names: dict[int, str] = {}  # id(a base definition named as it is) -> its name
        self.atoms: set[int] = set()  # id() of every object inside a base schema
        # Base definitions that refer to themselves (v2's DType and StructuredDType): named
        # like a convention's own when a convention refines them, else they would be inlined
        # without end.
        self.recursive: set[int] = set()
        for doc in schema_set.documents:
            version = BASE_URIS.get(doc.uri)
            if version is None or not isinstance(doc.contents, dict):
                continue
            defs = doc.contents.get("$defs", {})
            if isinstance(defs, dict):
                for name, kind in (("GroupSpec", "group"), ("ArraySpec", "array")):
                    if isinstance(defs.get(name), dict):
                        self.nodes[id(defs[name])] = (kind, version)  # type: ignore[assignment]
                if isinstance(defs.get("NamedConfig"), dict):
                    self.names[id(defs["NamedConfig"])] = "NamedConfig"
                # the node kinds' own recursion (a group's members are nodes) is AnyNode's
                values = {n: v for n, v in defs.items() if n not in ("GroupSpec", "ArraySpec")}
                self.recursive.update(id(defs[n]) for n in recursive_defs(values))
            self._mark(doc.contents)

    def _mark(self, node: object) -> None:
        if isinstance(node, dict):
            self.atoms.add(id(node))
            for value in node.values():
                self._mark(value)
        elif isinstance(node, list):
            for value in node:
                self._mark(value)

    def without_base(self, key: frozenset[int]) -> frozenset[int]:
        return frozenset(k for k in key if k not in self.atoms)


def recursive_defs(defs: dict[str, object]) -> set[str]:
    """The entries of a `$defs` that reach themselves through local `#/$defs/...` references."""
    refers: dict[str, set[str]] = {}
    for name, schema in defs.items():
        found: set[str] = set()
        stack: list[object] = [schema]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str) and ref.startswith("#/$defs/"):
                    found.add(ref.removeprefix("#/$defs/"))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
        refers[name] = found & defs.keys()
    recursive: set[str] = set()
    for start, direct in refers.items():
        seen: set[str] = set()
        frontier = list(direct)
        while frontier:
            name = frontier.pop()
            if name == start:
                recursive.add(start)
                break
            if name not in seen:
                seen.add(name)
                frontier.extend(refers.get(name, ()))
    return recursive
