"""Problems, all of them, precisely: node path, pointer inside the node's document, the deepest
cause of a failed anyOf, and the zomgen check keywords (also inside combinators)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import (
    Problem,
    ZomError,
    check_document,
    is_valid,
    load_document,
    validate_store,
)

from tests.support.option_stores import OptionCase, option_cases
from tests.support.runtime import (
    CHECK_COMBINATOR_CASES,
    STORES,
    V3_GROUP,
    base,
    convention,
    encoded_cases,
    ome_image_store,
    v2_array,
    v3_array,
    write_json,
)


def _group(members: dict[str, Any] | None = None, **attributes: Any) -> dict[str, Any]:
    return {**V3_GROUP, "attributes": attributes, "members": members or {}}


def _where(problems: list[Problem]) -> list[tuple[str, str, str]]:
    return [(p.node_path, p.pointer, p.keyword) for p in problems]


def test_deepest_cause_four_levels_of_anyof_down() -> None:
    # base v3: every member is `Node` = anyOf[GroupSpec, ArraySpec]; the broken value sits in
    # the fourth nested anyOf.
    broken = v3_array([2], attributes=[])
    document = _group({"labels": _group({"cells": _group({"0": broken})}), "raw": v3_array([1])})
    problems = check_document(document, base(3))
    assert _where(problems) == [("/labels/cells/0", "/attributes", "type")]
    assert problems[0].message == "[] is not of type 'object'"
    assert problems[0].schema_path.endswith("/$defs/Attributes/type")
    assert str(problems[0]) == "/labels/cells/0: /attributes: [] is not of type 'object'"


def test_every_failing_node_is_reported() -> None:
    document = _group(
        {
            "a": v3_array([2], fill_value={"not": "ok"}, codecs=[]),
            "g": _group({"b": v3_array([-1])}),
            "c": v3_array([3], data_type="Float64"),
        }
    )
    problems = check_document(document, base(3))
    assert sorted(_where(problems)) == [
        ("/a", "/codecs", "minItems"),
        ("/c", "/data_type", "anyOf"),  # no branch is closer than another: the combinator
        ("/g/b", "/shape/0", "minimum"),
    ]
    with pytest.raises(ZomError) as caught:
        raise ZomError(problems)
    assert all(str(p) in str(caught.value) for p in problems)


def test_wrong_kind_of_node_names_the_discriminator() -> None:
    # an array where a group must be: its node_type says it all
    schema = convention("named-members")
    document = _group(
        {"raw": v3_array([2, 2], dimension_names=["y", "x"]), "labels": v3_array([1])}
    )
    problems = check_document(document, schema)
    # not also "'members' is a required property" and the rest of what a group needs
    assert _where(problems) == [("/labels", "/node_type", "const")]
    assert problems[0].message == "'group' was expected (given: 'array')"


def test_ndim_length_v3_and_v2() -> None:
    v3 = _group({"t": v3_array([2, 3], dimension_names=["y"])})
    problems = check_document(v3, convention("xarray-v3"))
    assert _where(problems) == [("/t", "/dimension_names", "x-zomgen-ndim-length")]
    assert problems[0].message == "has 1 item, but the array has 2 dimensions (shape [2, 3])"
    assert (
        problems[0].schema_path
        == "/$defs/zomgen:v3.schema.json/$defs/ArraySpec/x-zomgen-ndim-length/0"
    )
    v2 = {
        "zarr_format": 2,
        "attributes": {},
        "members": {
            "t": {**v2_array([2, 3]), "attributes": {"_ARRAY_DIMENSIONS": ["a", "b", "c"]}}
        },
    }
    problems = check_document(v2, convention("xarray-v2"))
    assert _where(problems) == [("/t", "/attributes/_ARRAY_DIMENSIONS", "x-zomgen-ndim-length")]
    ok = {
        **v2,
        "members": {"t": {**v2_array([2, 3]), "attributes": {"_ARRAY_DIMENSIONS": ["a", "b"]}}},
    }
    assert check_document(ok, convention("xarray-v2")) == []


def test_absent_targets_are_not_an_error_of_the_check() -> None:
    # no dimension_names at all: `required` says so, not the ndim check
    problems = check_document(_group({"t": v3_array([2, 3])}), convention("xarray-v3"))
    assert _where(problems) == [("/t", "", "required")]


def test_ome_image_rules_hold_on_a_real_store(tmp_path: Path) -> None:
    assert validate_store(ome_image_store(tmp_path), convention("ome-0.4-image")) == []


def test_ome_dataset_path_must_name_an_array(tmp_path: Path) -> None:
    store = ome_image_store(tmp_path)
    schema = convention("ome-0.4-image")
    shutil.rmtree(store / "0")
    pointer = "/attributes/multiscales/0/datasets/0/path"
    problems = validate_store(store, schema)
    assert _where(problems) == [("/", pointer, "x-zomgen-member-kind")]
    assert problems[0].message == "'0' names no member of this group"
    write_json(store, "0/.zgroup", {"zarr_format": 2})
    problems = validate_store(store, schema)
    assert _where(problems) == [("/", pointer, "x-zomgen-member-kind")]
    assert problems[0].message == "'0' names a group, not an array"


def test_ome_dataset_ndim_must_equal_len_axes(tmp_path: Path) -> None:
    store = ome_image_store(tmp_path)
    zarray = json.loads((store / "0" / ".zarray").read_text())
    zarray["shape"], zarray["chunks"] = [3, 64, 64], [1, 64, 64]
    write_json(store, "0/.zarray", zarray)
    problems = validate_store(store, convention("ome-0.4-image"))
    assert _where(problems) == [
        ("/", "/attributes/multiscales/0/datasets/0/path", "x-zomgen-member-ndim-length")
    ]
    assert problems[0].message == (
        "'0' has 3 dimensions (shape [3, 64, 64]), but /attributes/multiscales/0/axes has 5 items"
    )


def test_ome_validator_sample_with_a_missing_field(tmp_path: Path) -> None:
    store = STORES / "ome-ngff-validator-test_samples" / "invalid" / "missing_min.zarr"
    problems = validate_store(store, convention("ome-0.4-image"))
    assert problems, "the sample is invalid"
    assert all(p.node_path == "/" and p.pointer.startswith("/attributes/") for p in problems)


_NDIM = "x-zomgen-ndim-length"


@pytest.mark.parametrize(("schema", "document", "valid"), CHECK_COMBINATOR_CASES)
def test_checks_take_part_in_combinators(
    schema: dict[str, Any], document: dict[str, Any], valid: bool
) -> None:
    assert is_valid(document, schema) is valid
    assert (check_document(document, schema, fast=False) == []) is valid
    assert (check_document(document, schema) == []) is valid


def test_a_malformed_check_is_reported_not_ignored() -> None:
    problems = check_document({"shape": [1]}, {_NDIM: "/a"})
    assert _where(problems) == [("/", "", _NDIM)]
    assert "malformed" in problems[0].message


def test_load_document_raises_with_every_problem(tmp_path: Path) -> None:
    store = tmp_path / "s.zarr"
    write_json(store, "zarr.json", V3_GROUP)
    write_json(store, "a/zarr.json", v3_array([2], dimension_names=["x", "y"]))
    write_json(store, "b/zarr.json", v3_array([2]))
    with pytest.raises(ZomError) as caught:
        load_document(store, convention("xarray-v3"))
    assert sorted(_where(caught.value.problems)) == [
        ("/a", "/dimension_names", _NDIM),
        ("/b", "", "required"),
    ]
    assert "2 problems:" in str(caught.value)


def test_a_combinator_of_false_branches_is_one_problem_at_its_value() -> None:
    # JSON Schema's `false` branch fails with no schema path of its own; each is a branch.
    schema = {
        "type": "object",
        "properties": {
            "attributes": {
                "properties": {
                    "x": {"anyOf": [False, False]},
                    "y": {"oneOf": [False, {"not": {}}]},
                }
            }
        },
    }
    problems = check_document(_group(x=1, y=2), schema)
    assert _where(problems) == [("/", "/attributes/x", "anyOf"), ("/", "/attributes/y", "oneOf")]


@pytest.mark.parametrize(
    ("document", "expected"),
    [pytest.param(doc, where, id=label) for label, doc, where in encoded_cases()],
)
def test_problems_come_from_the_option_the_tag_selects(
    document: dict[str, Any], expected: list[tuple[str, str, str]]
) -> None:
    # A CSR matrix missing `indptr` is reported as such, not as "attributes must be empty"
    # (the folder option) nor as a wrong encoding-type (the CSC option).
    assert _where(check_document(document, convention("encoded-elements"))) == expected


def test_a_value_meant_for_no_option_gets_one_part_per_option() -> None:
    # encoding-type "coo_matrix": no option has that tag, so none is meant; the options its
    # other constants leave (the two sparse matrices: the nullable integer, whose
    # encoding-version is the value's, allows no member `data`, a sparse matrix's) each say
    # what they lack, in one line, with the value given
    label, document, _where_expected = encoded_cases()[-1]
    assert label == "an unknown encoding-type"
    (problem,) = check_document(document, convention("encoded-elements"))
    assert problem.message.startswith("{...} (an object with 4 keys) matches none of the anyOf")
    parts = problem.message.split("; ")[1:]
    assert parts == [
        "option 0: /attributes/encoding-type: 'csr_matrix' was expected (given: 'coo_matrix')",
        "option 1: /attributes/encoding-type: 'csc_matrix' was expected (given: 'coo_matrix')",
    ]
    assert "\n" not in str(problem)


def _big_encoded_store() -> dict[str, Any]:
    """200 valid elements of every kind, and three faults among them (pruned.py's walk)."""
    valid = encoded_cases()[0][1]["members"]
    members = {f"{name}{i}": value for i in range(40) for name, value in valid.items()}
    members["X7"] = encoded_cases()[1][1]["members"]["X"]  # a CSR matrix without indptr
    members["c30"] = encoded_cases()[4][1]["members"]["c"]  # ordered: "no"
    members["X39"] = encoded_cases()[-1][1]["members"]["X"]  # encoding-type "coo_matrix"
    return {**V3_GROUP, "members": members}


def test_the_pruned_walk_reports_what_the_whole_walk_reports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from zomgen_runtime import pruned, validation

    document, schema = _big_encoded_store(), convention("encoded-elements")
    asked: list[str] = []
    verdict = pruned.fast_verdict

    def counted(root: dict[str, Any], pointer: str, value: Any) -> bool | None:
        asked.append(pointer)
        return verdict(root, pointer, value)

    monkeypatch.setattr(pruned, "fast_verdict", counted)
    found = check_document(document, schema)
    assert len(asked) > 200  # it did prune: every valid element was judged by jsonschema-rs
    monkeypatch.setattr(validation, "worth_pruning", lambda document, **_: False)
    assert found == check_document(document, schema)
    assert _where(found) == [
        ("/X39", "", "anyOf"),
        ("/X7", "/members", "required"),
        ("/c30", "/attributes/ordered", "type"),
    ]


def test_a_pruned_walk_that_finds_nothing_walks_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # jsonschema-rs saying "holds" of everything (engines that disagree) hides no problem
    from zomgen_runtime import pruned

    monkeypatch.setattr(pruned, "fast_verdict", lambda root, pointer, value: True)
    found = check_document(_big_encoded_store(), convention("encoded-elements"))
    assert ("/X7", "/members", "required") in _where(found)


@pytest.mark.parametrize("version", [2, 3])
def test_a_store_of_the_other_zarr_version_is_one_problem(version: int) -> None:
    # 200 arrays of the other version: each would fail every key of the version it is not;
    # the root's zarr_format says it all
    if version == 2:
        node: dict[str, Any] = v3_array([2], dimension_names=["x"])
        root: dict[str, Any] = {**V3_GROUP}
    else:
        node = v2_array([2], attributes={"_ARRAY_DIMENSIONS": ["x"]})
        root = {"zarr_format": 2, "attributes": {}}
    document = {**root, "members": {f"v{i}": node for i in range(200)}}
    problems = check_document(document, convention(f"xarray-v{version}"))
    assert _where(problems) == [("/", "/zarr_format", "const")]


# ---------------------------------------------------------------- each problem from its own rule


@pytest.fixture(scope="module")
def option_stores(tmp_path_factory: pytest.TempPathFactory) -> list[OptionCase]:
    return option_cases(tmp_path_factory.mktemp("option_stores"))


def test_problems_come_from_the_rule_the_node_broke(option_stores: list[OptionCase]) -> None:
    """A fault inside a union's option is reported from that option: the one the discriminating
    values select, else the one that got deepest before it failed, else one part per option
    saying where each first fails; never the valid members below an option not taken."""
    assert [label for label, *_ in option_stores] == [
        "kinds: valid",
        "kinds: 'A' for 'a', three valid arrays below",
        "kinds: 'A' for 'a', inside a plain folder",
        "kinds: 'c', no members",
        "scalars: valid",
        "scalars: a scalar of shape [2]",
        "OME 0.4: valid",
        "OME 0.4: a label image without multiscales",
        "OME 0.5: valid",
        "OME 0.5: a label image without multiscales",
    ]
    for label, name, document, expected in option_stores:
        problems = check_document(document, convention(name))
        found = [(p.node_path, p.pointer, p.keyword, p.message) for p in problems]
        assert found == expected, label


def test_an_option_is_ruled_out_by_a_closed_object_on_the_way_to_another_options_tag() -> None:
    # the labels folder's attributes allow no key: a label image's attributes.ome.version
    # (three levels down) rules it out, and what is left is the label image's own fault
    from zomgen_runtime.meant import ruled_out

    schema = convention("ome-ngff-05-image")
    options = schema["$defs"]["LabelsMember"]["anyOf"]
    label = {**V3_GROUP, "attributes": {"ome": {"version": "0.5", "image-label": {}}}}
    assert ruled_out(options, {**label, "members": {}}, schema) == {1}


def test_an_option_is_ruled_out_by_its_part_that_refuses_another_options_tag() -> None:
    # a scalar's `_ARRAY_DIMENSIONS: []` is a tag of the scalar option; the dimensioned option
    # gives that path a schema of one item or more, which refuses it
    from zomgen_runtime.meant import ruled_out

    schema = convention("scalar-or-dimensioned")
    options = schema["$defs"]["Variable"]["anyOf"]
    scalar = v2_array([2], attributes={"_ARRAY_DIMENSIONS": []})
    assert ruled_out(options, scalar, schema) == {1}
    assert (
        ruled_out(options, {**scalar, "attributes": {"_ARRAY_DIMENSIONS": ["x"]}}, schema) == set()
    )
