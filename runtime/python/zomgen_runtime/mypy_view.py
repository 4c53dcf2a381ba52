"""`MypyFallback`: the one type a generated documents.py spells differently for mypy.

mypy has no PEP 728 (`extra_items`, mypy 2.4.1): it reads a TypedDict that allows other keys
as its listed keys. Where such a TypedDict meets a dict literal directly, mypy then checks the
listed keys, and accepts the others with `typeddict-unknown-key` off (each package's README).
Inside a union it cannot: mypy keeps only the options whose keys the literal fits, so a valid
document with other keys fits none and is rejected. So a union with an option that reaches
such a TypedDict also holds `MypyFallback` (zomgen/targets/python/open_dicts.py): any dict to
mypy, which then accepts any dict there, and `Never`, an option nothing fits, to pyright,
pyrefly and ty, which read PEP 728 and check that place exactly.

mypy reads the name `MYPY` as True (a convention older than `TYPE_CHECKING`), every other
checker as the False it is given. The name is defined three times because the checkers read
repeated definitions differently: pyright the first, pyrefly the last, ty and mypy the ones
their reading of `MYPY` reaches. It is done once here, so that no generated package repeats it.
"""

from __future__ import annotations

from typing import Any, Never, TypeAlias

MYPY = False

if not MYPY:
    MypyFallback: TypeAlias = Never  # pyright: ignore[reportRedeclaration]
if MYPY:
    MypyFallback: TypeAlias = dict[str, Any]  # pyright: ignore[reportRedeclaration]  # pyrefly: ignore[redefinition]
if not MYPY:
    MypyFallback: TypeAlias = Never  # pyright: ignore[reportRedeclaration]
