"""Driving a validator page in Chromium, for the browser tests: where Chromium is, the
driver (drive.mjs, Playwright) run over a list of cases, where screenshots go, and which
console lines are the page's own failures."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import ROOT

DRIVER = Path(__file__).with_name("drive.mjs")
DOCS_IMAGES = ROOT / "docs" / "images"


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail(
            "Chromium is not installed: `bash scripts/setup.sh` installs Debian's chromium where "
            "it may (root, apt-get); elsewhere install it (`apt-get install chromium`) and rerun"
        )
    return found


def drive(cases: list[dict[str, Any]], page: str) -> dict[str, dict[str, Any]]:
    """What a user sees on `page` for each case (drive.mjs says what a case and a result hold)."""
    job = {"chromium": chromium(), "page": page, "cases": cases}
    result = subprocess.run(
        ["node", str(DRIVER)],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    return {seen["name"]: seen for seen in json.loads(result.stdout)}


def shot(folder: Path, name: str) -> str:
    """Where a screenshot goes: the test's folder, or docs/images with ZOMGEN_SCREENSHOTS=1."""
    if os.environ.get("ZOMGEN_SCREENSHOTS"):
        DOCS_IMAGES.mkdir(exist_ok=True)
        return str(DOCS_IMAGES / f"site-{name}.png")
    return str(folder / f"{name}.png")


def uncaught(seen: dict[str, Any]) -> list[str]:
    """The console's errors but the browser's own line for a request that failed (which a
    URL that does not answer is expected to cause)."""
    return [e for e in seen["errors"] if "Failed to load resource" not in e]
