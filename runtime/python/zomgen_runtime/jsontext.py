"""Strict parsing of one metadata file: RFC 8259 JSON in UTF-8, an object at the top.

Python's `json` accepts `NaN`, `Infinity` and `-Infinity`, which JSON does not have (Zarr
spells them as strings), and raises RecursionError on deeply nested arrays; both must become
a problem that names the file, never a wrong document or a traceback.

msgspec, where installed, parses first once the process has read 256 KB of metadata: it is
2.5 times as fast as `json` on metadata files (a fifth of a load's reading), but importing it
takes 10-15 ms, more than `json` spends on a small store (issue 54: `zomgen validate` of one
node starts in 100 ms). It fails on everything `json` would refuse and more (`1e400`,
lone surrogates), never the other way round, and gives the same value where both succeed
(integers of any size, floats rounded alike; zomgen's tests compare the two). Wherever it
fails, `json` parses the file again and decides, with its messages.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from .values import is_array, is_object

# One metadata document larger than this is reported instead of parsed: parsing 100 MB of JSON
# takes seconds and several times that in memory, and no real node needs it.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
# Except the documents that hold the metadata of the whole hierarchy: the root's zarr.json (with
# v3 consolidated metadata inside) and .zmetadata grow with the number of nodes. zarr-python
# writes about 1 KB per array, so 100,000 arrays make a 104 MB zarr.json; this allows about a
# million. (A v3 root over the limit could not be read at all; a .zmetadata would be walked.)
DEFAULT_MAX_CONSOLIDATED_BYTES = 1024 * 1024 * 1024


# The deepest nesting of arrays and objects read in one metadata document, in both run times
# (node_files.ts): Python's parsers stop near 1,000 levels by the stack they happen to have,
# JavaScript's go on, and then the walk of a 10,000-level value overflows there. No real
# attribute nests past a few levels; a deeper document is a problem that names the file.
MAX_DEPTH = 512
# Said of a number no 64-bit float holds (`1e400`, an integer of 309 digits and more): Python
# would read an integer exactly, JavaScript as an infinity, so neither reads it.
BEYOND_FLOAT = "holds a number beyond what a 64-bit float holds (it would read as an infinity)"
# A run of digits long enough to be such a number (found in the bytes first: it is rare).
_LONG_DIGITS = re.compile(rb"[0-9]{309}")
_DIGITS_AND_OPENINGS = b"0123456789[{"
_FEWEST = min(309, MAX_DEPTH + 1)


class _NotJson(Exception):
    pass


def _reject_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not JSON (Zarr writes it as the string {json.dumps(name)})")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # `1e400`: JSON text, but no float holds it
        raise _BeyondFloat
    return value


class _BeyondFloat(Exception):
    pass


# One decoder for every file: json.loads with a keyword builds a new one per call.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)


# Bytes parsed by `json` so far in this process; past the threshold, msgspec takes over. (Reads
# on several threads may race on the count: it only decides when to switch.)
_FAST_AFTER_BYTES = 256 * 1024
_parsed_slowly = 0


@functools.cache
def _fast_decoder() -> Callable[[bytes], Any] | None:
    try:
        import msgspec
    except ImportError:  # optional: `json` alone gives the same documents, slower
        return None
    return msgspec.json.Decoder().decode


def parse_object(data: bytes, what: str) -> dict[str, Any] | str:
    """`data` -> the JSON object it holds, or a message saying why it is not one.
    `what` names the file in the message (`zarr.json`, `.zattrs`)."""
    value = _parsed(data, what)
    if isinstance(value, _Refused):
        return value.message
    if not is_object(value):
        return f"{what} holds a JSON {_kind(value)}, not an object"
    # Both checks walk the value, and only when the bytes say they may find something: fewer
    # than 309 digits and brackets in all (one pass in C, a third of msgspec's time on a
    # typical array's zarr.json) rule out both.
    if len(data) - len(data.translate(None, _DIGITS_AND_OPENINGS)) < _FEWEST:
        return value
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and _deeper_than(value, MAX_DEPTH):
        return f"{what} nests deeper than {MAX_DEPTH} levels"
    if _LONG_DIGITS.search(data) and _holds_a_huge_integer(value):
        return f"{what} {BEYOND_FLOAT}"
    return value


class _Refused:
    def __init__(self, message: str) -> None:
        self.message = message


def _parsed(data: bytes, what: str) -> Any:
    global _parsed_slowly
    fast = None
    if _parsed_slowly + len(data) > _FAST_AFTER_BYTES:  # a large file, or many files read
        fast = _fast_decoder()
    else:
        _parsed_slowly += len(data)
    if fast is not None:
        try:
            value = fast(data)
        except (ValueError, RecursionError):  # msgspec.DecodeError is a ValueError
            pass  # `json` decides below, and says why
        else:
            if is_object(value):
                return value
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _Refused(f"{what} is not UTF-8 text (byte {exc.start})")
    try:
        return _DECODER.decode(text)
    except _NotJson as exc:
        return _Refused(f"{what}: {exc}")
    except _BeyondFloat:
        return _Refused(f"{what} {BEYOND_FLOAT}")
    except json.JSONDecodeError as exc:
        return _Refused(f"{what} is not JSON: {exc}")
    except ValueError:  # an integer past sys.get_int_max_str_digits(): beyond a float too
        return _Refused(f"{what} {BEYOND_FLOAT}")
    except RecursionError:
        return _Refused(f"{what} nests deeper than {MAX_DEPTH} levels")


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than `limit` levels in `value` (itself one)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children: Iterable[Any] = item.values() if is_object(item) else item
        stack.extend((c, depth + 1) for c in children if is_object(c) or is_array(c))
    return False


def beyond_float(value: int) -> bool:
    """Whether no 64-bit float holds the integer `value` (JavaScript reads it as an infinity)."""
    try:
        float(value)
    except OverflowError:
        return True
    return False


def _holds_a_huge_integer(value: Any) -> bool:
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool) and item.bit_length() > 1000:
            if beyond_float(item):
                return True
        elif is_object(item):
            stack.extend(item.values())
        elif is_array(item):
            stack.extend(item)
    return False


def too_large(what: str, size: int, limit: int) -> str:
    return f"{what} is {size} bytes, over the limit of {limit} bytes for one metadata document"


def _kind(value: object) -> str:
    if is_array(value):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"
