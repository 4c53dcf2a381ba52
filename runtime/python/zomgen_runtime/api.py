"""What a generated package calls: read a store, check it, and either return the document or
raise with every problem."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from .consolidated import TRUSTED
from .members import named_member_tree
from .problems import NotFullyChecked, Problem, StoreError, Unchecked, ZomError
from .reading import read_hierarchy
from .rules import RULE_BUDGET, over_budget
from .validation import check_document

_REQUIRED = re.compile(r"^'(.*)' is a required property$")


@dataclass(frozen=True)
class Checked:
    """A hierarchy read and checked: its document, every problem, and every place that could
    not be read (`unchecked`); `verdict(problems, unchecked)` (problems.py) says which of valid,
    invalid or not fully checked that is."""

    document: dict[str, Any]
    problems: list[Problem]
    unchecked: list[Unchecked]


def check_hierarchy(
    store: object,
    schema: dict[str, Any],
    path: str = "",
    *,
    use_consolidated: bool = True,
    check_consolidated: bool = True,
    allow_redirects_to: Collection[str] = (),
) -> Checked:
    """Read the hierarchy at `path` of `store` and check it under `schema`; raises StoreError
    only when the store is unusable. Groups the store cannot list are read by the members the
    convention names, and are `unchecked`. Consolidated metadata is compared with the nodes'
    own files, each disagreement a problem, unless `check_consolidated=False` trusts it."""
    read = read_hierarchy(
        store,
        path,
        use_consolidated=use_consolidated,
        check_consolidated=check_consolidated,
        expected=named_member_tree(schema),
        allow_redirects_to=allow_redirects_to,
    )
    if read.document is None:
        raise StoreError(read.problems)
    found = check_document(read.document, schema)
    problems = read.problems + _not_explained(
        [p for p in found if not over_budget(p)], read.problems
    )
    # a rule stopped by the engine's iteration budget found nothing wrong: its place is unchecked
    budget = [
        Unchecked(p.node_path, p.pointer, p.message, RULE_BUDGET) for p in found if over_budget(p)
    ]
    return Checked(read.document, problems, read.unchecked() + budget)


def validate_store(
    store: object,
    schema: dict[str, Any],
    path: str = "",
    *,
    use_consolidated: bool = True,
    check_consolidated: bool = True,
    named_members_only: bool = False,
    allow_redirects_to: Collection[str] = (),
) -> list[Problem]:
    """Every problem of the hierarchy at `path` of `store` under `schema` ([] when it follows
    the convention). Raises StoreError when the store is unusable, and NotFullyChecked when no
    problem was found but a group could not be listed (a static HTTP server), unless
    `named_members_only` accepts that only the members the convention names are read."""
    checked = check_hierarchy(
        store,
        schema,
        path,
        use_consolidated=use_consolidated,
        check_consolidated=check_consolidated,
        allow_redirects_to=allow_redirects_to,
    )
    held = _held(checked.unchecked, named_members_only)
    if not checked.problems and held:
        raise NotFullyChecked(held)
    return checked.problems


def load_document(
    store: object,
    schema: dict[str, Any],
    path: str = "",
    *,
    use_consolidated: bool = True,
    check_consolidated: bool = True,
    named_members_only: bool = False,
    allow_redirects_to: Collection[str] = (),
) -> dict[str, Any]:
    """The hierarchy's ZOM document, checked; raises ZomError listing every problem
    (StoreError when the store is unusable, NotFullyChecked as `validate_store` does)."""
    checked = check_hierarchy(
        store,
        schema,
        path,
        use_consolidated=use_consolidated,
        check_consolidated=check_consolidated,
        allow_redirects_to=allow_redirects_to,
    )
    if checked.problems:
        raise ZomError(checked.problems)
    held = _held(checked.unchecked, named_members_only)
    if held:
        raise NotFullyChecked(held)
    return checked.document


def _held(unchecked: list[Unchecked], named_members_only: bool) -> list[Unchecked]:
    """The places left unchecked that the caller did not accept: `named_members_only` accepts
    groups that could not be listed, not rules left unevaluated; `check_consolidated=False`
    accepted the nodes' files left unread (the only way there is such a place)."""
    accepted = {TRUSTED, "unlisted"} if named_members_only else {TRUSTED}
    return [u for u in unchecked if u.reason not in accepted]


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
