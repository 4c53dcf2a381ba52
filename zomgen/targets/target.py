"""What a target is: a class that writes its half of a package from one frozen `Build`.

The compiler reads a convention once into a `Build` (the IR, the bundled schema's text, the
package's name, how the package reaches its run times); each target reads only that and returns
its files, {path inside the package: text}, and what it adds to the package's README (the rows
of its files in the README's table, and its own sections); `package.assemble` puts them
together. A target
never changes the `Build` (it is frozen, and so is the IR) and never reads another target's
files, so targets can be added, left out (`--npm-only` leaves out Python) or run in any order.
docs/architecture.md ("Where to add", a target) shows a small one, which
tests/targets/test_targets.py builds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from zomgen import ir
from zomgen.targets.shipped import RuntimeLink


@dataclass(frozen=True)
class ReadmePart:
    """What a target adds to the package README (package.py writes the rest)."""

    files: tuple[tuple[str, str], ...]  # (file or folder, what it holds) rows of the table
    sections: str = ""  # Markdown sections of its own ("## Python" ...), or none


@dataclass(frozen=True)
class Build:
    """What every target works from."""

    hierarchy: ir.Hierarchy  # the convention's IR (frozen)
    schema_text: str  # the bundled schema.json, as the package ships it
    package: str  # the package's name (its folder's, for `zomgen build -o`)
    runtime: RuntimeLink  # the run times imported, or copied (`--vendor-runtime`)


class Target(Protocol):
    """A language (or any other output) a package is written in."""

    def files(self, build: Build) -> dict[str, str]:
        """{path inside the package: text} of this target's files."""
        ...

    def readme(self, build: Build) -> ReadmePart:
        """Its files' rows in the package README's table, and its sections there."""
        ...
