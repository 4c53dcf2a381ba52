"""Last step for generated Python: ruff removes unused imports and formats, then the text is
parsed once more as a sanity check. Ruff runs isolated from any user configuration, so the
output depends only on zomgen (and the pinned ruff minor version)."""

from __future__ import annotations

import ast
import subprocess

from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]

from zomgen.errors import CompileError

# The run time is a third-party import wherever zomgen runs: isort would call it first-party
# in a folder that holds a `zomgen_runtime/` (runtime/python), and sort it apart.
_COMMON = [
    "--isolated",
    "--line-length",
    "100",
    "--target-version",
    "py311",
    "--config",
    'lint.isort.known-third-party = ["zomgen_runtime"]',
]


def _ruff(args: list[str], text: str) -> str:
    result = subprocess.run(
        [find_ruff_bin(), *args, *_COMMON, "--stdin-filename", "generated.py", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        # A zomgen bug, but still one line on stderr and exit 2, never a traceback.
        detail = " ".join((result.stderr or result.stdout or "no message").split())[:300]
        raise CompileError.one(
            "(generated Python)",
            "",
            f"ruff {args[0]} cannot read the generated code (a zomgen bug: please report it with the "
            f"schema): {detail}",
        )
    return result.stdout


def format_python(text: str) -> str:
    text = _ruff(["check", "--fix", "--select", "F401,I001,RUF022", "--exit-zero", "--quiet"], text)
    text = _ruff(["format", "--quiet"], text)
    try:
        ast.parse(text)
    except (SyntaxError, RecursionError, MemoryError) as exc:
        # Python's parser reads at most 200 nested brackets. Deep types are named aliases
        # (ir/flatten.py), so this is a last guard: one line and exit 2, not a traceback.
        raise CompileError.one(
            "(generated Python)",
            "",
            f"the generated code nests deeper than Python's parser reads "
            f"({exc.__class__.__name__}: {getattr(exc, 'msg', exc)}) though zomgen names deep "
            "types (a zomgen bug: please report it with the schema)",
        ) from None
    return text
