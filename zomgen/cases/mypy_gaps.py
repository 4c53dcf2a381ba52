"""Why mypy cannot type a place of a document, in mypy's own terms (walk.py's `Context.loose`).

documents.py spells a union with an option that reaches an object allowing other keys with
`MypyFallback`, which mypy reads as any dict (mypy has no PEP 728: open_dicts.py says why), and
the other members of a group with named ones as the other keys of its `<Node>Members` TypedDict.
A mistake at such a place is not compared for mypy (expect.py); the reason goes into cases.json
and the agreement report ("Not compared by mypy").
"""

from __future__ import annotations

from zomgen import ir
from zomgen.ir.queries import merge_literals
from zomgen.targets.python import open_dicts


class MypyGaps:
    """The places of one convention's documents that mypy cannot type, and why."""

    def __init__(self, hierarchy: ir.Hierarchy) -> None:
        self.reaching_open = open_dicts.reaching_open(hierarchy)

    def fallback(self, options: tuple[ir.TypeRef, ...]) -> bool:
        """Whether documents.py spells a union of these options with `MypyFallback`."""
        return open_dicts.needs_fallback(merge_literals(options), self.reaching_open)

    def below(self, options: tuple[ir.TypeRef, ...], union: str) -> str | None:
        """Why mypy cannot type a place below a union of these options (`union` says which):
        None when documents.py spells it without `MypyFallback`."""
        return below_fallback(union) if self.fallback(options) else None

    def of_member(
        self,
        node: str,
        spec: ir.Members,
        name: str,
        found: tuple[ir.TypeRef, str],
        other_types: tuple[ir.TypeRef, ...],
        target: ir.TypeRef,
    ) -> str | None:
        """Why mypy cannot type member `name` of group `node`, typed and found as `found`
        (`target`: its type with aliases followed), if it cannot: a member beside named ones
        is an unknown key of `<Node>Members` to it; the other members of a group without named
        ones are `members: dict[str, <their union>]`; and a member may be one of several nodes
        (a union, `LabelsMember`)."""
        if found[1] != "named" and spec.named:
            return beside_named(node)
        in_dict = union_at(f"`{node}.members`", alias=False)
        if found[1] != "named" and self.fallback(other_types):
            return below_fallback(in_dict)
        if not isinstance(target, ir.UnionOf):
            return None
        if isinstance(found[0], ir.Ref):
            union = union_at(f"`{found[0].name}`", alias=True)
        elif spec.named:
            union = union_at(f"`{open_dicts.members_name(node)}.{name}`", alias=False)
        else:
            union = in_dict
        return self.below(target.options, union)


def below_fallback(union: str) -> str:
    """Below a union of documents.py that holds `MypyFallback` (`union` says which)."""
    return (
        f"below {union}, which holds `MypyFallback` since an option reaches an object that "
        "allows other keys (mypy has no PEP 728): mypy reads the union as any dict"
    )


def beside_named(node: str) -> str:
    """A member beside the named members of group `node`."""
    return (
        "a member beside named ones: mypy reads it as an unknown key of "
        f"`{open_dicts.members_name(node)}`, whose other keys it cannot type (no PEP 728)"
    )


def union_at(where: str, alias: bool) -> str:
    """The union a place is below, as documents.py spells it: an alias, or in one."""
    if not where:
        return "a union"
    return f"the union {where}" if alias else f"the union in {where}"


def tuple_union(where: str) -> str:
    """The union of a tuple's items (documents.py types a tuple as a list of it)."""
    return f"the items' union of the tuple in {where}" if where else "the items' union of a tuple"
