"""Which JSON-Schema-Test-Suite groups compile, pinned: each group either builds (with the
warnings the build printed) or is refused with the one-line message pinned in
`expected_builds.json` (remote references the suite serves from localhost, which zomgen never
fetches; `$dynamicRef`; dialects zomgen does not know). A build may never end in a traceback.
`ZOMGEN_UPDATE_PINS=1` rewrites the pins; review the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.suite_build import Suite

# The suite builds a package per group of the suite once (a minute or more): the full
# suite runs it, the fast subset does not.
pytestmark = pytest.mark.slow

PINS = Path(__file__).with_name("expected_builds.json")
UPDATE = os.environ.get("ZOMGEN_UPDATE_PINS") == "1"


def test_build_outcomes_are_pinned(suite: Suite) -> None:
    outcomes = {b.group.id: {"built": b.ok, "messages": list(b.messages)} for b in suite.built}
    if UPDATE:
        PINS.write_text(json.dumps(outcomes, indent=1) + "\n", encoding="utf-8")
    assert len(outcomes) == 640  # every group of both drafts
    assert outcomes == json.loads(PINS.read_text("utf-8"))


def test_no_build_ends_in_a_traceback(suite: Suite) -> None:
    crashed = [b.group.id for b in suite.built if b.messages[:1] == ("RecursionError",)]
    assert crashed == []
