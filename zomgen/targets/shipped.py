"""How a package reaches its run time: by importing the distributions `zomgen-runtime` (Python,
runtime/python) and, for now, a copy of zomgen/runtime_ts as `_runtime_ts/` (TypeScript); or,
built with `--vendor-runtime`, a copy of the Python one as `_runtime/`."""

from __future__ import annotations

from dataclasses import dataclass

from zomgen.resources import runtime_dir, runtime_ts_dir


@dataclass(frozen=True)
class RuntimeLink:
    """What the generated Python imports its run time as, and what it asks of it."""

    module: str  # `zomgen_runtime`, or `._runtime` for a vendored copy
    # `major.minor` of zomgen-runtime the package calls (`require` at import); None if vendored
    api: str | None

    @property
    def vendored(self) -> bool:
        return self.api is None

    @property
    def requirement(self) -> str:
        """The pip requirement of the run time (`zomgen-runtime>=1.0,<2`)."""
        if self.api is None:
            return ""
        major = int(self.api.split(".")[0])
        return f"zomgen-runtime>={self.api},<{major + 1}"


def runtime_link(vendored: bool) -> RuntimeLink:
    if vendored:
        return RuntimeLink("._runtime", None)
    import zomgen_runtime

    major, minor = zomgen_runtime.__version__.split(".")[:2]
    return RuntimeLink("zomgen_runtime", f"{major}.{minor}")


def runtime_files() -> dict[str, str]:
    """The Python run time's modules as `_runtime/` (`--vendor-runtime`)."""
    return {
        f"_runtime/{source.name}": source.read_text("utf-8")
        for source in sorted(runtime_dir().glob("*.py"))
    }


def runtime_ts_files() -> dict[str, str]:
    return {
        f"_runtime_ts/{source.name}": source.read_text("utf-8")
        for source in sorted(runtime_ts_dir().glob("*.ts"))
    }
