"""Branches of a generated `_convert.py` that no value can reach: a union's `if` whose
condition implies an earlier one's (every value it lets through was taken before), a
condition that is always true before the last branch, a `case` seen twice."""

from __future__ import annotations

import ast


def unreachable_branches(source: str) -> list[str]:
    """One line per unreachable branch: the function, the line, and the earlier branch."""
    found: list[str] = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef):
            continue
        earlier: list[tuple[int, frozenset[str]]] = []
        for statement in function.body:
            if isinstance(statement, ast.If) and not statement.orelse:
                mine = _conjuncts(statement.test)
                for line, theirs in earlier:
                    if theirs <= mine:
                        found.append(
                            f"{function.name}: the branch at line {statement.lineno} is taken "
                            f"by the one at line {line} first"
                        )
                        break
                earlier.append((statement.lineno, mine))
            elif isinstance(statement, ast.Match):
                seen: set[str] = set()
                for case in statement.cases:
                    pattern = ast.unparse(case.pattern)
                    if pattern in seen:
                        found.append(f"{function.name}: `case {pattern}` twice")
                    seen.add(pattern)
    return found


def _conjuncts(test: ast.expr) -> frozenset[str]:
    """The parts of an `and` (an always-true test has none: every value meets it)."""
    if isinstance(test, ast.Constant) and test.value is True:
        return frozenset()
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return frozenset(ast.unparse(v) for v in test.values)
    return frozenset({ast.unparse(test)})
