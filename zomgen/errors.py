"""Errors the compiler reports about its input: one line per problem, `file:pointer: message`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InputProblem:
    """One thing wrong with a schema or an argument: where it is and what to do."""

    file: str
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.pointer or '/'}: {self.message}"


class CompileError(Exception):
    """Bad input that stops compilation; carries every problem found."""

    def __init__(self, problems: list[InputProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @classmethod
    def one(cls, file: str, pointer: str, message: str) -> CompileError:
        return cls([InputProblem(file, pointer, message)])
