"""The jinja2 environment every target renders with: strict, deterministic, no autoescape
(the output is code, and every value that comes from a schema is escaped by the target before
it reaches a template)."""

from __future__ import annotations

import json
from functools import cache

import jinja2

from zomgen.resources import templates_dir


def _pystr(text: str) -> str:
    """A type expression or key as a Python string literal; invisible and unpaired characters
    are escaped, so nothing in it can be misread (ruff PLE2515) or fail to encode."""
    readable = json.dumps(text, ensure_ascii=False)
    return readable if all(c.isprintable() for c in readable) else json.dumps(text)


def _mdcode(text: str) -> str:
    """Text inside a Markdown table cell's code span: no backtick or pipe can end it."""
    safe = text.replace("`", "'").replace("|", "\\|").replace("\n", " ")
    return safe.encode("utf-8", "replace").decode("utf-8")


def _mdtext(text: str) -> str:
    """Schema prose in Markdown, with HTML defused and unencodable characters replaced."""
    safe = text.replace("<", "&lt;").replace(">", "&gt;")
    return safe.encode("utf-8", "replace").decode("utf-8")


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["pystr"] = _pystr
    env.filters["mdcode"] = _mdcode
    env.filters["mdtext"] = _mdtext
    return env


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)
