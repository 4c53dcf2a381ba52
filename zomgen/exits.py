"""How zomgen's commands end: the exit codes, and bad input reported one line per problem."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from zomgen.errors import InputProblem

# 0 valid (or done), 1 invalid (or a stale package), 2 unusable input, 3 not fully checked:
# nothing wrong was found in what was read, but not everything could be read or checked.
EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNCHECKED = 0, 1, 2, 3


def report_input(problems: Sequence[InputProblem]) -> int:
    for problem in problems:
        print(f"zomgen: {problem}", file=sys.stderr)
    return EXIT_USAGE
