"""What the walk asks of a node where its store cannot list: the members to probe. This is the
interface; members.py answers it from a convention's schema. Apart from members.py so that the
walk of a store that lists imports none of the checks members.py needs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

# name -> the names below it that the walk must also probe (from paths such as "a/b")
Forced = dict[str, "Forced"]


class NamedMembers(Protocol):
    """What the walk asks of a node where its store cannot list: the members to probe, and
    the same for each member. MemberTree answers for one convention; zomgen validate without
    `--schema` answers for whatever each node declares (catalog/probing.py)."""

    def names(self, document: Mapping[str, Any], referenced: bool = False) -> dict[str, Forced]:
        """The member names given for a node with this `document` (name -> names below it);
        with `referenced`, only those the document itself gives (a plate's wells), not the
        schema's fixed names, which may be optional (an image's `labels`)."""
        ...

    def child(self, name: str, forced: Forced | None = None) -> NamedMembers: ...
