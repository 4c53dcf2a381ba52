"""How zomgen's commands end: the exit codes, and bad input reported one line per problem."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from zomgen.errors import InputProblem

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def report_input(problems: Sequence[InputProblem]) -> int:
    for problem in problems:
        print(f"zomgen: {problem}", file=sys.stderr)
    return EXIT_USAGE
