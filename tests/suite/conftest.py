"""The JSON-Schema-Test-Suite, built once per session for the tests of this folder."""

from __future__ import annotations

import pytest

from tests.support.suite_build import Suite, build_suite


@pytest.fixture(scope="session")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Suite:
    """Every JSON-Schema-Test-Suite group built into a package (tests/support/suite_build.py)."""
    return build_suite(tmp_path_factory.mktemp("suite"))
