"""Where zomgen's own data lives: the jinja2 templates and the bundled base ZOM schemas.

In a wheel they are shipped as `zomgen/_data/...` (see pyproject's force-include); in a source
checkout or editable install they are read from the project root, where the layout keeps them.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _data_dir(*parts: str) -> Path:
    shipped = _PACKAGE.joinpath("_data", *parts)
    if shipped.is_dir():
        return shipped
    return _PACKAGE.parent.joinpath(*parts)


def templates_dir() -> Path:
    return _data_dir("templates")


def conventions_dir() -> Path:
    """The bundled conventions' schemas and the catalog that maps declarations to them."""
    return _data_dir("schemas")


def base_schemas_dir() -> Path:
    return _data_dir("schemas", "zom")


def runtime_dir() -> Path:
    """The Python run time (the installed `zomgen_runtime`), copied verbatim into a package
    built with `--vendor-runtime`."""
    import zomgen_runtime

    return Path(zomgen_runtime.__file__).resolve().parent


def runtime_ts_package_dir() -> Path:
    """The npm package @zomgen/runtime (runtime/typescript): its package.json and `src/`."""
    return _data_dir("runtime", "typescript")


def runtime_ts_dir() -> Path:
    """The TypeScript run time's sources, copied into a package built with `--vendor-runtime`
    and into every validator page's bundle."""
    return runtime_ts_package_dir() / "src"
