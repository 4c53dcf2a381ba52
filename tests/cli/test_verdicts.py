"""A verdict is one of valid, invalid or not fully checked, and exit 0 means every node was read
and every rule that applies was checked (zomgen/outcome.py; issue: "a green result means
checked").

Each way zomgen used to say "valid" without having looked is tried as a user meets it: a store
written by xarray served by a static server that answers 404 for folders (read through
`zomgen validate URL --schema`, a generated package's `load`/`validate`, and by declared
conventions), `--only` matching no node, a store that declares nothing, OME-Zarr versions that
do not exist, contradict the layout, or have no schema, and a v3-only convention declared on a
v2 node.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_zomgen
from tests.support.http_stores import Served, serve
from tests.support.packages import imported
from tests.support.paths import CORPUS, ROOT
from tests.support.runtime import xarray_dataset
from zomgen.catalog.declarations import Matcher
from zomgen.catalog.dispatch import check_declared
from zomgen.catalog.entries import load_catalogs
from zomgen.exits import EXIT_FAILED, EXIT_OK, EXIT_UNCHECKED

PROJ = "f17cb550-5864-4468-aeb7-f3180cfb622f"


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two xarray v3 datasets written by xarray, unconsolidated: `ok.zarr`, and `broken.zarr`
    whose data variable `mask` has `dimension_names` of the wrong length, a member no
    convention names (found only by listing the root)."""
    root = tmp_path_factory.mktemp("verdicts")
    for name in ("ok.zarr", "broken.zarr"):
        xarray_dataset().to_zarr(root / name, zarr_format=3, consolidated=False)
    metadata = root / "broken.zarr" / "mask" / "zarr.json"
    document = json.loads(metadata.read_text())
    document["dimension_names"] = ["y"]
    metadata.write_text(json.dumps(document))
    return root


@pytest.fixture(scope="module")
def servers(stores: Path) -> Iterator[tuple[Served, Served]]:
    """The stores behind a server that lists folders, and one that answers 404 for them."""
    with serve(stores, listing=True) as listed, serve(stores, listing=False) as unlisted:
        yield listed, unlisted


def _validate(*args: str | Path) -> tuple[int, str]:
    result = run_zomgen("validate", *args)
    assert not result.stderr.strip() or "Traceback" not in result.stderr, result.stderr
    return result.returncode, result.stdout


# ---------------------------------------------------------------- a server that cannot list


@pytest.mark.parametrize("named", [True, False], ids=["--schema", "declared"])
def test_a_server_that_cannot_list_is_never_valid(
    servers: tuple[Served, Served], named: bool
) -> None:
    """The broken variable is found where the server lists; where it cannot, the verdict is
    "not fully checked" (exit 3) naming the group read by its named members only, never
    "valid"; --named-members-only accepts that, exit 0, and still says what was not read. By
    declarations, an xarray dataset is known by its members: with none read, nothing is
    declared, which no option accepts."""
    listed, unlisted = servers
    schema = ("--schema", "xarray-v3") if named else ()
    code, out = _validate(f"{listed.url}/broken.zarr", *schema)
    assert code == EXIT_FAILED and "/mask" in out, out
    code, out = _validate(f"{listed.url}/ok.zarr", *schema)
    assert code == EXIT_OK and "valid" in out.splitlines()[-1], out
    for store in ("ok.zarr", "broken.zarr"):
        code, out = _validate(f"{unlisted.url}/{store}", *schema)
        assert code == EXIT_UNCHECKED, out
        last = out.splitlines()[-1]
        assert "not fully checked" in last and ": valid" not in last, out
        assert "not checked: /: /members: the store cannot list" in out, out
        code, out = _validate(f"{unlisted.url}/{store}", *schema, "--named-members-only")
        assert "not checked (--named-members-only): /: /members" in out, out
        if named:
            assert code == EXIT_OK, out
            assert "valid as far as read (1 place accepted unread)" in out.splitlines()[-1], out
        else:
            assert code == EXIT_UNCHECKED, out
            assert "not checked: /: no convention of the catalog is declared or used" in out


def test_json_says_the_status_and_what_was_not_checked(servers: tuple[Served, Served]) -> None:
    _listed, unlisted = servers
    url = f"{unlisted.url}/ok.zarr"
    unlisted_root = ("/", "unlisted")
    nothing = ("/", "nothing declared")
    for schema, held in ((("--schema", "xarray-v3"), []), ((), [nothing])):
        code, out = _validate(url, *schema, "--format", "json")
        report = json.loads(out)
        assert code == EXIT_UNCHECKED
        assert (report["status"], report["valid"], report["problems"]) == (
            "not fully checked",
            False,
            [],
        )
        found = [(u["node_path"], u["reason"], u["accepted"]) for u in report["unchecked"]]
        assert found == [(*place, False) for place in [unlisted_root, *held]]
        code, out = _validate(url, *schema, "--format", "json", "--named-members-only")
        report = json.loads(out)
        found = [(u["node_path"], u["reason"], u["accepted"]) for u in report["unchecked"]]
        assert found == [(*place, False) for place in held] + [(*unlisted_root, True)]
        status = "not fully checked" if held else "valid"
        assert (code, report["status"], report["valid"]) == (
            EXIT_UNCHECKED if held else EXIT_OK,
            status,
            not held,
        )


def test_a_generated_package_raises_rather_than_says_valid(
    servers: tuple[Served, Served],
) -> None:
    """`load` and `validate` of the xarray-v3 package over the server that cannot list raise
    NotFullyChecked (a ZomError); with named_members_only=True they read the named members."""
    listed, unlisted = servers
    with imported(ROOT / "generated", "xarray_v3") as (package,):
        assert package.validate(f"{listed.url}/ok.zarr") == []
        assert len(package.validate(f"{listed.url}/broken.zarr")) > 0
        for call in (package.load, package.validate):
            with pytest.raises(package.NotFullyChecked) as raised:
                call(f"{unlisted.url}/ok.zarr")
            assert isinstance(raised.value, package.ZomError)
            assert [(u.node_path, u.reason) for u in raised.value.unchecked] == [("/", "unlisted")]
            assert "not fully checked: 1 place not read or checked" in str(raised.value)
        assert package.validate(f"{unlisted.url}/ok.zarr", named_members_only=True) == []
        loaded = package.load(f"{unlisted.url}/broken.zarr", named_members_only=True)
        # the variable nobody names is not there: exactly what the option accepts
        assert "mask" not in loaded.members


# ---------------------------------------------------------------- --only, nothing declared


def test_only_that_matches_nothing_checks_nothing(stores: Path) -> None:
    store = stores / "ok.zarr"
    for schema in (("--schema", "xarray-v3"), ()):
        code, out = _validate(store, *schema, "--only", "/**/labels")
        assert code == EXIT_UNCHECKED, out
        assert "--only /**/labels matches no node of the hierarchy read" in out, out
    # --only naming a node: with --schema its problems (none); by declarations, the node the
    # user meant is named as the one where nothing is declared
    code, out = _validate(store, "--schema", "xarray-v3", "--only", "/mask")
    assert code == EXIT_OK, out
    code, out = _validate(store, "--only", "/mask")
    assert code == EXIT_UNCHECKED, out
    assert "not checked: /mask: no convention of the catalog is declared or used here" in out


def test_a_store_that_declares_nothing_is_not_valid(tmp_path: Path) -> None:
    import zarr

    group = zarr.open_group(tmp_path / "plain.zarr", mode="w", zarr_format=3)
    group.create_array("a", shape=(2,), dtype="int32")
    code, out = _validate(tmp_path / "plain.zarr")
    assert code == EXIT_UNCHECKED, out
    assert "not checked: /: no convention of the catalog is declared or used here" in out, out
    assert out.splitlines()[-1].endswith(
        "not fully checked (1 place not checked) (2 nodes read, 0 convention checks on 0 nodes)"
    ), out


# ---------------------------------------------------------------- OME-Zarr versions


def _group(zarr_format: int, attributes: dict[str, Any]) -> dict[str, Any]:
    node: dict[str, Any] = {"zarr_format": zarr_format, "attributes": attributes}
    return node | ({"node_type": "group"} if zarr_format == 3 else {})


def _image(version: str) -> dict[str, Any]:
    return {"version": version, "multiscales": []}


# (case, node, expected problems (pointer, message start), expected unchecked (pointer, reason))
VERSION_CASES: list[tuple[str, dict[str, Any], list[tuple[str, str]], list[tuple[str, str]]]] = [
    (
        "a version never published",
        _group(3, {"ome": _image("0.6rc02")}),
        [("/attributes/ome/version", "'0.6rc02' is not an OME-Zarr version")],
        [],
    ),
    (
        "a dev version never published",
        _group(3, {"ome": _image("0.6.dev42")}),
        [("/attributes/ome/version", "'0.6.dev42' is not an OME-Zarr version")],
        [],
    ),
    (
        "a version that is no text",
        _group(3, {"ome": _image(0.5)}),  # type: ignore[arg-type]
        [("/attributes/ome/version", "an OME-Zarr version is a string")],
        [],
    ),
    (
        "0.4 under ome",
        _group(3, {"ome": _image("0.4")}),
        [("/attributes/ome/version", "OME-Zarr 0.4 keeps its metadata in the attributes")],
        [],
    ),
    (
        "0.5 in the 0.4 layout",
        _group(2, {"multiscales": [{"version": "0.5", "axes": [], "datasets": []}]}),
        [("/attributes/multiscales/0/version", "OME-Zarr 0.5 keeps its metadata under `ome`")],
        [],
    ),
    (
        "a 0.5 plate in the 0.4 layout",
        _group(2, {"plate": {"version": "0.5"}}),
        [("/attributes/plate/version", "OME-Zarr 0.5 keeps its metadata under `ome`")],
        [],
    ),
    (
        "0.5 in Zarr v2",
        _group(2, {"ome": _image("0.5")}),
        [("/zarr_format", "OME-Zarr 0.5 is stored in Zarr v3 only")],
        [],
    ),
    (
        "0.4 in Zarr v3",
        _group(3, {"well": {"version": "0.4", "images": []}}),
        [("/zarr_format", "OME-Zarr 0.4 is stored in Zarr v2 only")],
        [],
    ),
    (
        "a 0.6 development version, no schema",
        _group(3, {"ome": _image("0.6.dev4")}),
        [],
        [("/attributes/ome/version", "no schema")],
    ),
    (
        "a published version without a schema",
        _group(2, {"multiscales": [{"version": "0.3", "axes": [], "datasets": []}]}),
        [],
        [("/attributes/multiscales/0/version", "no schema")],
    ),
    (
        "a version newer than the catalog knows",
        _group(3, {"ome": _image("1.0")}),
        [],
        [("/attributes/ome/version", "no schema")],
    ),
    (
        "a scene without a version",
        _group(3, {"ome": {"scene": {}}}),
        [],
        [("/attributes", "undeclared")],
    ),
]


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(load_catalogs([]))


@pytest.mark.parametrize(
    ("node", "problems", "unchecked"),
    [case[1:] for case in VERSION_CASES],
    ids=[case[0] for case in VERSION_CASES],
)
def test_ome_zarr_versions(
    matcher: Matcher,
    node: dict[str, Any],
    problems: list[tuple[str, str]],
    unchecked: list[tuple[str, str]],
) -> None:
    report = check_declared(node, matcher)
    found = [(p.pointer, p.message) for p in report.problems]
    assert len(found) == len(problems), found
    for (pointer, message), (want_pointer, want_start) in zip(found, problems, strict=True):
        assert (pointer, message[: len(want_start)]) == (want_pointer, want_start)
    assert [(u.pointer, u.reason) for u in report.unchecked] == unchecked
    expected = "invalid" if problems else "not fully checked"
    assert report.status == expected
    for u in report.unchecked:
        if u.reason == "no schema":  # the message names the version declared
            version = node["attributes"].get("ome", {}).get("version") or "0.3"
            assert f"OME-Zarr {version}," in u.message


def test_the_released_versions_with_a_schema_are_checked(matcher: Matcher) -> None:
    """0.4, 0.5, 0.6rc0, 0.6 and 0.9.dev1 have schemas: their version is never a note of its
    own."""
    for node in (
        _group(2, {"multiscales": [{"version": "0.4", "axes": [], "datasets": []}]}),
        _group(3, {"ome": _image("0.5")}),
        _group(3, {"ome": _image("0.6rc0")}),
        _group(3, {"ome": _image("0.6")}),
        _group(3, {"ome": _image("0.9.dev1")}),
    ):
        report = check_declared(node, matcher)
        assert not [p for p in report.problems if p.keyword == "ome-zarr version"]
        assert report.unchecked == [] and report.nodes, report.to_json()


def test_a_v3_only_convention_declared_on_a_v2_node(matcher: Matcher) -> None:
    node = _group(2, {"zarr_conventions": [{"uuid": PROJ}], "proj:code": "EPSG:4326"})
    report = check_declared(node, matcher)
    assert report.problems == [] and report.status == "not fully checked"
    (note,) = report.unchecked
    assert (note.pointer, note.reason) == ("/zarr_format", "zarr format")
    assert "proj: is defined for Zarr v3 nodes only" in note.message
    assert "this Zarr v2 node is not checked as proj:" in note.message


def test_the_cli_exits_by_verdict_on_ome_stores(tmp_path: Path) -> None:
    """A one-node store of each kind, through the command: 1 for a wrong version, 3 for one
    without a schema."""
    for name, version, expected in (("wrong", "0.6rc02", EXIT_FAILED), ("later", "0.9.dev2", 3)):
        store = tmp_path / f"{name}.zarr"
        store.mkdir()
        (store / "zarr.json").write_text(json.dumps(_group(3, {"ome": _image(version)})))
        code, out = _validate(store)
        assert code == expected, out
        assert "/attributes/ome/version" in out, out


# ---------------------------------------------------------------- which convention found it


def test_each_problem_names_the_convention_that_found_it(tmp_path: Path) -> None:
    """By declarations several conventions may apply to one node: each problem says whose rule
    it broke, with the version, in JSON and in text (and an OME-Zarr version problem is the
    version policy's)."""
    bad_crs = CORPUS / "stores/geozarr-conformance/invalid/invalid-bad-crs.zarr"
    code, out = _validate(bad_crs, "--format", "json")
    report = json.loads(out)
    assert code == EXIT_FAILED
    assert {p["convention"] for p in report["problems"]} == {"proj: v1"}, report["problems"]
    code, out = _validate(bad_crs)
    assert all(
        line.endswith("[proj: v1]") for line in out.splitlines() if line.startswith("/ar: /")
    )
    store = tmp_path / "wrong.zarr"
    store.mkdir()
    (store / "zarr.json").write_text(json.dumps(_group(3, {"ome": _image("0.6rc02")})))
    code, out = _validate(store, "--format", "json")
    assert [(p["keyword"], p["convention"]) for p in json.loads(out)["problems"]] == [
        ("ome-zarr version", "OME-Zarr")
    ]


# ---------------------------------------------------------------- attributes alone


def test_attributes_alone_are_held_to_every_rule_that_needs_only_them(tmp_path: Path) -> None:
    """A plate whose well path does not match its row and column is refused as a store; as
    attributes alone (`--attributes`, what conformance runners call) it is refused the same
    way, and its members, unknown there, are not asked for."""
    plate = {
        "columns": [{"name": "1"}, {"name": "2"}],
        "rows": [{"name": "A"}],
        "wells": [{"path": "A/2", "rowIndex": 0, "columnIndex": 0}],
        "field_count": 1,
    }
    for version in ("0.5", "0.6rc0"):
        attributes = {"ome": {"version": version, "plate": plate}}
        (tmp_path / "plate.json").write_text(json.dumps(attributes))
        code, out = _validate("--attributes", tmp_path / "plate.json", "--format", "json")
        report = json.loads(out)
        assert code == EXIT_FAILED, out
        found = [(p["pointer"], p["keyword"]) for p in report["problems"]]
        assert found == [("/attributes/ome/plate/wells/0/path", "x-zomgen-equal")], found
        store = tmp_path / f"plate-{version}.zarr"
        store.mkdir()
        (store / "zarr.json").write_text(json.dumps(_group(3, attributes)))
        code, out = _validate(store, "--format", "json")
        as_store = [(p["pointer"], p["keyword"]) for p in json.loads(out)["problems"]]
        assert ("/attributes/ome/plate/wells/0/path", "x-zomgen-equal") in as_store
