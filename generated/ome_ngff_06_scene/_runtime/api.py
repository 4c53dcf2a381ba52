"""What a generated package calls: read a store, check it, and either return the document or
raise with every problem."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from .members import named_member_tree
from .problems import Problem, StoreError, ZomError
from .reading import read_document
from .validation import check_document

_REQUIRED = re.compile(r"^'(.*)' is a required property$")


def validate_store(
    store: object,
    schema: dict[str, Any],
    path: str = "",
    *,
    use_consolidated: bool = True,
    allow_redirects_to: Collection[str] = (),
) -> list[Problem]:
    """Every problem of the hierarchy at `path` of `store` under `schema` ([] when it follows
    the convention). Raises StoreError only when the store is unusable."""
    document, problems = read_document(
        store,
        path,
        use_consolidated=use_consolidated,
        expected=named_member_tree(schema),
        allow_redirects_to=allow_redirects_to,
    )
    if document is None:
        raise StoreError(problems)
    return problems + _not_explained(check_document(document, schema), problems)


def load_document(
    store: object,
    schema: dict[str, Any],
    path: str = "",
    *,
    use_consolidated: bool = True,
    allow_redirects_to: Collection[str] = (),
) -> dict[str, Any]:
    """The hierarchy's ZOM document, checked; raises ZomError listing every problem
    (StoreError when the store is unusable)."""
    document, problems = read_document(
        store,
        path,
        use_consolidated=use_consolidated,
        expected=named_member_tree(schema),
        allow_redirects_to=allow_redirects_to,
    )
    if document is None:
        raise StoreError(problems)
    problems += _not_explained(check_document(document, schema), problems)
    if problems:
        raise ZomError(problems)
    return document


def _not_explained(checked: list[Problem], read: list[Problem]) -> list[Problem]:
    """Schema problems minus those a read problem already explains: a member left out because
    it could not be read is not also "a required property" of its parent."""
    unreadable = {p.node_path for p in read}
    if not unreadable:
        return checked
    kept: list[Problem] = []
    for problem in checked:
        found = _REQUIRED.match(problem.message) if problem.keyword == "required" else None
        if found is not None and problem.pointer == "/members":
            parent = problem.node_path.rstrip("/")
            if f"{parent}/{found.group(1)}" in unreadable:
                continue
        kept.append(problem)
    return kept
