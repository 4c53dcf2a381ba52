"""An example target (docs/architecture.md, "Where to add"): a Markdown list of a convention's
types, `types.md`, written beside the package's other files. tests/targets/test_targets.py
builds a package with it.

A target is any class with `files(build) -> {path: text}` and `readme(build) -> ReadmePart` (its
rows in the package README's table, and any sections of its own) (zomgen/targets/target.py). It
reads the frozen `Build` only: here the IR's named types and their descriptions.
"""

from __future__ import annotations

from zomgen import ir
from zomgen.targets.target import Build, ReadmePart


class TypeListTarget:
    def files(self, build: Build) -> dict[str, str]:
        lines = [f"# The types of {build.hierarchy.root}", ""]
        for named in build.hierarchy.types:
            kind = _KINDS[type(named)]
            about = f": {named.description}" if named.description else ""
            lines.append(f"- `{named.name}` ({kind}){about}")
        return {"types.md": "\n".join(lines) + "\n"}

    def readme(self, build: Build) -> ReadmePart:
        return ReadmePart(files=(("types.md", "every named type, with its description"),))


_KINDS = {ir.NodeType: "node", ir.ObjectType: "object", ir.AliasType: "alias"}
