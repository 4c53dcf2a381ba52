"""Why a schema admits no value, in words that name each contradicting keyword and where it
stands: the message of every `Impossible` the parser raises, and the problems of a root that
admits none."""

from __future__ import annotations

import json

from zomgen.errors import InputProblem
from zomgen.schema.atoms import Atom, Expander, Impossible


def no_branch(x: Expander, atom: Atom, keyword: str, failures: list[Impossible]) -> Impossible:
    """Why no branch of a union holds. A branch that failed inside a key (a required key
    that admits no value) went further than one whose own keywords contradict the rest (a
    group branch of an array): only those are reported, and one such branch is reported as
    it is. A keyword every branch contradicts is named once, against each branch."""
    where = f"{x.where_text(atom.schema)}/{keyword}"
    deep = [f for f in failures if any(at for at, _why in f.causes)]
    if len(deep) == 1:
        return deep[0]
    if deep:
        failures = deep
    common = [
        c
        for c in (failures[0].clauses if failures else ())
        if all(c in f.clauses for f in failures)
    ]
    if common:
        text = clause_text(common[0])
        others = [
            ", ".join(clause_text(c) for c in f.clauses if c != common[0]) or f.reason
            for f in failures
        ]
        return Impossible(
            f"{text} contradicts every branch of the `{keyword}` at {where}: " + "; ".join(others),
            (common[0], (f"`{keyword}`", where)),
        )
    reasons = "; ".join(
        f"branch {i + 1}: {f.reason or 'admits no value'}" for i, f in enumerate(failures)
    )
    return Impossible(f"no branch of the `{keyword}` at {where} holds: {reasons}")


def contradiction(
    x: Expander, atom: Atom, keyword: str, partners: list[tuple[Atom, str]]
) -> Impossible:
    """`keyword` of `atom` contradicts what `partners` (atom, keyword) say together."""
    if not partners:
        text, where = clause(x, atom, keyword)
        return Impossible(f"{text} at {where} admits no value")
    clauses = tuple(clause(x, a, k) for a, k in partners) + (clause(x, atom, keyword),)
    *first, last = clauses
    return Impossible(
        f"{', '.join(clause_text(c) for c in first)} contradicts {clause_text(last)}",
        clauses,
    )


def clause(x: Expander, atom: Atom, keyword: str) -> tuple[str, str]:
    value = atom.schema.get(keyword)
    if keyword == "type" and isinstance(value, (str, list)):
        shown = " | ".join(map(str, value)) if isinstance(value, list) else value
    else:
        shown = json.dumps(value, ensure_ascii=False)
        if len(shown) > 60:
            shown = shown[:57] + "..."
    return f"`{keyword}: {shown}`", f"{x.where_text(atom.schema)}/{keyword}"


def clause_text(clause: tuple[str, str]) -> str:
    text, where = clause
    return f"{text} ({where})"


def disjoint(seen: list[tuple[Atom, str, set[str]]], these: set[str]) -> list[tuple[Atom, str]]:
    """The earlier keywords that contradict `these` on their own, else all of them (together
    they leave nothing `these` allows)."""
    alone = [(a, k) for a, k, values in seen if not values & these]
    return alone or [(a, k) for a, k, _values in seen]


def root_problems(file: str, exc: Impossible) -> list[InputProblem]:
    """One problem per required key that admits no value, each naming the keywords that
    contradict and where each stands."""
    if not exc.causes:
        return [InputProblem(file, "", "the root schema admits no value")]
    return [
        InputProblem(
            file,
            "",
            "the root schema admits no value"
            + (f": {at} (required) cannot hold one" if at else "")
            + f": {reason}",
        )
        for at, reason in exc.causes
    ]
