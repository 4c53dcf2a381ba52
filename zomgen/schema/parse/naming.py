"""The names of the IR's types (input-language §6): a named schema's title, `$defs` key or file
stem, claimed once; a schema of another file that meets a taken name is renamed
deterministically; anonymous types are named from their parent."""

from __future__ import annotations

import re
from pathlib import Path

from zomgen import ir
from zomgen.errors import CompileError
from zomgen.names import pascal_case
from zomgen.schema.atoms import Atom, Conj, Expander, Impossible
from zomgen.schema.documents import SchemaSet
from zomgen.schema.parse.bases import BaseSchemas
from zomgen.schema.parse.keywords import single_value

_DEF_POINTER = re.compile(r"/(?:\$defs|definitions)/([^/]+)$")


class Naming:
    def __init__(
        self,
        schema_set: SchemaSet,
        x: Expander,
        bases: BaseSchemas,
        types: dict[str, ir.NamedType | None],
    ) -> None:
        self.schema_set = schema_set
        self.x = x
        self.bases = bases
        self.types = types  # the builder's: a name it holds is taken
        self.declared: dict[str, str] = {}  # claimed name -> where it is declared
        self.name_of: dict[str, str] = {}  # where a named schema is declared -> its name
        self._def_keys: dict[int, frozenset[int] | None] = {}

    def document_name(self, contents: object, stem: str) -> str:
        title = contents.get("title") if isinstance(contents, dict) else None
        return pascal_case(title if isinstance(title, str) and title.strip() else stem)

    def claim_declared_names(self, contents: object) -> None:
        if not isinstance(contents, dict):
            return
        for section in ("$defs", "definitions"):
            defs = contents.get(section)
            if isinstance(defs, dict):
                for key, schema in defs.items():
                    self.claim(pascal_case(key), self.pointer_text(schema))

    def claim(self, name: str, where: str) -> str:
        """The name of the schema declared at `where`, claiming `name` for it if free.

        Two schemas of the input file that would share a name are an error the user can fix.
        A schema from another file (an upstream schema the user cannot rename) that meets a
        taken name is renamed deterministically: its file's stem (or, when the name already is
        the stem, its folder's name) goes in front, then `2`, `3`... (docs/input-language.md).
        """
        known = self.name_of.get(where)
        if known is not None:
            return known
        previous = self.declared.get(name)
        if previous is None and name not in self.types:
            self.declared[name] = where
            self.name_of[where] = name
            return name
        if where.startswith("#") and (previous is None or previous.startswith("#")):
            raise CompileError.one(
                str(self.schema_set.root.path),
                where.partition("#")[2],
                f"two types would be named {name!r}: {previous or 'an inline type'} and {where}; "
                "rename one of them",
            )
        path = Path(where.partition("#")[0])
        prefix = pascal_case(path.stem)
        if name.startswith(prefix):
            prefix = pascal_case(path.parent.name or "Other")
        candidate = prefix + name
        n = 2
        while candidate in self.declared or candidate in self.types:
            candidate = f"{prefix}{name}{n}"
            n += 1
        self.declared[candidate] = where
        self.name_of[where] = candidate
        return candidate

    def pointer_text(self, schema: object) -> str:
        return self.schema_set.pointer_text(schema)

    def def_name(
        self, conj: Conj, key: frozenset[int]
    ) -> tuple[str, object, frozenset[int]] | None:
        """The named schema this conjunction is exactly, if any (outermost first)."""
        for atom in conj.atoms:
            found = self.schema_set.locate(atom.schema)
            if found is None or (
                id(atom.schema) in self.bases.atoms and id(atom.schema) not in self.bases.recursive
            ):
                continue  # base schemas name GroupSpec, ArraySpec, NamedConfig, recursive defs
            doc, pointer = found
            if pointer == "":
                name = self.document_name(doc.contents, doc.path.stem)
            else:
                match = _DEF_POINTER.search(pointer)
                if match is None:
                    continue
                name = pascal_case(match.group(1).replace("~1", "/").replace("~0", "~"))
            own = self.key_of_schema(atom)
            # Constraints the base schemas add (`attributes` is an object...) hold everywhere,
            # so they do not make a named type a different one.
            if own is not None and (
                self.bases.without_base(own) == self.bases.without_base(key) != frozenset()
                or (id(atom.schema) in self.bases.recursive and own == key)
            ):
                return name, atom.schema, own
        return None

    def key_of_schema(self, atom: Atom) -> frozenset[int] | None:
        cached = self._def_keys.get(id(atom.schema), ...)
        if cached is not ...:
            return cached
        try:
            key: frozenset[int] | None = Conj(self.x.expand(atom.schema, atom.resolver)).key()
        except Impossible:
            key = None
        self._def_keys[id(atom.schema)] = key
        return key

    def item_name(self, hint: str) -> str:
        """The name of the items of a list named `hint`: the singular of its last word where
        English makes one plainly and the name is free (`Axes` -> `Axis`, `OmeroChannels` ->
        `OmeroChannel`), else `<hint>Item`."""
        match = _LAST_WORD.search(hint)
        one = _singular(match.group(0)) if match else None
        if match is None or one is None:
            return hint + "Item"
        name = hint[: match.start()] + one
        if name in self.types or name in self.declared:
            return hint + "Item"
        return name

    def fresh_name(self, hint: str) -> str:
        name = hint
        n = 2
        while name in self.types or name in self.declared:
            name = f"{hint}{n}"
            n += 1
        return name


# The last word of a PascalCase name: a capital and the small letters after it.
_LAST_WORD = re.compile(r"[A-Z][a-z]+$")
# Words that end in `s` and are not plurals, or whose singular no plain rule gives.
_NOT_PLURALS = frozenset({"series", "species", "news", "canvas", "alias", "bias", "lens"})


def _singular(word: str) -> str | None:
    """The singular of a plural English word where a plain rule gives it: `Axes` -> `Axis`,
    `Properties` -> `Property`, `Boxes` -> `Box`, `Classes` -> `Class`, `Datasets` ->
    `Dataset`. None for a word that is not such a plural or whose rule is ambiguous (`Cases`,
    `Matches`, `Sizes`, `Heroes`)."""
    low = word.lower()
    if len(low) <= 3 or low in _NOT_PLURALS or not low.endswith("s"):
        return None
    if low == "axes":
        return word[:-2] + "is"
    if low.endswith("ies") and len(low) > 4:
        return word[:-3] + "y"
    if low.endswith(("sses", "xes")):
        return word[:-2]
    if low.endswith(("ss", "us", "is", "ches", "shes", "ses", "zes", "oes")):
        return None
    return word[:-1]


def branch_hint(branch: object, hint: str, index: int) -> str:
    if isinstance(branch, dict):
        title = branch.get("title")
        if isinstance(title, str) and title.strip():
            return pascal_case(title)
        props = branch.get("properties")
        if isinstance(props, dict):
            for sub in props.values():
                tag = single_value(sub)
                if isinstance(tag, str) and tag.strip():
                    return hint + pascal_case(tag)
    return f"{hint}Option{index + 1}"
