"""Strict parsing of one metadata file: RFC 8259 JSON in UTF-8, an object at the top.

Python's `json` accepts `NaN`, `Infinity` and `-Infinity`, which JSON does not have (Zarr
spells them as strings), and raises RecursionError on deeply nested arrays; both must become
a problem that names the file, never a wrong document or a traceback.

msgspec, where installed, parses first: it is 2.5 times as fast as `json` on metadata files
(a fifth of a load's reading). It fails on everything `json` would refuse and more (`1e400`,
lone surrogates), never the other way round, and gives the same value where both succeed
(integers of any size, floats rounded alike; zomgen's tests compare the two). Wherever it
fails, `json` parses the file again and decides, with its messages.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
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


class _NotJson(Exception):
    pass


def _reject_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not JSON (Zarr writes it as the string {json.dumps(name)})")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # `1e400`: JSON text, but no float holds it
        raise _NotJson(f"{text} is beyond what a 64-bit float holds (it would read as an infinity)")
    return value


# One decoder for every file: json.loads with a keyword builds a new one per call.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)


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
    fast = _fast_decoder()
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
        return f"{what} is not UTF-8 text (byte {exc.start})"
    try:
        value = _DECODER.decode(text)
    except _NotJson as exc:
        return f"{what}: {exc}"
    except json.JSONDecodeError as exc:
        return f"{what} is not JSON: {exc}"
    except ValueError:  # an integer past sys.get_int_max_str_digits()
        return f"{what} holds an integer longer than Python reads (over 4,300 digits)"
    except RecursionError:
        return f"{what} nests too deeply to parse"
    if not is_object(value):
        return f"{what} holds a JSON {_kind(value)}, not an object"
    return value


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
