"""The run times every package carries verbatim: zomgen/runtime as `_runtime/` (Python) and
zomgen/runtime_ts as `_runtime_ts/` (TypeScript)."""

from __future__ import annotations

from zomgen.resources import runtime_dir, runtime_ts_dir


def runtime_files() -> dict[str, str]:
    return {
        f"_runtime/{source.name}": source.read_text("utf-8")
        for source in sorted(runtime_dir().glob("*.py"))
    }


def runtime_ts_files() -> dict[str, str]:
    return {
        f"_runtime_ts/{source.name}": source.read_text("utf-8")
        for source in sorted(runtime_ts_dir().glob("*.ts"))
    }
