"""The Python side of a package: IR -> view model (lower.py) -> rendered, formatted files."""

from __future__ import annotations

from zomgen import ir
from zomgen.format import format_python
from zomgen.render import render
from zomgen.targets.python.lower import PythonLowering
from zomgen.targets.shipped import RuntimeLink

# (template, file) of the modules rendered from the package's view model
_MODULES = (
    ("python/models.py.j2", "models.py"),
    ("python/documents.py.j2", "documents.py"),
    ("python/__init__.py.j2", "__init__.py"),
)


def python_files(hierarchy: ir.Hierarchy, package: str, runtime: RuntimeLink) -> dict[str, str]:
    """{file name: text} of the Python modules and `py.typed`; they import
    the run time as `runtime` says."""
    view = PythonLowering(hierarchy).package()
    files = {
        name: format_python(render(template, p=view, package=package, runtime=runtime))
        for template, name in _MODULES
    }
    convert = render("python/_convert.py.j2", c=view.convert, runtime=runtime)
    files["_convert.py"] = format_python(convert)
    files["py.typed"] = ""
    return files
