"""Every option of every union, built: for each, a valid hierarchy in which that union takes that
option, parsed by the package, and the object found where the union's value is checked to be
an instance of that option's class; `dump` gives the hierarchy back unchanged.

The smallest valid hierarchy takes the first option of every union, so this is the only place
the later options are ever built. Each (union, option) is tried with the smallest hierarchy,
then with the optional keys the run time accepts added one at a time (enrich.py: a union
inside an optional key), then with lists of two items, the first as usual (a list whose first item must be another option); the run time repairs
what the IR cannot say (repair.py). The value built is the option the schema means only if its
own subschema holds for it and, for `anyOf`, no earlier option's does (the run time's engine
answers, on the bundled schema); otherwise the option is reported as not built, with why.

Longer than 400 lines because `_Judge` is one search: for each union option it chooses a
route, builds, repairs, spoils and judges a hierarchy, and these steps share the judge's state
(the package, its bundled schema, the routes found).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from zomgen_runtime.subschemas import holds

from zomgen import ir
from zomgen.cases import walk
from zomgen.cases.enrich import enriched
from zomgen.cases.mutate import get
from zomgen.cases.raw import escape, resolve
from zomgen.cases.refusals import Check
from zomgen.cases.repair import Renames, moved, repaired
from zomgen.cases.report import source_pointer
from zomgen.cases.spoil import spoiled
from zomgen.cases.synth import Synthesiser, Unsatisfiable, union_key
from zomgen.cases.verdict import accepts
from zomgen.targets.python.convert.view import Record
from zomgen.targets.python.lower import PythonLowering


@dataclass(frozen=True)
class OptionCase:
    """One option of one union: `document`, a valid hierarchy whose value at `path` is that
    option (None where none could be built, `reason` says why); `failure`, what the package
    did wrong with it (None: it built the option's class and dumped the document back)."""

    union: str  # where the union is: the named type holding it, and the key
    index: int
    option: str
    document: Any | None
    path: walk.Path = ()
    reason: str = ""
    failure: str | None = None
    pointer: str = ""  # the option's own subschema, as the convention's `file#/pointer`


def option_cases(
    hierarchy: ir.Hierarchy, module: ModuleType, bundled: Any, check: Check
) -> list[OptionCase]:
    """A case for every option of every union of `hierarchy` (located: its options'
    subschemas are pointers into `bundled`), built and checked with the package `module`."""
    target = PythonLowering(hierarchy)
    target.package()
    judge = _Judge(hierarchy, module, bundled, check, target.records, target.sp.base_name)
    examples = judge.from_examples()
    return [
        dataclasses.replace(
            examples.get((union_key(union), i)) or judge.case(where, union, i),
            pointer=_option_pointer(union, i),
        )
        for where, union in judge.unions
        for i in range(len(union.options))
    ]


def _option_pointer(union: ir.UnionOf, index: int) -> str:
    """Where the option's own subschema is (the outermost branch: the convention's own words
    before a base schema's), or "" for an option of an `enum` or a `type` list."""
    branches = union.option_schemas[index] if index < len(union.option_schemas) else ()
    return source_pointer(branches[0]) if branches else ""


def unions(hierarchy: ir.Hierarchy) -> list[tuple[str, ir.UnionOf]]:
    """Each distinct union of the hierarchy, with the first place it stands."""
    found: dict[str, tuple[str, ir.UnionOf]] = {}
    for named in hierarchy.types:
        for where, t in _expressions(named):
            for union in _unions_in(t):
                found.setdefault(union_key(union), (where, union))
    return list(found.values())


def _expressions(named: ir.NamedType) -> Iterator[tuple[str, ir.TypeRef]]:
    if isinstance(named, ir.AliasType):
        yield named.name, named.target
    elif isinstance(named, ir.ObjectType):
        yield from ((f"{named.name}.{f.key}", f.type) for f in named.fields)
        if named.extra is not None:
            yield f"{named.name}{_OTHER_KEYS}", named.extra
    else:
        yield f"{named.name}.attributes", named.attributes
        yield from ((f"{named.name}.{f.key}", f.type) for f in named.metadata)
        if named.members is not None:
            members = named.members
            yield from ((f"{named.name}/{f.key}", f.type) for f in members.named)
            yield from ((f"{named.name}/{p}", t) for p, t in members.patterns)
            if members.other is not None:
                yield f"{named.name} (other members)", members.other


def _parts(h: ir.Hierarchy, t: ir.TypeRef, built: bool) -> list[ir.TypeRef]:
    """The types one level inside `t`, through a named type's fields and members too (`built`:
    only required keys and the members the synthesiser always builds)."""
    if isinstance(t, ir.UnionOf):
        return list(t.options)
    if isinstance(t, ir.ListOf):
        return [t.item]
    if isinstance(t, ir.MapOf):
        return [t.value]
    if isinstance(t, ir.TupleOf):
        return [*t.items, *([t.rest] if t.rest is not None else [])]
    if not isinstance(t, ir.Ref):
        return []
    named = h.type_named(t.name)
    if isinstance(named, ir.AliasType):
        return [named.target]
    if isinstance(named, ir.ObjectType):
        return [f.type for f in named.fields if f.required or not built]
    parts = [named.attributes, *(f.type for f in named.metadata if f.required or not built)]
    if named.members is not None:
        members = named.members
        parts += [f.type for f in members.named]
        parts += [m for _p, m in members.patterns]
        parts += [members.other] if members.other is not None else []
    return parts


def _unions_in(t: ir.TypeRef) -> Iterator[ir.UnionOf]:
    if isinstance(t, ir.UnionOf):
        yield t
        for option in t.options:
            yield from _unions_in(option)
    elif isinstance(t, ir.ListOf):
        yield from _unions_in(t.item)
    elif isinstance(t, ir.MapOf):
        yield from _unions_in(t.value)
    elif isinstance(t, ir.TupleOf):
        for part in (*t.items, *([t.rest] if t.rest is not None else [])):
            yield from _unions_in(part)


REFUSED_KEY = "built for an optional key the run time refused"
_REPAIRED_INTO_ANOTHER = (
    "the value built for it does not satisfy its subschema (repaired into another)"
)
_OTHER_KEYS = " (other keys)"  # as `_expressions` names an object's `extra`
_DEEPEST = 64  # types down, past which a union is taken as not held
Chosen = list[tuple[walk.Path, ir.UnionOf, int]]  # where the synthesiser took which option


def _values_at(
    document: Any, chosen: Chosen, union: ir.UnionOf, index: int
) -> Iterator[tuple[walk.Path, Any]]:
    """Where `document` holds values built as option `index` of `union`, and those values."""
    for path, built_union, built_index in chosen:
        if built_union == union and built_index == index:
            try:
                yield path, get(document, path)
            except (KeyError, IndexError, TypeError):
                continue  # not (or no longer) in this document


# How each option is tried, until one builds it: (every optional key, lists of two items).
_TRIES = ((False, False), (True, False), (False, True), (True, True))


class _Judge:
    def __init__(
        self,
        hierarchy: ir.Hierarchy,
        module: ModuleType,
        bundled: Any,
        check: Check,
        records: dict[str, Record],
        base_name: Callable[[ir.NodeKind, int], str],
    ) -> None:
        self.h = hierarchy
        self.module = module
        self.bundled = bundled
        self.check = check
        self.records = records
        self.base_name = base_name
        self.unions = unions(hierarchy)
        self._reach: dict[tuple[str, bool], frozenset[str]] = {}

    def case(self, where: str, union: ir.UnionOf, index: int) -> OptionCase:
        option = union.options[index]
        made = OptionCase(where, index, self._label(option), None)
        reasons: list[str] = []
        refused: list[str] = []  # the run time's refusals where the option was first built
        choose = {union_key(union): index}
        prefer = self._routes(union)
        own_schemas = union.option_schemas[index] if index < len(union.option_schemas) else ()
        # the option built, and the option each union on the way to it took
        taken = [(union, index)] + [
            (u, prefer[union_key(u)]) for _w, u in self.unions if union_key(u) in prefer
        ]
        for optional, pairs in _TRIES:
            synthesiser = Synthesiser(self.h, choose=choose, prefer=prefer, pairs=pairs)
            renames: Renames = []
            try:
                smallest = synthesiser.root()
                own = [
                    (_document_pointer(p), own_schemas)
                    for p, u, i in synthesiser.chosen
                    if u == union and i == index
                ]
                reasons += self._exclusive(union, index, smallest, own)
                refused += [
                    f"the run time refuses the value built for it ({r.keyword}: {r.message})"
                    for r in self.check(smallest)
                    if any(r.pointer == where for where, _ in own)
                ]
                document = repaired(smallest, self.bundled, self.check, renames, own)
            except Unsatisfiable as exc:
                at = f" ({exc.pointer})" if exc.pointer else ""
                reasons.append(f"no valid hierarchy with it: {exc.message}{at}")
                continue
            smallest, target = document, union_key(union)
            # where the options were built, in the repaired hierarchy (enriched() adds its own
            # after these, at the places it finds them)
            synthesiser.chosen[:] = [(moved(p, renames), u, i) for p, u, i in synthesiser.chosen]

            def first(f: ir.Field, target: str = target) -> bool:
                return target in self._reached(f.type) or repr(f.type) == target

            left_out: list[str] = []  # why keys that would hold the option were left out

            def kept(
                document: Any, chosen: Chosen = synthesiser.chosen, left_out: list[str] = left_out
            ) -> Any | None:
                # an optional key that makes the option built read as another (a 0.6
                # projectAxis with `createdOutputs` given `droppedInputs` too), or an option on
                # the way to it (an `anyOf` whose earlier option the key satisfies: cm_proj_r3's
                # `proj:wkt2` beside the `proj:projjson` that holds the CRS), is left out,
                # unless a change makes the earlier option fail (spoil.py: a PROJJSON CRS in an
                # optional key, given a `scope` that is not a string)
                for u, i in taken:
                    for path, value in list(_values_at(document, chosen, u, i)):
                        why = self._not_this_option(u, i, value)
                        if why is not None:
                            document = self._spoiled(document, [(path, u, i)])
                            if document is None:
                                left_out.append(why)
                                return None
                return document

            # With optional keys: first as the synthesiser builds them, then repaired where
            # the run time refuses them (a 0.6 transformation between coordinate systems);
            # a repair may change other values, so it is tried only where the first fails.
            for repair in (None, self._repaired) if optional else (None,):
                if optional:
                    document = enriched(
                        smallest, self.h, self._accepts, synthesiser, first, repair, kept
                    )
                built = synthesiser.chosen
                for path in dict.fromkeys(p for p, u, i in built if u == union and i == index):
                    # the union, and every union around it, took the option built
                    around = [(p, u, i) for p, u, i in built if path[: len(p)] == p]
                    why = self._not_built_as(document, around)
                    if why is not None and (spoilt := self._spoiled(document, around)):
                        document, why = spoilt, None
                    if why == REFUSED_KEY and left_out:
                        why = f"an optional key holding it was left out: {left_out[0]}"
                    if why is None:
                        found = dataclasses.replace(made, document=document, path=path)
                        return self._checked(found, option)
                    reasons.append(why)
        if where.endswith(_OTHER_KEYS):
            reasons.append(
                "no value is built for an object's other keys (those its `properties` do not "
                "list), where this union stands"
            )
        reasons.append("no valid hierarchy built holds the union")
        if reasons[0] == _REPAIRED_INTO_ANOTHER and refused:
            return dataclasses.replace(made, reason=f"{refused[0]}; repaired, it is another option")
        return dataclasses.replace(made, reason=reasons[0])

    def from_examples(self) -> dict[tuple[str, int], OptionCase]:
        """The options the schema's own `examples` (valid ones) take, where they hold unions."""
        examples = self.bundled.get("examples") if isinstance(self.bundled, dict) else None
        found: dict[tuple[str, int], OptionCase] = {}
        for document in examples if isinstance(examples, list) else []:
            if self.check(document):
                continue
            for place in walk.places(document, self.h):
                for path, union in place.ctx.unions:
                    value = get(document, path)
                    for index in range(len(union.options)):
                        if self._not_this_option(union, index, value) is None:
                            key = (union_key(union), index)
                            where = next(w for w, u in self.unions if union_key(u) == key[0])
                            label = self._label(union.options[index])
                            case = OptionCase(where, index, label, document, path)
                            if key not in found:
                                found[key] = self._checked(case, union.options[index])
                            break
        return found

    def _checked(self, case: OptionCase, option: ir.TypeRef) -> OptionCase:
        return dataclasses.replace(case, failure=self._failure(case, option))

    def _routes(self, union: ir.UnionOf) -> dict[str, int]:
        """For every other union, the first option through which `union` can be reached (the
        union `Crs` is inside an option of `ProjjsonSchema` that is not its first)."""
        target = union_key(union)
        routes: dict[str, int] = {}
        for _where, other in self.unions:
            key = union_key(other)
            if key == target:
                continue
            # an option that holds the union in a key the smallest value has, else any; of
            # those, the one that holds it nearest (geo-proj's CRS with a `conversion`, whose
            # optional `parameters` hold `ParameterValue.value`, before a compound CRS whose
            # components would hold that CRS in turn)
            for built in (True, False):
                reaching = [
                    (self._depth(o, target, built), i)
                    for i, o in enumerate(other.options)
                    if target in self._reached(o, built)
                ]
                # below one of the option's own required keys, where there is one: geo-proj's
                # `proj:projjson` option holds `Id.code` in a CRS's optional `id`, the
                # `proj:code` option only in an optional `proj:projjson` that its one-of-three
                # refuses beside `proj:code`
                below = [
                    (d, i) for d, i in reaching if self._below_required(other.options[i], target)
                ]
                if reaching:
                    routes[key] = min(below or reaching)[1]
                    break
        return routes

    def _below_required(self, t: ir.TypeRef, target: str) -> bool:
        """Whether the union `target` is held below one of `t`'s own required keys."""
        while isinstance(t, ir.Ref) and isinstance(
            named := self.h.type_named(t.name), ir.AliasType
        ):
            t = named.target
        return any(
            self._depth(inner, target, False) < _DEEPEST for inner in _parts(self.h, t, True)
        )

    def _depth(self, t: ir.TypeRef, target: str, built: bool) -> int:
        """How many types down from `t` the union `target` is first held (a large number where
        it is not)."""
        level, seen = [t], {repr(t)}
        for depth in range(_DEEPEST):
            if any(isinstance(x, ir.UnionOf) and union_key(x) == target for x in level):
                return depth
            below = [inner for x in level for inner in _parts(self.h, x, built)]
            level = [x for x in below if repr(x) not in seen]
            seen.update(repr(x) for x in level)
        return _DEEPEST

    def _reached(self, t: ir.TypeRef, built: bool = False) -> frozenset[str]:
        """The unions a value of `t` may hold at any depth (`built`: in the keys and members
        the synthesiser builds without being asked: required keys, named members, one member
        per pattern and one other member)."""
        key = (repr(t), built)
        if key not in self._reach:
            self._reach[key] = frozenset()  # while inside itself
            found: set[str] = set()
            for inner in _parts(self.h, t, built):
                if isinstance(inner, ir.UnionOf):
                    found.add(union_key(inner))
                found |= self._reached(inner, built)
            self._reach[key] = frozenset(found)
        return self._reach[key]

    def _accepts(self, document: Any) -> bool:
        return accepts(self.module, document)

    def _repaired(self, document: Any) -> Any | None:
        """`document` made valid by repairs, or None."""
        try:
            return repaired(document, self.bundled, self.check)
        except Unsatisfiable:
            return None

    def _not_built_as(
        self, document: Any, decisions: list[tuple[walk.Path, ir.UnionOf, int]]
    ) -> str | None:
        """Why the values at these places are not the options built there (None: they are)."""
        for path, union, index in decisions:
            try:
                value = get(document, path)
            except (KeyError, IndexError, TypeError):
                return REFUSED_KEY
            why = self._not_this_option(union, index, value)
            if why is not None:
                return why if union == decisions[-1][1] else f"a union around it: {why}"
        return None

    def _spoiled(self, document: Any, around: Chosen) -> Any | None:
        """`document` changed (spoil.py) so that each union around the option built, and the
        union itself, takes the option built where an earlier option of an `anyOf` held too;
        None where that is not done."""
        for path, union, index in around:
            try:
                value = get(document, path)
            except (KeyError, IndexError, TypeError):
                return None
            if self._holds(union, index, value) and union.option_schemas:
                changed = spoiled(
                    document, path, union.option_schemas, index, self.bundled, self._valid
                )
                if changed is None:
                    return None
                document = changed
        return document if self._not_built_as(document, around) is None else None

    def _valid(self, document: Any) -> bool:
        return not self.check(document)

    def _not_this_option(self, union: ir.UnionOf, index: int, value: Any) -> str | None:
        """Why the value built is not the option's (None: it is)."""
        if not self._holds(union, index, value):
            return _REPAIRED_INTO_ANOTHER
        for earlier in range(index):
            if self._holds(union, earlier, value):
                label = self._label(union.options[earlier])
                return f"option {earlier + 1} ({label}) holds for every value built for it"
        return None

    def _exclusive(
        self, union: ir.UnionOf, index: int, document: Any, own: list[tuple[str, Any]]
    ) -> list[str]:
        """Why a `oneOf` refuses the value built for its option, where another option holds
        it too (pr347's sharding codec is also an extension codec); else nothing."""
        schemas = own[0][1] if own else ()
        if not schemas or schemas[0].rpartition("/")[0].rpartition("/")[2] != "oneOf":
            return []
        for where, _ in own:
            value = resolve(document, where)
            if not self._holds(union, index, value):
                continue
            for other in range(len(union.options)):
                if other != index and self._holds(union, other, value):
                    label = self._label(union.options[other])
                    why = f"option {other + 1} ({label}) holds the value built for it too, "
                    return [why + "and the `oneOf` refuses a value two options hold"]
        return []

    def _holds(self, union: ir.UnionOf, index: int, value: Any) -> bool:
        schemas = union.option_schemas[index] if union.option_schemas else ()
        if schemas:
            return holds(value, self.bundled, *schemas)
        return walk.admits(value, union.options[index], self.h)

    def _failure(self, case: OptionCase, option: ir.TypeRef) -> str | None:
        try:
            model = self.module.parse(case.document)
        except (LookupError, AttributeError, TypeError, ValueError, self.module.ZomError) as exc:
            return f"parse raised {type(exc).__name__}: {exc}"  # the finding
        built = _model_at(model, case.path, self.records)
        if _kept_as_json(model, case.path, self.records):
            # a base array key the model keeps as the JSON it read (the option's record would
            # not be a subtype of the base field's type: python/lower.py), as its type says
            if built != get(case.document, case.path):
                return f"parse changed the JSON value at {_pointer(case.path)}"
        elif not self._is_option(built, option):
            return f"parse built {type(built).__name__} at {_pointer(case.path)}, not {case.option}"
        if self.module.dump(model) != case.document:
            return "dump(parse(document)) differs from the document"
        return None

    def _is_option(self, built: Any, option: ir.TypeRef) -> bool:
        if isinstance(option, ir.BaseNode):
            return type(built).__name__ == self.base_name(option.kind, option.zarr_format)
        if isinstance(option, ir.Ref):
            named = self.h.type_named(option.name)
            if isinstance(named, ir.AliasType):
                return self._is_option(built, named.target)
            return type(built).__name__ == option.name
        if isinstance(option, ir.UnionOf):
            return any(self._is_option(built, o) for o in option.options)
        if isinstance(option, (ir.ListOf, ir.TupleOf)):
            return isinstance(built, tuple)
        if isinstance(option, (ir.MapOf, ir.JsonObject)):
            return isinstance(built, Mapping)
        return not dataclasses.is_dataclass(built)  # a JSON value is its own model

    def _label(self, option: ir.TypeRef) -> str:
        if isinstance(option, ir.Ref):
            return option.name
        if isinstance(option, ir.BaseNode):
            return self.base_name(option.kind, option.zarr_format)
        if isinstance(option, ir.Primitive):
            return option.name
        if isinstance(option, ir.Literal):
            return " | ".join(repr(v) for v in option.values)
        return option.form


def _model_at(model: Any, path: walk.Path, records: dict[str, Record]) -> Any:
    """The part of a parsed model that stands for the document's value at `path`."""
    for step in path:
        if isinstance(model, tuple) and isinstance(step, int):
            model = model[step]  # pyright: ignore[reportUnknownVariableType]
            continue
        if isinstance(model, Mapping):
            model = model[step]  # pyright: ignore[reportUnknownVariableType]
            continue
        record = records[type(model).__name__]
        slot = next((s for s in record.slots if s.key == step), None)
        if slot is not None:
            model = getattr(model, slot.attr)
        else:  # another key: an open object's `extras`, a v3 node's `extensions`
            model = getattr(model, record.extras[0] if record.extras else "extensions")[step]
    return model


def _kept_as_json(model: Any, path: walk.Path, records: dict[str, Record]) -> bool:
    """Whether the value at `path` is inside a field the model keeps as plain JSON (a base
    array's `compressor` that the convention narrows to a record of its own)."""
    for step in path:
        if not dataclasses.is_dataclass(model):  # a tuple, a mapping or a JSON value
            try:
                model = model[step]  # pyright: ignore[reportUnknownVariableType]
            except (KeyError, IndexError, TypeError):
                return False
            continue
        record = records.get(type(model).__name__)
        slot = None if record is None else next((s for s in record.slots if s.key == step), None)
        if slot is None:
            return False
        if isinstance(slot.type, ir.Json) or (
            isinstance(slot.type, ir.ListOf) and isinstance(slot.type.item, ir.Json)
        ):
            return True
        model = getattr(model, slot.attr)
    return False


def _pointer(path: walk.Path) -> str:
    return "".join(f"/{step}" for step in path) or "/"


def _document_pointer(path: walk.Path) -> str:
    """The JSON pointer of `path` as the run time writes it (the root is "")."""
    return "".join(f"/{escape(step)}" for step in path)


def coverage(cases: list[OptionCase]) -> dict[str, Any]:
    """The report's summary: options built of options in the schema, each one not built with
    where and why, each failure."""
    return {
        "options": len(cases),
        "built": sum(1 for c in cases if c.document is not None),
        "not_built": [
            {
                "union": c.union,
                "option": c.index + 1,
                "type": c.option,
                "pointer": c.pointer,
                "reason": c.reason,
            }
            for c in cases
            if c.document is None
        ],
        "failures": [
            {"union": c.union, "option": c.index + 1, "type": c.option, "failure": c.failure}
            for c in cases
            if c.failure is not None
        ],
    }
