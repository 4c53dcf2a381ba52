r"""ECMA-262 patterns (JSON Schema's dialect) spelled for RE2, which matches in linear time.

A backtracking engine (Python's `re`, JavaScript's `RegExp`, regress) can be held for hours by a
30-character value against a pattern such as `^(a+)+$`. RE2 cannot: it never backtracks. Both run
times match every pattern with RE2 (google-re2 in Python, re2js in TypeScript) after this
translation, written the same way in runtime_ts/patterns.ts; the twin tests hold the two to the
same output.

What the translation changes, so that RE2 means what ECMA-262 (with the `u` flag) means:
- `.` is any character but the four line terminators; `\s`/`\S` are ECMA-262's white space;
- `\uXXXX` (surrogate pairs joined), `\u{X}`, `\xXX`, `\cX`, `\0` become `\x{...}`;
- `\p{Letter}`, `\p{gc=Lu}`, `\p{Script=Greek}` become the short names RE2 knows;
- in a class, `\b` is a backspace and `[` a plain character; `[^]` is any character.

What RE2 cannot do is refused with the reason (`Unreadable`): back references, and lookarounds
other than lookaheads right after a leading `^`. Those lookaheads are split off:
`^(?!/)(?!.*\.\.)X$` matches when `^(?:/)` and `^(?:.*\.\.)` do not and `^(?:X$)` does
(zarr-conventions' multiscales paths are written so).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

# ECMA-262's WhiteSpace and LineTerminator: what `\s` matches there
_SPACE = (
    "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}"
    "\\x{205F}\\x{3000}\\x{FEFF}"
)
_ANY = "\\x{0}-\\x{10FFFF}"
_DOT = "[^\\n\\r\\x{2028}\\x{2029}]"
# escapes RE2 reads as ECMA-262 does, outside a class and in it
_SAME = frozenset("dDwWtnrfv")
_OUTSIDE_ONLY = frozenset("bB")
_DIGITS = frozenset("0123456789")
# ECMA-262's long General_Category names, as RE2 knows them (short)
_CATEGORIES = {
    "Letter": "L", "Cased_Letter": "L", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
    "Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M",
    "Combining_Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me",
    "Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl",
    "Other_Number": "No", "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc",
    "Dash_Punctuation": "Pd", "Open_Punctuation": "Ps", "Close_Punctuation": "Pe",
    "Initial_Punctuation": "Pi", "Final_Punctuation": "Pf", "Other_Punctuation": "Po",
    "Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk",
    "Other_Symbol": "So", "Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl",
    "Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf",
    "Private_Use": "Co", "Surrogate": "Cs",
}  # fmt: skip


class Unreadable(Exception):
    """A pattern RE2 cannot match as ECMA-262 means it; the message says why."""


@dataclass(frozen=True)
class Part:
    """One RE2 pattern and whether a text must match it (False: a negative lookahead)."""

    source: str
    must_match: bool


def linear_parts(pattern: str) -> tuple[Part, ...]:
    """The RE2 patterns that together match as `pattern` does, or `Unreadable`."""
    if "\x00" in pattern:
        raise Unreadable("a NUL character in the pattern itself")
    parts: list[Part] = []
    at = 0
    if pattern.startswith("^"):
        at = 1
        while pattern.startswith(("(?=", "(?!"), at):
            end = _group_end(pattern, at)
            body = _translate(pattern[at + 3 : end - 1])
            parts.append(Part(f"^(?:{body})", pattern[at + 2] == "="))
            at = end
    if not parts:
        return (Part(_translate(pattern), True),)
    rest = pattern[at:]
    if _has_top_level_bar(rest):
        raise Unreadable("a lookahead after `^` in a pattern with `|` outside any group")
    parts.append(Part(f"^(?:{_translate(rest)})", True))
    return tuple(parts)


def _translate(pattern: str) -> str:
    out: list[str] = []
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            text, at = _escape(pattern, at, in_class=False)
            out.append(text)
        elif char == "[":
            text, at = _class(pattern, at)
            out.append(text)
        elif char == "(":
            text, at = _group_open(pattern, at)
            out.append(text)
        elif char == ".":
            out.append(_DOT)
            at += 1
        else:
            _check_character(char)
            out.append(char)
            at += 1
    return "".join(out)


def _group_open(pattern: str, at: int) -> tuple[str, int]:
    if not pattern.startswith("(?", at):
        return "(", at + 1
    if pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), at):
        raise Unreadable(
            "a lookaround other than a lookahead right after a leading `^`, which only a "
            "backtracking engine matches"
        )
    if pattern.startswith(("(?:", "(?<", "(?P<"), at):
        return "(?", at + 2
    flags = at + 2
    while flags < len(pattern) and pattern[flags] in "ims-":
        flags += 1
    if flags > at + 2 and flags < len(pattern) and pattern[flags] in ":)":
        return pattern[at : flags + 1], flags + 1
    raise Unreadable(f"the group {pattern[at : at + 4]!r}... is not ECMA-262")


def _escape(pattern: str, at: int, *, in_class: bool) -> tuple[str, int]:
    """The RE2 spelling of the escape at `at` (a backslash), and where the next token starts."""
    if at + 1 >= len(pattern):
        raise Unreadable("the pattern ends in a lone backslash")
    char = pattern[at + 1]
    after = at + 2
    if char in _SAME or (char in _OUTSIDE_ONLY and not in_class):
        return "\\" + char, after
    if char == "b":  # in a class: backspace
        return "\\x{8}", after
    if char == "s":
        return (_SPACE if in_class else f"[{_SPACE}]"), after
    if char == "S":
        if in_class:
            raise Unreadable("`\\S` inside a class beside other characters")
        return f"[^{_SPACE}]", after
    if char == "0" and pattern[after : after + 1] not in _DIGITS:
        return "\\x{0}", after
    if char in _DIGITS or (char == "k" and pattern.startswith("<", after)):
        raise Unreadable("a back reference, which only a backtracking engine matches")
    if char == "x":
        digits = pattern[after : after + 2]
        if len(digits) == 2 and _is_hex(digits):
            return _code_point(int(digits, 16)), after + 2
        raise Unreadable("`\\x` without two hexadecimal digits")
    if char == "u":
        return _unicode_escape(pattern, after)
    if char == "c":
        letter = pattern[after : after + 1]
        if letter.isascii() and letter.isalpha():
            return _code_point(ord(letter) % 32), after + 1
        raise Unreadable("`\\c` without a letter")
    if char in "pP":
        return _property(pattern, at, char)
    if char.isascii() and (char.isalnum() or char == "_"):
        raise Unreadable(f"`\\{char}` is not an escape of ECMA-262 (JSON Schema's dialect)")
    if not char.isascii():
        return _literal(char), after
    return "\\" + char, after


def _unicode_escape(pattern: str, after: int) -> tuple[str, int]:
    if pattern.startswith("{", after):
        end = pattern.find("}", after)
        digits = pattern[after + 1 : end] if end > 0 else ""
        if digits and _is_hex(digits) and int(digits, 16) <= 0x10FFFF:
            return _code_point(int(digits, 16)), end + 1
        raise Unreadable("`\\u{...}` that is not a code point")
    digits = pattern[after : after + 4]
    if len(digits) != 4 or not _is_hex(digits):
        raise Unreadable("`\\u` without four hexadecimal digits")
    unit = int(digits, 16)
    low_digits = pattern[after + 6 : after + 10]  # a low surrogate's, after `\\u`
    if 0xD800 <= unit < 0xDC00 and pattern.startswith("\\u", after + 4) and _is_hex(low_digits):
        low = int(low_digits, 16)
        if 0xDC00 <= low < 0xE000 and len(low_digits) == 4:
            return _code_point(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)), after + 10
    return _code_point(unit), after + 4


def _property(pattern: str, at: int, char: str) -> tuple[str, int]:
    if not pattern.startswith("{", at + 2):
        raise Unreadable(f"`\\{char}` without `{{name}}`")
    end = pattern.find("}", at + 2)
    if end < 0:
        raise Unreadable(f"`\\{char}{{` without its `}}`")
    name = pattern[at + 3 : end]
    key, _, value = name.partition("=")
    if value:
        if key not in ("General_Category", "gc", "Script", "sc"):
            raise Unreadable(f"the property {name!r}, which RE2 does not know")
        name = value
    short = _CATEGORIES.get(name, name)
    if not short or not all(c.isascii() and (c.isalnum() or c == "_") for c in short):
        raise Unreadable(f"the property {name!r}, which RE2 does not know")
    return f"\\{char}{{{short}}}", end + 1


def _class(pattern: str, at: int) -> tuple[str, int]:
    """A character class: `[` at `at` to its `]`."""
    start = at + 1
    negated = pattern.startswith("^", start)
    at = start + 1 if negated else start
    members: list[str] = []
    opposite = {"s": False, "S": False}
    while at < len(pattern) and pattern[at] != "]":
        char = pattern[at]
        if char == "\\" and pattern[at + 1 : at + 2] in ("s", "S"):
            opposite[pattern[at + 1]] = True
            at += 2
        elif char == "\\":
            text, at = _escape(pattern, at, in_class=True)
            members.append(text)
        elif char == "[":
            members.append("\\[")
            at += 1
        else:
            _check_character(char)
            members.append(_literal(char) if char in "^-" and not members else char)
            at += 1
    if at >= len(pattern):
        raise Unreadable("a `[` without its `]`")
    if opposite["s"] and opposite["S"]:  # `[\s\S]`: any character
        members = [_ANY]
    elif opposite["S"]:
        if members:
            raise Unreadable("`\\S` inside a class beside other characters")
        return (f"[{_SPACE}]" if negated else f"[^{_SPACE}]"), at + 1
    elif opposite["s"]:
        members.append(_SPACE)
    if not members:  # `[]` matches nothing, `[^]` anything
        return (f"[{_ANY}]" if negated else f"[^{_ANY}]"), at + 1
    return ("[^" if negated else "[") + "".join(members) + "]", at + 1


def _structure(pattern: str, at: int = 0) -> Iterator[tuple[int, str, int]]:
    """(index, character, depth of groups before it) of each `(`, `)` and `|` from `at`, outside
    escapes and classes."""
    depth = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            at += 2
        elif char == "[":
            at = _class(pattern, at)[1]
        else:
            if char in "()|":
                yield at, char, depth
                depth += (char == "(") - (char == ")")
            at += 1


def _group_end(pattern: str, at: int) -> int:
    """Where the group opened at `at` ends (the index after its `)`)."""
    for index, char, depth in _structure(pattern, at):
        if char == ")" and depth == 1:
            return index + 1
    raise Unreadable("a `(` without its `)`")


def _has_top_level_bar(pattern: str) -> bool:
    return any(char == "|" and depth == 0 for _, char, depth in _structure(pattern))


def _check_character(char: str) -> None:
    if 0xD800 <= ord(char) < 0xE000:
        raise Unreadable(f"the lone surrogate U+{ord(char):04X}, which UTF-8 cannot encode")


def _literal(char: str) -> str:
    return _code_point(ord(char))


def _code_point(value: int) -> str:
    if 0xD800 <= value < 0xE000:
        raise Unreadable(f"the lone surrogate U+{value:04X}, which UTF-8 cannot encode")
    return f"\\x{{{value:X}}}"


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)
