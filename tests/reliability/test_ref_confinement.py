"""`$ref` reads schemas only from the schema's folder and below, the `-I` folders and the bundled
bases: a file anywhere else on the machine is refused at the `$ref`'s pointer, on `build` and on
`validate --schema`, and none of its content reaches a generated file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import run_zomgen

SECRET = "hunter2-do-not-copy"


def _schema(folder: Path, ref: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"attributes": {"$ref": ref}},
    }
    path = folder / "schema.json"
    path.write_text(json.dumps(schema))
    return path


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    """A home folder with a secret (JSON and YAML) beside a project holding the schema."""
    secrets = tmp_path / "home"
    secrets.mkdir()
    (secrets / "secret.json").write_text(json.dumps({"type": "object", "title": SECRET}))
    (secrets / "credentials.yaml").write_text(f"type: object\ntitle: {SECRET}\n")
    store = tmp_path / "store"
    store.mkdir()
    (store / "zarr.json").write_text('{"zarr_format": 3, "node_type": "group", "attributes": {}}')
    return {"root": tmp_path, "secrets": secrets, "project": tmp_path / "project", "store": store}


def _refs(layout: dict[str, Path]) -> dict[str, str]:
    secret = layout["secrets"] / "secret.json"
    return {
        "parent folders": "../home/secret.json",
        "absolute path": str(secret),
        "file URL": secret.as_uri(),
        "YAML file": "../home/credentials.yaml",
        "dot segments below": "sub/../../home/secret.json",
    }


@pytest.mark.parametrize(
    "kind", ["parent folders", "absolute path", "file URL", "YAML file", "dot segments below"]
)
def test_a_ref_out_of_the_search_folders_is_refused_on_build_and_validate(
    layout: dict[str, Path], kind: str
) -> None:
    ref = _refs(layout)[kind]
    schema = _schema(layout["project"], ref)
    out = layout["root"] / "pkg"
    built = run_zomgen("build", str(schema), "-o", str(out))
    assert built.returncode == 2
    assert f"{schema}:/properties/attributes/$ref:" in built.stderr
    assert "outside the folders zomgen reads schemas from" in built.stderr
    assert "Traceback" not in built.stderr and SECRET not in built.stderr
    assert not out.exists()
    checked = run_zomgen("validate", str(layout["store"]), "--schema", str(schema))
    assert checked.returncode == 2
    assert "/properties/attributes/$ref:" in checked.stderr + checked.stdout
    assert SECRET not in checked.stderr + checked.stdout


def test_the_same_files_are_read_from_a_subfolder_or_an_include_folder(
    layout: dict[str, Path],
) -> None:
    """What the user names is read: a file below the schema's folder, a folder given with -I."""
    project = layout["project"]
    (project / "defs").mkdir(parents=True)
    (project / "defs" / "attrs.json").write_text(json.dumps({"type": "object", "title": "ok"}))
    below = _schema(project, "defs/attrs.json")
    assert run_zomgen("build", str(below), "-o", str(layout["root"] / "a")).returncode == 0
    outside = _schema(layout["root"] / "other", "../home/secret.json")
    built = run_zomgen(
        "build", str(outside), "-I", str(layout["secrets"]), "-o", str(layout["root"] / "b")
    )
    assert built.returncode == 0, built.stderr
    assert SECRET in (layout["root"] / "b" / "schema.json").read_text()
