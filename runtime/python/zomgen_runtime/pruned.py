"""Describing the problems of an invalid document by walking only what failed.

python-jsonschema, which gives each problem its place, walks the whole document and every
option of every `anyOf`: one fault in a store of 1,557 nodes took 6.5 s to describe against
0.06 s to find. jsonschema-rs can say of any subschema whether a value satisfies it,
at a fraction of a microsecond per node (subschemas.py). So each time the reference engine is
about to apply a subschema to a value, it first asks jsonschema-rs; a subschema the value
satisfies has nothing to report and is skipped. The walk then goes down only the subschemas and
values that fail, plus one jsonschema-rs verdict for each of their neighbours.

The verdicts are kept for the length of one walk, by (subschema, value): the same value meets
the same subschema through several paths (a convention and the base it extends).

Where jsonschema-rs is missing or has no verdict (a value it cannot convert, a subschema it
could not compile), the reference engine walks as before. check_document walks again without
pruning if a pruned walk finds nothing, so a disagreement between the engines can cost time but
never hide a problem.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Generator
from typing import Any

from .subschemas import fast_verdict
from .values import is_object

_Keyword = Callable[[Any, Any, Any, Any], Any]

# Pruning pays from this many nodes: below, the whole walk takes milliseconds, and the first
# pruned walk of a schema compiles all its subschemas (0.05-0.25 s for the bundled conventions).
# A caller that describes many documents against one schema pays that once, and then pruning
# pays at any size: `zomgen cases` describes every mutation it derives, and walking every
# option of every union in each took 36 of 43 s deriving OME-NGFF 0.5 image's cases.
PRUNE_FROM_NODES = 64


class _Walk(threading.local):
    """The walk under way in this thread: its schema, the pointers of its subschemas, and the
    verdicts found so far, keyed by (id(subschema), id(value)) and holding the value alive so
    that its id is not reused."""

    root: dict[str, Any] | None = None
    pointers: dict[int, str] | None = None
    verdicts: dict[tuple[int, int], tuple[Any, bool | None]] | None = None


_walk = _Walk()


@contextlib.contextmanager
def pruning(root: dict[str, Any], pointers: dict[int, str]) -> Generator[None]:
    """Within this block, the reference engine (keywords wrapped by `skip_satisfied`) skips the
    subschemas of `root` that jsonschema-rs says a value satisfies."""
    _walk.root, _walk.pointers = root, pointers
    _walk.verdicts = {}
    try:
        yield
    finally:
        _walk.root = _walk.pointers = _walk.verdicts = None


def worth_pruning(document: Any, *, schema_described_before: bool) -> bool:
    """Whether to prune the walk of `document` (a ZOM tree): its schema has described a
    document before in this process, or it has more than PRUNE_FROM_NODES nodes."""
    if schema_described_before:
        return True
    count = 0
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        count += 1
        if count > PRUNE_FROM_NODES:
            return True
        members = node.get("members") if is_object(node) else None
        if is_object(members):
            stack.extend(members.values())
    return False


def skip_satisfied(keyword: _Keyword) -> _Keyword:
    """`keyword`, yielding nothing when the subschema it belongs to holds for the value."""

    def run(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        if _satisfied(schema, instance):
            return
        yield from keyword(validator, value, instance, schema) or ()

    return run


def _satisfied(schema: Any, instance: Any) -> bool:
    verdicts = _walk.verdicts
    if verdicts is None or _walk.root is None or _walk.pointers is None:
        return False
    key = (id(schema), id(instance))
    known = verdicts.get(key)
    if known is not None and known[0] is instance:
        return known[1] is True
    pointer = _walk.pointers.get(id(schema))
    verdict = None if pointer is None else fast_verdict(_walk.root, pointer, instance)
    verdicts[key] = (instance, verdict)
    return verdict is True
