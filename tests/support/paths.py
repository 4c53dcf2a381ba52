"""The folders the tests read: the project, its compiler cases, the shared corpus beside it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
GENERATED = ROOT / "generated"
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
