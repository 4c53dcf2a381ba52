"""What the parser did safely but not exactly, said where it stands: a type left open (any
JSON value) where keywords of one JSON type stand without `type`, and a group member that
admits no value."""

from __future__ import annotations

from zomgen_runtime.pointers import escape as escape_pointer

from zomgen.errors import Warnings
from zomgen.schema.atoms import Conj, Expander, Impossible
from zomgen.schema.parse.bases import BaseSchemas
from zomgen.schema.parse.keywords import TYPED_KEYWORDS


class TypeWarnings:
    def __init__(self, x: Expander, bases: BaseSchemas) -> None:
        self.found = Warnings()
        self.x = x
        self.bases = bases
        self.warned: set[int] = set()  # schema objects already warned about

    def open_type(self, conj: Conj) -> None:
        """Warn, once per schema object, where keywords of one JSON type stand without `type`:
        the static type stays open (any JSON value), which is exact but rarely what is meant."""
        for atom in conj.atoms:
            if id(atom.schema) in self.bases.atoms or id(atom.schema) in self.warned:
                continue
            if atom.draft == "draft-07" and "$ref" in atom.schema:
                continue
            for kind, keywords in TYPED_KEYWORDS:
                used = [k for k in keywords if k in atom.schema]
                if used:
                    self.warned.add(id(atom.schema))
                    file, pointer = self.x.where(atom.schema)
                    self.found.add(
                        file,
                        pointer,
                        f"`{used[0]}` applies to {kind}s only and no `type` is given, so any "
                        f'JSON value is valid here and is typed so: add `"type": "{kind}"` '
                        f"if only {kind}s are meant",
                    )
                    break

    def never(self, conj: Conj, key: str | None, exc: Impossible) -> None:
        """A member whose schemas contradict each other is typed as never present, and said so
        where it stands (`members/properties/<key>`, or `members/additionalProperties`)."""
        if not exc.clauses and not any(at for at, _why in exc.causes):
            return  # `false` or `enum: []`: written to forbid the member
        for atom in conj.atoms:
            if id(atom.schema) in self.bases.atoms:
                continue
            props = atom.get("properties")
            if key is not None and isinstance(props, dict) and key in props:
                pointer = f"/properties/{escape_pointer(key)}"
            elif key is None and "additionalProperties" in atom.schema:
                pointer = "/additionalProperties"
            else:
                continue
            file, where = self.x.where(atom.schema)
            what = f"member {key!r}" if key is not None else "every member not listed"
            why = "; ".join(f"{at or '/'}: {reason}" for at, reason in exc.causes) or exc.reason
            self.found.add(
                file,
                where + pointer,
                f"{what} admits no value, so it is typed as never present (a group holding it "
                f"is invalid): {why}",
            )
            return
