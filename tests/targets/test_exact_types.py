"""Exact types on the shape users meet most: a group with named members plus pattern members
(an OME-Zarr image: `labels` beside levels `0`, `1`, ...), open attribute objects, and keys
that can never be present. Each valid hierarchy is written as a TypedDict literal, built
through the dataclass constructors and written as a TypeScript literal; all five checkers must
accept it. Each mistake is written once per line and every checker that can see it must reject
that line (mypy runs with `typeddict-unknown-key` off, as the package README asks:
docs/exact-types.md). The build's warning for a keyword without `type` is checked here too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.checkers import MYPY_AS_USERS_RUN_IT
from tests.support.cli import build_package
from tests.support.packages import import_package
from tests.support.paths import ROOT

pytestmark = [pytest.mark.checkers, pytest.mark.node]

PYTHON = sys.executable
BIN = Path(PYTHON).parent
TSC = ROOT / "node_modules" / ".bin" / "tsc"

IMAGE = {
    "title": "Ome image",
    "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
    "properties": {
        "attributes": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "retired": False,
                "axes": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            },
            "required": ["axes"],
        },
        "members": {
            "properties": {"labels": {"$ref": "#/$defs/Labels"}},
            "patternProperties": {"^[0-9]+$": {"$ref": "#/$defs/Level"}},
            "additionalProperties": False,
        },
    },
    "$defs": {
        "Level": {
            "allOf": [{"$ref": "urn:zom:v3#/$defs/ArraySpec"}],
            "properties": {
                "data_type": {"enum": ["uint8", "uint16"]},
                # an extension point narrowed to a record of the convention's own
                "codecs": {
                    "type": "array",
                    "items": {"anyOf": [{"const": "bytes"}, {"$ref": "#/$defs/BytesCodec"}]},
                },
            },
        },
        "BytesCodec": {
            "type": "object",
            "properties": {
                "name": {"const": "bytes"},
                "configuration": {
                    "type": "object",
                    "properties": {"endian": {"enum": ["little", "big"]}},
                    "additionalProperties": False,
                },
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        "Labels": {
            "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
            "properties": {
                "attributes": {
                    "type": "object",
                    "properties": {"labels": {"type": "array", "items": {"type": "string"}}},
                    "required": ["labels"],
                }
            },
        },
    },
}

LEVEL = (
    '{"zarr_format": 3, "node_type": "array", "attributes": {}, "shape": [4, 4], '
    '"data_type": "uint8", "chunk_grid": "regular", "chunk_key_encoding": "default", '
    '"fill_value": 0, "codecs": ["bytes"]}'
)
LABELS = (
    '{"zarr_format": 3, "node_type": "group", "attributes": {"labels": ["cells"], "x": 1}, '
    '"members": {}}'
)
ATTRS = '{"axes": ["y", "x"], "name": "img", "omero": {"channels": []}}'
GOOD = (
    f'{{"zarr_format": 3, "node_type": "group", "attributes": {ATTRS}, '
    f'"members": {{"labels": {LABELS}, "0": {LEVEL}, "1": {LEVEL}}}}}'
)
# (mistake, whether mypy can see it). mypy, run as the package README asks, reads the open
# attributes (not below a union) as their listed keys and sees those mistakes; it reads the
# members beside `labels` as other keys, and a union holding an open object as any dict
# (`MypyFallback`, docs/exact-types.md), and sees nothing there.
MISTAKES = [
    (GOOD.replace('"uint8"', '"float64"', 1), False),  # a level's data_type (pattern member)
    (GOOD.replace('"name": "img"', '"name": 5'), True),  # a listed key of an open object
    (GOOD.replace('"name": "img"', '"retired": true'), True),  # a key never allowed
    (GOOD.replace('"axes": ["y", "x"], ', ""), True),  # a required key of an open object
    (GOOD.replace('"node_type": "group"', '"node_type": "array"', 1), True),  # the root's kind
    # a codec the convention forbids, in a level (beside `labels`) and in `"bytes" | BytesCodec`
    (GOOD.replace('["bytes"]', '[{"name": "zstd"}]', 1), False),
]

MODELS_GOOD = """
level = models.Level(attributes={}, shape=(4, 4), data_type="uint8", chunk_grid="regular",
    chunk_key_encoding="default", fill_value=0, codecs=("bytes",), storage_transformers=None,
    dimension_names=None)
labels = models.Labels(attributes=models.LabelsAttributes(labels=("cells",), extras={"x": 1}),
    members={})
image = models.OmeImage(
    attributes=models.OmeImageAttributes(axes=("y", "x"), name="img", extras={"omero": {}}),
    members={"labels": labels, "0": level, "1": level},
)
record_level = models.Level(attributes={}, shape=(4, 4), data_type="uint8", chunk_grid="regular",
    chunk_key_encoding="default", fill_value=0, storage_transformers=None, dimension_names=None,
    codecs=(models.BytesCodec(name="bytes", configuration=models.BytesCodecConfiguration()),))
"""
# Mistakes in models, one per line (checked by the Python checkers): the narrowed extension
# point holds the convention's record, not any `NamedConfig`.
MODEL_MISTAKES = [
    (
        'models.Level(attributes={}, shape=(4,), data_type="uint8", chunk_grid="regular", '
        'chunk_key_encoding="default", fill_value=0, storage_transformers=None, '
        'dimension_names=None, codecs=(models.NamedConfig(name="zstd"),))'
    ),
    'models.BytesCodec(name="zstd")',
]


def _python(json_text: str) -> str:
    return json_text.replace("true", "True").replace("false", "False").replace("null", "None")


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("exact")
    (work / "image.json").write_text(json.dumps(IMAGE), encoding="utf-8")
    build_package("image.json", "ome_image", cwd=work)
    py = ["from ome_image import documents, models", ""]
    py.append(f"good: documents.OmeImage = {_python(GOOD)}")
    py += [line for line in MODELS_GOOD.strip().splitlines()]
    first_mistake = len(py) + 1
    py += [f"bad{n}: documents.OmeImage = {_python(doc)}" for n, (doc, _m) in enumerate(MISTAKES)]
    py += [f"bad_model{n} = {model}" for n, model in enumerate(MODEL_MISTAKES)]
    (work / "cases.py").write_text("\n".join(py) + "\n", encoding="utf-8")
    ts = ['import type { OmeImage } from "./ome_image/types.js";', ""]
    ts.append(f"export const good: OmeImage = {GOOD};")
    ts += [f"export const bad{n}: OmeImage = {doc};" for n, (doc, _m) in enumerate(MISTAKES)]
    (work / "cases.ts").write_text("\n".join(ts) + "\n", encoding="utf-8")
    (work / "lines.json").write_text(json.dumps({"python": first_mistake, "ts": 4}))
    (work / "pyrightconfig.json").write_text(json.dumps({"typeCheckingMode": "strict"}))
    (work / "tsconfig.json").write_text(
        json.dumps({"extends": (ROOT / "tsconfig.json").as_posix(), "include": ["cases.ts"]})
    )
    return work


CHECKS = {
    "mypy": (
        [PYTHON, "-m", "mypy", "--strict", *MYPY_AS_USERS_RUN_IT, "--no-incremental", "cases.py"],
        r"^cases\.py:(\d+): error",
    ),
    "pyright": (
        [str(BIN / "pyright"), "--pythonpath", PYTHON, "cases.py"],
        r"cases\.py:(\d+):\d+ - error",
    ),
    "pyrefly": (
        [
            str(BIN / "pyrefly"),
            "check",
            "--preset",
            "default",
            "--output-format",
            "min-text",
            "--python-interpreter-path",
            PYTHON,
            "cases.py",
        ],
        r"^ERROR cases\.py:(\d+):",
    ),
    "ty": (
        [
            str(BIN / "ty"),
            "check",
            "--python",
            str(BIN.parent),
            "--output-format",
            "concise",
            "cases.py",
        ],
        r"^cases\.py:(\d+):\d+: error",
    ),
    "tsc": (
        [str(TSC), "-p", "tsconfig.json", "--pretty", "false"],
        r"^cases\.ts\((\d+),\d+\): error",
    ),
}


@pytest.mark.parametrize("checker", sorted(CHECKS))
def test_valid_hierarchies_pass_and_mistakes_fail(work: Path, checker: str) -> None:
    command, pattern = CHECKS[checker]
    result = _run(command, work)
    output = result.stdout + result.stderr
    failing = {int(m.group(1)) for m in re.finditer(pattern, output, re.MULTILINE)}
    first = json.loads((work / "lines.json").read_text())["ts" if checker == "tsc" else "python"]
    mistakes = {
        first + n for n, (_doc, mypy_sees) in enumerate(MISTAKES) if checker != "mypy" or mypy_sees
    }
    if checker != "tsc":
        mistakes |= {first + len(MISTAKES) + n for n in range(len(MODEL_MISTAKES))}
    assert failing == mistakes, output


def test_a_narrowed_extension_point_parses_as_the_record(work: Path) -> None:
    """`parse` builds the convention's record at a narrowed `codecs`, a string stays a string,
    and `dump` gives the document back."""
    ome_image = import_package(work, "ome_image")
    for codecs in (["bytes"], [{"name": "bytes"}], [{"name": "bytes", "configuration": {}}]):
        for endian in ("little", "big"):
            document = json.loads(GOOD)
            level = {**json.loads(LEVEL), "codecs": codecs}
            if isinstance(codecs[0], dict) and "configuration" in codecs[0]:
                level["codecs"] = [{"name": "bytes", "configuration": {"endian": endian}}]
            document["members"]["0"] = level
            model = ome_image.parse(document)
            codec = model.members["0"].codecs[0]
            if codecs == ["bytes"]:
                assert codec == "bytes"
            else:
                assert type(codec) is ome_image.models.BytesCodec, codec
            assert ome_image.dump(model) == document


def test_a_keyword_without_type_is_typed_open_and_warned_about(tmp_path: Path) -> None:
    schema = {
        "title": "Tagged",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {
            "attributes": {
                "type": "object",
                "properties": {"tag": {"$ref": "#/$defs/Tag"}},
            }
        },
        "$defs": {"Tag": {"properties": {"id": {"type": "integer"}}, "required": ["id"]}},
    }
    (tmp_path / "tagged.json").write_text(json.dumps(schema), encoding="utf-8")
    result = build_package("tagged.json", "tagged", cwd=tmp_path)
    warning = (
        "zomgen: warning: "
        f"{tmp_path / 'tagged.json'}:/$defs/Tag: `properties` applies to objects only and no "
        "`type` is given, so any JSON value is valid here and is typed so: "
        'add `"type": "object"` if only objects are meant'
    )
    assert result.stderr.splitlines() == [warning]
    documents = (tmp_path / "tagged" / "documents.py").read_text("utf-8")
    # `[]`, `"x"`, `null` are valid tags: the alias is the object or any other JSON type.
    assert (
        'Tag: TypeAlias = "str | float | bool | list[JsonValue] | TagObject | MypyFallback | None"'
        in documents
    )
