"""IR -> view models for the Python files of a package (input-language §6-7).

Every decision about identifiers, field order, defaults, docstrings and imports is made here;
the templates only loop and print.
"""

from __future__ import annotations

import json

from zomgen import ir
from zomgen.ir.queries import names_a_type
from zomgen.ir.zarr import ALL_NODE_KEYS
from zomgen.names import FIELD_RESERVED_NAMES, field_identifier
from zomgen.targets.python import open_dicts
from zomgen.targets.python.bases import ArrayField, BaseArrays, base_fields
from zomgen.targets.python.convert.build import convert_module
from zomgen.targets.python.convert.view import NamedMembers, Record, Slot, SlotType
from zomgen.targets.python.spelling import Spelling, union
from zomgen.targets.python.view import (
    PyAlias,
    PyField,
    PyModel,
    PyPackage,
    PyTypedDict,
    comment,
    docstring,
)

BASE_CONSTS = {"zarr_format", "node_type"}
# What the base node classes hold besides the metadata keys (models.py.j2).
_BASE_ATTRIBUTES = ALL_NODE_KEYS | {"extensions"}


class PythonLowering:
    """The IR lowered to the Python view model the templates print (`package()`)."""

    def __init__(self, hierarchy: ir.Hierarchy) -> None:
        self.h = hierarchy
        self.sp = Spelling(hierarchy)
        self.records: dict[str, Record] = {}  # what _convert.py converts, by class name
        self.member_documents: list[PyTypedDict] = []
        self.arrays = BaseArrays(hierarchy)

    def package(self) -> PyPackage:
        models: list[PyModel] = []
        members: list[PyTypedDict] = []
        documents: list[PyTypedDict] = []
        aliases: list[PyAlias] = []
        self._base_records()
        for named in self.h.types:
            if isinstance(named, ir.AliasType):
                aliases.append(
                    PyAlias(
                        named.name,
                        self.sp.model(named.target),
                        self.sp.document(named.target),
                        comment(named.description),
                        not names_a_type(named.target),
                    )
                )
            elif isinstance(named, ir.ObjectType):
                model, document = self._object(named)
                models.append(model)
                documents.append(document)
            else:
                model, document, member_dict = self._node(named)
                models.append(model)
                documents.append(document)
                if member_dict is not None:
                    members.append(member_dict)
        versions = list(self.h.zarr_formats)
        base_names = {
            f"{kind}{v}": self.sp.base_name(kind, v)
            for v in versions
            for kind in ("group", "array")
        } | {f"any{v}": self.sp.any_node(v) for v in versions}
        exports = sorted({t.name for t in self.h.types})
        base_arrays = {version: self.arrays.declared(self.sp, version) for version in versions}
        return PyPackage(
            source=self.h.source,
            root=self.h.root,
            versions=versions,
            base_names=base_names,
            models=models,
            model_members=members,
            documents=self.member_documents + documents,
            aliases=aliases,
            exports=exports,
            convert=convert_module(self.h, self.sp, self.records),
            runtime_checks=[(c.pointer, c.keyword) for c in self.h.runtime_checks],
            description=self.h.description,
            base_arrays=base_arrays,
            mypy_fallback=self.sp.uses_fallback,
        )

    def _base_records(self) -> None:
        """What _convert.py converts of the base classes the templates define (NamedConfig,
        the generic GroupSpec/ArraySpec of each version), for unrefined nodes and extensions."""
        if 3 in self.h.zarr_formats:
            self.records["NamedConfig"] = Record(
                "NamedConfig",
                (
                    Slot("name", "name", ir.Primitive("string"), True),
                    Slot("configuration", "configuration", ir.Json(), False, "None"),
                    Slot(
                        "must_understand", "must_understand", ir.Primitive("boolean"), False, "None"
                    ),
                ),
            )
        for version in self.h.zarr_formats:
            any_node = ir.UnionOf(tuple(ir.BaseNode(k, version) for k in ("group", "array")))
            group = self.sp.base_name("group", version)
            self.records[group] = Record(
                group,
                (
                    Slot("attributes", "attributes", ir.Json(), True),
                    Slot("members", "members", ir.MapOf(any_node), True),
                ),
                node=("group", version),
            )
            slots = [Slot("attributes", "attributes", ir.Json(), True)]
            for f in base_fields(self.sp, "array", version):
                slots.append(self.arrays.base_slot(f.key, f.converts, f.required))
            array = self.sp.base_name("array", version)
            self.records[array] = Record(array, tuple(slots), node=("array", version))

    def _field(self, f: ir.Field, taken: set[str]) -> PyField:
        name = field_identifier(f.key, taken)
        model_type = self.sp.model(f.type)
        default: str | None = None
        if not f.required:
            if f.nullable:
                default = "UNSET"
                model_type = f"{model_type} | Unset"
            else:
                default = "None"
                # A key that can never be present is always None in the model.
                model_type = "None" if isinstance(f.type, ir.Never) else f"{model_type} | None"
        return PyField(
            name=name,
            key=f.key,
            model_type=model_type,
            doc_type=self.sp.document(f.type),
            required=f.required,
            default=default,
            comment=comment(f.description),
            convert=f.type,
        )

    def _object(self, o: ir.ObjectType) -> tuple[PyModel, PyTypedDict]:
        # A field shadows any module-level name used in the class body after it (`field`,
        # `Mapping`, the other types), so those names are taken before the keys are named.
        taken = set(FIELD_RESERVED_NAMES) | {t.name for t in self.h.types}
        extras_name = None
        if o.extra is not None:
            taken.add("extras")
            extras_name = "extras"
        fields = [self._field(f, taken) for f in o.fields]
        fields.sort(key=lambda f: f.default is not None)
        extras_type = None if o.extra is None else self.sp.model(o.extra)
        self.records[o.name] = Record(
            o.name,
            tuple(_slot(f) for f in fields),
            None if extras_name is None or o.extra is None else (extras_name, o.extra),
        )
        doc = docstring(o.description)
        model = PyModel(o.name, "", fields, doc, extras_name, extras_type)
        document = PyTypedDict(
            name=o.name,
            fields=fields,
            docstring=doc,
            extra_items=None if o.extra is None else self.sp.document(o.extra),
            functional=any(not _class_key(f.key) for f in fields),
        )
        return model, document

    def _node(self, n: ir.NodeType) -> tuple[PyModel, PyTypedDict, PyTypedDict | None]:
        attrs_model = self.sp.model(n.attributes)
        attrs_doc = self.sp.document(n.attributes)
        base = self.sp.base_name(n.node_kind, n.zarr_format)
        metadata = {f.key: f for f in n.metadata if f.key not in BASE_CONSTS}
        narrowed = {key: self._field(f, set()) for key, f in metadata.items()}
        member_dict: PyTypedDict | None = None
        doc_fields: list[PyField] = []
        slots = [Slot("attributes", "attributes", n.attributes, True)]
        consts = [("zarr_format", f"Literal[{n.zarr_format}]")]
        if n.zarr_format == 3:
            consts.append(("node_type", f'Literal["{n.node_kind}"]'))
        for key, typ in consts:
            doc_fields.append(PyField(key, key, typ, typ, True, None, None, ir.Json()))
        doc_fields.append(
            PyField("attributes", "attributes", attrs_model, attrs_doc, True, None, None, None)
        )
        if n.members is not None:
            members_model, members_doc, member_dict, members_type = self._members(n)
            bases = f"{base}[{_q(attrs_model)}, {_q(members_model)}]"
            doc_fields.append(
                PyField("members", "members", members_model, members_doc, True, None, None, None)
            )
            slots.append(Slot("members", "members", members_type, True))
            own: list[PyField] = []
        else:
            bases = f"{base}[{_q(attrs_model)}]"
            own = []
            for base_field in base_fields(self.sp, "array", n.zarr_format):
                key, converts, required = base_field.key, base_field.converts, base_field.required
                if key in narrowed and self.arrays.narrowable(key, metadata[key], n.zarr_format):
                    f = narrowed[key]
                    own.append(f)
                    doc_fields.append(f)
                    slots.append(_slot(f))
                elif key in narrowed:
                    # The document is typed exactly; the model keeps the base field's type,
                    # which the narrowed one would not be a subtype of (records holding
                    # arrays where the base field holds JSON values), and the schema checks
                    # the rest.
                    doc_fields.append(narrowed[key])
                    slots.append(self.arrays.base_slot(key, converts, required))
                else:
                    doc_fields.append(_inherited(base_field))
                    slots.append(self.arrays.base_slot(key, converts, required))
        # The keys the convention declares beside the base node's own: fields of the node's
        # model, named apart from everything the base class already holds.
        taken = set(FIELD_RESERVED_NAMES) | {t.name for t in self.h.types} | _BASE_ATTRIBUTES
        for key_field in n.metadata:
            if key_field.key not in ALL_NODE_KEYS:
                declared = self._field(key_field, taken)
                own.append(declared)
                doc_fields.append(declared)
                slots.append(_slot(declared))
        own.sort(key=lambda declared: declared.default is not None)
        self.records[n.name] = Record(n.name, tuple(slots), node=(n.node_kind, n.zarr_format))
        doc = docstring(n.description)
        model = PyModel(n.name, bases, own, doc, None, None)
        functional = any(not _class_key(f.key) for f in doc_fields)  # keys no class can spell
        document = PyTypedDict(n.name, doc_fields, doc, None, functional)
        return model, document, member_dict

    def _named_members(self, named: tuple[ir.Field, ...]) -> tuple[list[PyField], list[PyField]]:
        """The named members as fields of the members' TypedDicts: the models' and the
        documents'."""
        model_fields: list[PyField] = []
        doc_fields: list[PyField] = []
        for f in named:
            model_type, doc_type = self.sp.model(f.type), self.sp.document(f.type)
            for out, typ in ((model_fields, model_type), (doc_fields, doc_type)):
                out.append(
                    PyField(
                        f.key, f.key, typ, typ, f.required, None, comment(f.description), f.type
                    )
                )
        return model_fields, doc_fields

    def _members(self, n: ir.NodeType) -> tuple[str, str, PyTypedDict | None, SlotType]:
        members = n.members
        assert members is not None
        other_types = [t for _p, t in members.patterns] + (
            [members.other] if members.other is not None else []
        )
        other_model = " | ".join(dict.fromkeys(self.sp.model(t) for t in other_types)) or None
        other_doc = (
            union(
                [self.sp.document(t) for t in other_types]
                + self.sp.fallback(tuple(other_types), "document")
            )
            or None
        )
        other_ir: ir.TypeRef | None = None
        if other_types:
            other_ir = other_types[0] if len(other_types) == 1 else ir.UnionOf(tuple(other_types))
        if not members.named:
            if other_model is None or other_ir is None:
                # A closed group without named members can only be empty.
                return "Mapping[str, JsonValue]", "dict[str, JsonValue]", None, ir.MapOf(ir.Json())
            return (
                f"Mapping[str, {other_model}]",
                f"dict[str, {other_doc}]",
                None,
                ir.MapOf(other_ir),
            )
        name = open_dicts.members_name(n.name)
        model_fields, doc_fields = self._named_members(members.named)
        converted = NamedMembers(name, tuple((f.key, f.type) for f in members.named), other_ir)
        self.member_documents.append(PyTypedDict(name, doc_fields, None, other_doc, True))
        typed = PyTypedDict(name, model_fields, None, other_model, True)
        return name, name, typed, converted


def _slot(f: PyField) -> Slot:
    assert f.convert is not None
    return Slot(f.name, f.key, f.convert, f.required, f.default)


def _q(type_expression: str) -> str:
    """Class bases are evaluated at import time, before later classes exist: quote them."""
    return json.dumps(type_expression, ensure_ascii=False)


def _class_key(key: str) -> bool:
    import keyword

    return key.isidentifier() and not keyword.iskeyword(key) and not key.startswith("__")


def _inherited(f: ArrayField) -> PyField:
    """A base array field a node's document lists as the base declares it."""
    model_type = f.model_type + ("" if f.required else " | None")
    default = None if f.required else "None"
    return PyField(f.key, f.key, model_type, f.doc_type, f.required, default, None, f.converts)
