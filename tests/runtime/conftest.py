"""Fixtures of the runtime tests."""

from __future__ import annotations

import sys
from pathlib import Path

# runtime_support sits beside this file; the top-level tests import their conftest the same way.
sys.path.insert(0, str(Path(__file__).resolve().parent))
