"""How a package reaches its run times: by importing the Python distribution zomgen-runtime
(runtime/python) and the npm package @zomgen/runtime (runtime/typescript); or, built with
`--vendor-runtime`, by carrying copies of them as `_runtime/` and `_runtime_ts/`."""

from __future__ import annotations

import json
from dataclasses import dataclass

from zomgen.resources import runtime_dir, runtime_ts_dir, runtime_ts_package_dir

TS_PACKAGE = "@zomgen/runtime"


@dataclass(frozen=True)
class RuntimeLink:
    """What the generated code imports its run times as, and which versions it asks for."""

    module: str  # Python: `zomgen_runtime`, or `._runtime` for a copy
    ts_module: str  # TypeScript: `@zomgen/runtime`, or `./_runtime_ts` for a copy
    # `major.minor` of zomgen-runtime the package calls (`require` at import); None for copies
    api: str | None
    # the version of @zomgen/runtime an npm package depends on (`^` of it); None for copies
    ts_version: str | None

    @property
    def vendored(self) -> bool:
        return self.api is None

    @property
    def requirement(self) -> str:
        """The pip requirement of the run time (`zomgen-runtime>=1.3,<2`); "" for copies."""
        if self.api is None:
            return ""
        major = int(self.api.split(".")[0])
        return f"zomgen-runtime>={self.api},<{major + 1}"


VENDORED = RuntimeLink("._runtime", "./_runtime_ts", None, None)


def runtime_link(vendored: bool) -> RuntimeLink:
    if vendored:
        return VENDORED
    import zomgen_runtime

    major, minor = zomgen_runtime.__version__.split(".")[:2]
    return RuntimeLink("zomgen_runtime", TS_PACKAGE, f"{major}.{minor}", runtime_ts_version())


def runtime_ts_version() -> str:
    """@zomgen/runtime's version, from its package.json."""
    manifest = json.loads((runtime_ts_package_dir() / "package.json").read_text("utf-8"))
    version = manifest["version"]
    assert isinstance(version, str), "runtime/typescript/package.json has no version"
    return version


def runtime_files() -> dict[str, str]:
    """The Python run time's modules as `_runtime/` (`--vendor-runtime`)."""
    return {
        f"_runtime/{source.name}": source.read_text("utf-8")
        for source in sorted(runtime_dir().glob("*.py"))
    }


def runtime_ts_files() -> dict[str, str]:
    """The TypeScript run time's sources as `_runtime_ts/` (`--vendor-runtime`, and pages)."""
    return {
        f"_runtime_ts/{source.name}": source.read_text("utf-8")
        for source in sorted(runtime_ts_dir().glob("*.ts"))
    }
