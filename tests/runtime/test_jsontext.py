"""Parsing one metadata file (runtime/python/zomgen_runtime/jsontext.py): msgspec, which parses first where it is
installed, gives exactly the value `json` gives (the same types, floats to the bit, integers of
any size, key order, the last of duplicate keys), and wherever it fails, `json` decides and
says why, so a file gives the same document or the same message with or without msgspec."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from zomgen_runtime import jsontext


def _exact(value: Any) -> list[tuple[str, Any]]:
    """`value` as tokens with every type and float bit spelled out (`1 == 1.0 == True` in
    Python), without recursion: a test may have raised the recursion limit, and then both
    parsers read the deepest text here."""
    tokens: list[tuple[str, Any]] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):  # a key (JSON values hold no tuples)
            tokens.append(item)
        elif isinstance(item, dict):
            tokens.append(("object", len(item)))
            for key, member in reversed(item.items()):
                stack += [member, ("key", key)]
        elif isinstance(item, list):
            tokens.append(("array", len(item)))
            stack.extend(reversed(item))
        elif isinstance(item, float):
            tokens.append(("float", "nan" if math.isnan(item) else item.hex()))
        else:
            tokens.append((type(item).__name__, item))
    return tokens


def _both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    with monkeypatch.context() as patched:
        patched.setattr(jsontext, "_FAST_AFTER_BYTES", -1)  # msgspec from the first file
        fast = jsontext.parse_object(data, "zarr.json")
    with monkeypatch.context() as patched:
        patched.setattr(jsontext, "_fast_decoder", lambda: None)
        reference = jsontext.parse_object(data, "zarr.json")
    return _exact(fast), _exact(reference)


def test_msgspec_parses_in_the_test_environment() -> None:
    assert jsontext._fast_decoder() is not None  # else the tests below compare json with itself


# Texts where the two parsers differ in what they accept, or where a lax one would change a value.
EDGES = [
    b'{"a": 1, "b": 2, "a": 3}',  # duplicate keys: the last wins, at the first one's place
    b'{"a": 18446744073709551616, "b": -9223372036854775809}',  # past 64 bits
    b'{"a": ' + b"7" * 4300 + b"}",  # the longest integer Python reads
    b'{"a": ' + b"7" * 4301 + b"}",  # one digit more: a message
    b'{"a": 1e400}',  # json: inf; msgspec refuses
    b'{"a": -1e400, "b": 1e-400}',
    b'{"a": 0.1000000000000000055511151231257827, "b": 2.2250738585072011e-308}',
    b'{"a": 9007199254740993, "b": 9007199254740993.0, "c": -0, "d": -0.0, "e": 1E2}',
    b'{"a": "\\ud800", "b": "\\udc00\\ud800"}',  # lone surrogates: json keeps them
    b'{"a": "\\u0000\\/\\b\\f\\n\\r\\t\\"\\\\", "\xc3\xa9": "\xf0\x9f\x98\x80"}',
    b'{"a": NaN}',
    b'{"a": Infinity}',
    b'{"a": "\x01"}',  # a raw control character
    b'{"a": "\xff"}',  # not UTF-8
    b'{"\xed\xa0\x80": 1}',  # an encoded surrogate: not UTF-8
    b'\xef\xbb\xbf{"a": 1}',  # a byte order mark
    b'{"a": 01}',
    b'{"a": 1.}',
    b'{"a": .5}',
    b'{"a": +1}',
    b'{"a": true,}',
    b'{"a": 1} x',
    b'{"a": 1}\x00',
    b' \t\r\n{"a": [ ]}\n',
    b"[1, 2]",
    b'"text"',
    b"",
    b'{"a": ' + b"[" * 5000 + b"]" * 5000 + b"}",  # nests too deeply for either parser
    b'{"a": ' + b"[" * 400 + b"]" * 400 + b"}",
]


@pytest.mark.parametrize("data", EDGES, ids=range(len(EDGES)))
def test_msgspec_and_json_agree_on_edge_texts(data: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, reference = _both(data, monkeypatch)
    assert fast == reference


def test_a_refused_file_keeps_json_s_message() -> None:
    assert jsontext.parse_object(b'{"a": NaN}', ".zattrs") == (
        '.zattrs: NaN is not JSON (Zarr writes it as the string "NaN")'
    )


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=st.dictionaries(st.text(max_size=8), _JSON), ascii_only=st.booleans())
def test_msgspec_and_json_agree_on_written_documents(value: Any, ascii_only: bool) -> None:
    data = json.dumps(value, ensure_ascii=ascii_only).encode()
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, reference = _both(data, monkeypatch)
    assert fast == reference


# Numbers as people and other tools write them: long mantissas, every exponent form.
_NUMBER = st.from_regex(
    r"-?(0|[1-9][0-9]{0,40})(\.[0-9]{1,40})?([eE][+-]?[0-9]{1,3})?", fullmatch=True
)


@settings(max_examples=500, deadline=None)
@given(numbers=st.lists(_NUMBER, min_size=1, max_size=5))
def test_msgspec_and_json_read_numbers_alike(numbers: list[str]) -> None:
    data = ('{"n": [' + ", ".join(numbers) + "]}").encode()
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, reference = _both(data, monkeypatch)
    assert fast == reference
