"""Read a schema file (JSON or YAML) into plain JSON values, within zomgen's limits.

Every value comes back as zomgen's own copy of a JSON value (dicts, lists, str, int, float,
bool, None): YAML's dates and sets, NaN, integers no double holds, lone surrogates and
documents too large or too deep are each refused with the JSON pointer where they stand.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import yaml
from zomgen_runtime.pointers import escape as escape_pointer

from zomgen.errors import CompileError, InputProblem

# Limits on what a schema file may hold (docs/input-language.md, "Limits"). Each is reported
# as a problem at the JSON pointer where it was reached, before anything else reads the file.
MAX_FILE_BYTES = 64 * 2**20  # a schema file larger than this is refused unread


MAX_DEPTH = 128  # nesting of objects and arrays: the generated code nests with it


MAX_VALUES = 200_000  # values in a document, each YAML alias counted at every place it stands


MAX_ENUM = 20_000  # values of one `enum`: each is a literal in the generated types


MAX_INT_DIGITS = 309  # past this an integer exceeds every double: JavaScript reads Infinity


@dataclass(frozen=True)
class _NotJson:
    """A value the parser read but JSON cannot hold (NaN, a 5,000-digit integer)."""

    text: str
    why: str


def _parse_int(text: str) -> object:
    if len(text) > MAX_INT_DIGITS + 1:
        return _NotJson(f"{text[:12]}... ({len(text)} digits)", "an integer beyond any double")
    return int(text)


def _parse_float(text: str) -> object:
    value = float(text)
    if math.isinf(value):
        return _NotJson(text[:40], "a number beyond any double")
    return value


def _parse_constant(text: str) -> object:
    return _NotJson(text, "not a JSON number")


class _YamlLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with integers and floats that JSON cannot hold left as markers for
    `_plain` to report by pointer (Python refuses to read integers of more than 4,300 digits)."""


def _yaml_int(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    text = str(node.value)
    if len(text) > MAX_INT_DIGITS + 4:  # a sign, `0x`, `_` separators
        return _NotJson(f"{text[:12]}... ({len(text)} characters)", "an integer beyond any double")
    return yaml.SafeLoader.construct_yaml_int(loader, node)  # type: ignore[arg-type]


def _yaml_float(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    value = yaml.SafeLoader.construct_yaml_float(loader, node)  # type: ignore[arg-type]
    if isinstance(value, float) and not math.isfinite(value):
        return _NotJson(str(node.value)[:40], "not a finite number")
    return value


_YamlLoader.add_constructor("tag:yaml.org,2002:int", _yaml_int)
_YamlLoader.add_constructor("tag:yaml.org,2002:float", _yaml_float)


def read_data_file(path: Path) -> object:
    """Parse a JSON or YAML file into plain JSON values; a clear CompileError for anything else,
    or for anything past the limits above."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise CompileError.one(
                str(path), "", f"the file is larger than {MAX_FILE_BYTES // 2**20} MiB"
            )
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CompileError.one(str(path), "", f"cannot read the file: {_one_line(exc)}") from None
    return _plain(_parse_text(path, text), str(path))


def _parse_text(path: Path, text: str) -> object:
    if path.suffix in (".yaml", ".yml"):
        return _yaml(path, text, "not valid YAML")
    try:
        return json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
        )
    except RecursionError:
        raise CompileError.one(str(path), "", _too_deep_in_text(text)) from None
    except json.JSONDecodeError as exc:
        if path.suffix in (".json", ".schema"):
            raise CompileError.one(
                str(path), "", f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
            ) from None
    return _yaml(path, text, "neither JSON nor YAML")


def _yaml(path: Path, text: str, what: str) -> object:
    try:
        return yaml.load(text, Loader=_YamlLoader)  # a SafeLoader
    except RecursionError:
        raise CompileError.one(str(path), "", _too_deep_in_text(text)) from None
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
        raise CompileError.one(str(path), "", f"{what}: {_one_line(exc)}") from None


def _too_deep_in_text(text: str) -> str:
    """Where a document too deep to parse passes MAX_DEPTH (line and column: no pointer can be
    built from a document that was not read)."""
    depth, line, column, quote, escaped = 0, 1, 0, "", False
    for char in text:
        column += 1
        if char == "\n":
            line, column = line + 1, 0
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return (
                    f"nests deeper than {MAX_DEPTH} levels of objects and arrays (line {line}, "
                    f"column {column}); zomgen's limit (docs/input-language.md, Limits)"
                )
        elif char in "]}":
            depth -= 1
    return f"nests deeper than {MAX_DEPTH} levels of objects and arrays"


# (source, destination container, key in it, pointer, depth): one value `_plain` still has to copy
_Frame = tuple[object, object, object, str, int]


class _Walk:
    """What one `_plain` copy has found so far: the problems (the walk stops at the first
    batch, only the first is reported), the values counted and the containers met."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[InputProblem] = []
        self.count = 0
        self.seen: set[int] = set()  # ids of containers met before: a YAML alias meets one again

    def refuse(self, pointer: str, message: str) -> None:
        self.problems.append(InputProblem(self.file, pointer, message))

    def counted(self, pointer: str) -> bool:
        """Count one more value; False (and refused) once past MAX_VALUES."""
        self.count += 1
        if self.count <= MAX_VALUES:
            return True
        self.refuse(
            pointer,
            f"the document holds more than {MAX_VALUES:,} values (YAML aliases counted "
            "at each place they stand); zomgen's limit",
        )
        return False

    def entered(self, value: object, pointer: str, depth: int) -> bool:
        """Enter a dict or list at `depth`; False (and refused) if that passes MAX_DEPTH. An
        alias inside the node it names would nest forever, so it ends here too."""
        if depth >= MAX_DEPTH:
            alias = (
                " (or a YAML alias stands inside the node it names)"
                if id(value) in self.seen
                else ""
            )
            self.refuse(
                pointer,
                f"nests deeper than {MAX_DEPTH} levels of objects and arrays{alias}; "
                "zomgen's limit (generated code nests with the schema)",
            )
            return False
        self.seen.add(id(value))
        return True

    def open_dict(
        self, value: dict[object, object], pointer: str, depth: int, stack: list[_Frame]
    ) -> dict[str, object]:
        """An empty copy of `value` with its keys in order (so the copy keeps the source's key
        order), its members pushed on `stack` to be filled in."""
        mapping: dict[str, object] = {}
        children: list[tuple[str, object]] = []
        for k, v in value.items():
            key = self.json_key(k, pointer)
            if key is not None:
                mapping[key] = None
                children.append((key, v))
        enum = value.get("enum")
        if isinstance(enum, list) and len(enum) > MAX_ENUM:
            self.refuse(
                f"{pointer}/enum",
                f"{len(enum):,} values, more than zomgen's limit of {MAX_ENUM:,} (each "
                "is a literal of the generated types): use `type` and a `pattern`",
            )
        # Pushed in reverse so they are popped, and problems found, in document order.
        for k, v in reversed(children):
            stack.append((v, mapping, k, f"{pointer}/{escape_pointer(k)}", depth + 1))
        return mapping

    def json_key(self, key: object, pointer: str) -> str | None:
        """`key` if it can be a JSON key; None (and refused) if not: YAML allows ints, dates."""
        if not isinstance(key, str):
            self.refuse(
                f"{pointer}/{escape_pointer(str(key))}",
                f"the key {key!r} is a YAML {type(key).__name__}: JSON keys are strings, quote it",
            )
            return None
        bad = _unencodable(key)
        if bad is not None:
            # The pointer itself must be printable, so the surrogate is spelled as an escape.
            printable = key.encode("utf-8", "backslashreplace").decode()
            self.refuse(
                f"{pointer}/{escape_pointer(printable)}",
                f"the key holds {bad}, which UTF-8 cannot encode; remove it",
            )
            return None
        return key

    def scalar(self, value: object, pointer: str) -> object:
        """`value` itself if it is a JSON scalar; otherwise refused (and None in its place)."""
        if value is None or isinstance(value, (bool, int)):
            if isinstance(value, int) and value.bit_length() > 1024:
                self.refuse(
                    pointer, "an integer beyond any double (JavaScript reads it as Infinity)"
                )
            return value
        if isinstance(value, float):
            if not math.isfinite(value):
                self.refuse(pointer, f"{value} is not a JSON number")
            return value
        if isinstance(value, str):
            bad = _unencodable(value)
            if bad is not None:
                self.refuse(pointer, f"the text holds {bad}, which UTF-8 cannot encode; remove it")
            return value
        if isinstance(value, _NotJson):
            self.refuse(pointer, f"{value.text} is {value.why}: JSON run times cannot read it")
            return None
        kind = type(value).__name__
        self.refuse(pointer, f"a YAML {kind} is not a JSON value: quote it to make it a string")
        return None


def _open_list(value: list[object], pointer: str, depth: int, stack: list[_Frame]) -> list[object]:
    """A copy of `value` holding None, its items pushed on `stack` to be filled in."""
    copy: list[object] = [None] * len(value)
    for i in reversed(range(len(value))):
        stack.append((value[i], copy, i, f"{pointer}/{i}", depth + 1))
    return copy


def _plain(data: object, file: str) -> object:
    """A copy of `data` made only of JSON values (dict with str keys, list, str, int, float,
    bool, None), every limit checked, each problem reported at its pointer. Iterative, so any
    depth is safe; a YAML alias is copied at each place it stands (the compiler tells schemas
    apart by identity), counted against MAX_VALUES, and an alias inside itself is refused."""
    walk = _Walk(file)
    root: list[object] = [None]
    stack: list[_Frame] = [(data, root, 0, "", 0)]
    while stack and not walk.problems:
        value, into, key, pointer, depth = stack.pop()
        if not walk.counted(pointer):
            break
        copy: object
        if isinstance(value, (dict, list)):
            if not walk.entered(value, pointer, depth):
                break
            if isinstance(value, dict):
                copy = walk.open_dict(value, pointer, depth, stack)
            else:
                copy = _open_list(value, pointer, depth, stack)
        else:
            copy = walk.scalar(value, pointer)
        into[key] = copy  # type: ignore[index]
    if walk.problems:
        raise CompileError(walk.problems[:1])
    return root[0]


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())


def _unencodable(text: str) -> str | None:
    """The first character of `text` UTF-8 cannot encode (a lone surrogate), spelled."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"the lone surrogate U+{ord(text[exc.start]):04X} at character {exc.start}"
    return None
