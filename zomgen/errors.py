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
        text = f"{self.file}:{self.pointer or '/'}: {self.message}"
        return text.translate(_ONE_LINE)


# Every character that ends a line for some reader (str.splitlines, terminals, editors), and the
# other control characters, spelled as Python escapes: a problem is always one line, even when
# a key or a file name holds a line break.
_ONE_LINE = {
    c: ascii(chr(c))[1:-1]
    for c in (*range(0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029)
    if chr(c) != "\t"
}


class CompileError(Exception):
    """Bad input that stops compilation; carries every problem found."""

    def __init__(self, problems: list[InputProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    @classmethod
    def one(cls, file: str, pointer: str, message: str) -> CompileError:
        return cls([InputProblem(file, pointer, message)])


class Warnings:
    """What a compilation step did safely but not exactly (a type widened, a pattern one run
    time cannot read), each said once, in the order found. Each step returns its own; the
    pipeline hands them to `zomgen build`, which prints them and never fails on them."""

    def __init__(self) -> None:
        self._found: dict[InputProblem, None] = {}

    def add(self, file: str, pointer: str, message: str) -> None:
        self._found.setdefault(InputProblem(file, pointer, message), None)

    def found(self) -> tuple[InputProblem, ...]:
        return tuple(self._found)
