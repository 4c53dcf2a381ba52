"""The jinja2 environment every target renders with: strict, deterministic, no autoescape
(the output is code, and every value that comes from a schema is escaped by the target before
it reaches a template)."""

from __future__ import annotations

import json
from functools import cache

import jinja2

from zomgen.resources import templates_dir


def _pystr(text: str) -> str:
    """A type expression as a Python string literal (a forward reference)."""
    return json.dumps(text, ensure_ascii=False)


def _mdcode(text: str) -> str:
    """Text inside a Markdown table cell's code span: no backtick or pipe can end it."""
    return text.replace("`", "'").replace("|", "\\|").replace("\n", " ")


def _mdtext(text: str) -> str:
    """Schema prose in Markdown, with HTML and template-looking syntax defused."""
    return text.replace("<", "&lt;").replace(">", "&gt;")


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
