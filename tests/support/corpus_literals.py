"""Valid corpus documents as TypedDict literals: the wrapper package that compiles a corpus
schema, and the `documents` annotation a literal of its attributes takes (corpus/test_compile.py
and corpus/test_soundness.py write such literals for the checkers)."""

from __future__ import annotations

import ast
import functools
import json
from pathlib import Path

from tests.support.corpus_verdicts import schema_by_uri
from tests.support.corpus_wrappers import ALL_WRAPPERS, corpus_refs
from tests.support.paths import CORPUS


@functools.cache
def package_for_schema(schema: Path) -> str | None:
    """The wrapper package that compiles `schema` as a whole (attributes or node)."""
    relative = schema.relative_to(CORPUS).as_posix()
    parts = relative.split("/")
    if parts[0] == "ome-ngff" and parts[2] == "schemas":
        family = "ome_" + parts[1].replace(".", "_")
        return f"{family}__{schema.stem}"
    for name, wrapper in ALL_WRAPPERS.items():
        if not name.startswith("conventions__"):
            continue
        for ref in corpus_refs(json.loads(wrapper.read_text("utf-8"))):
            if schema_by_uri(ref, wrapper) == schema:
                return name
    return None


def attributes_annotation(package: Path, array_member: bool) -> str | None:
    """The `documents` annotation of the root node's attributes (or of its array members')."""
    wrapper = ALL_WRAPPERS[package.name]
    title = json.loads(wrapper.read_text("utf-8"))["title"]
    tree = ast.parse((package / "documents.py").read_text("utf-8"))
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    names = set(classes) | {
        t.id
        for n in tree.body
        for t in (n.targets if isinstance(n, ast.Assign) else [getattr(n, "target", None)])
        if isinstance(t, ast.Name)
    }
    # and `MypyFallback`, which documents.py imports from zomgen_runtime and exports
    names |= {
        alias.asname or alias.name
        for n in tree.body
        if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("zomgen_runtime")
        for alias in n.names
    }

    def annotation(cls: ast.ClassDef, key: str) -> ast.expr | None:
        for item in cls.body:
            if isinstance(item, ast.AnnAssign) and getattr(item.target, "id", None) == key:
                return item.annotation
        return None

    root = classes.get(title)
    if root is None:
        return None
    cls = root
    if array_member and annotation(root, "members") is not None:
        members = annotation(root, "members")
        if not (isinstance(members, ast.Subscript) and isinstance(members.slice, ast.Tuple)):
            return None
        value = members.slice.elts[1]
        if not isinstance(value, ast.Name) or value.id not in classes:
            return None
        cls = classes[value.id]
    found = annotation(cls, "attributes")
    if found is None:
        return None
    if isinstance(found, ast.Constant) and isinstance(found.value, str):
        found = ast.parse(found.value, mode="eval").body

    class Qualify(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            if node.id in names:
                return ast.copy_location(ast.Attribute(ast.Name("documents"), node.id), node)
            return node

    return ast.unparse(Qualify().visit(found))
