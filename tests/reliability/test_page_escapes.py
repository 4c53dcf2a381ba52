"""The validator page's index.html escapes what it embeds.

Before (issue 53): the schema file's name went into index.html as it was, in an HTML comment and
a paragraph, so a schema named `x--><img src=x onerror=...>.json` ended the comment and its
script ran when the page opened. Now every value the page embeds is HTML-escaped.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.support.cli import run_zomgen
from tests.support.node import require_toolchain
from tests.support.paths import ROOT

HOSTILE = "x--><img src=x onerror=alert(1)><!--y.json"


def test_a_hostile_schema_file_name_is_escaped_in_the_page(tmp_path: Path) -> None:
    require_toolchain()
    schema = tmp_path / HOSTILE
    shutil.copy(ROOT / "schemas" / "xarray-v3" / "schema.json", schema)
    result = run_zomgen("site", schema, "-o", tmp_path / "site")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site" / "index.html").read_text("utf-8")
    assert "<img" not in page and "onerror=alert(1)>" not in page
    assert "x--&gt;&lt;img src=x onerror=alert(1)&gt;&lt;!--y.json" in page
    # one comment, closed where zomgen closes it
    assert re.findall(r"<!--.*?-->", page, re.DOTALL)[0].endswith("; do not edit -->")
