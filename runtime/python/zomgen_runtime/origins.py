"""Which origins (scheme, host, port) an HTTP redirect may lead a read to.

A store's server could send the reader anywhere: to a service on the user's own machine
(127.0.0.1:5432), to a host of their intranet, whose answers would then be echoed in problems.
So a redirect is followed only to the store's own origin, and to the origins the user names
with `allow_redirects_to` (`"https://files.example.org"`, or `"*"` for any): data portals that
hand their files out from another host are allowed by name.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Collection

Origin = tuple[str, str, int]  # scheme, host (lower case), port
ANY_ORIGIN = "*"


def origin_of(url: str) -> tuple[Origin, urllib.parse.SplitResult]:
    """(scheme, host, port) of an http(s) URL, and its parts; ValueError for anything else (a
    port out of range or not a number, a broken `[IPv6]` host, another scheme)."""
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("not an http or https URL with a host")
    return (scheme, parts.hostname, parts.port or (443 if scheme == "https" else 80)), parts


def show(origin: Origin) -> str:
    scheme, host, port = origin
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{port}"


class RedirectPolicy:
    """The origins a read of the store at `store_url` may be redirected to."""

    def __init__(self, store_url: str, allowed: Collection[str] = ()) -> None:
        self.home = origin_of(store_url)[0]
        self.any = ANY_ORIGIN in allowed
        self.others: set[Origin] = set()
        for text in allowed:
            if text == ANY_ORIGIN:
                continue
            try:
                origin, parts = origin_of(text)
            except ValueError as exc:
                raise ValueError(
                    f"{text!r} is not an origin (https://host[:port]): {exc}"
                ) from None
            if parts.path.strip("/") or parts.query or parts.fragment:
                raise ValueError(f"{text!r} is not an origin: an origin has no path")
            self.others.add(origin)

    def refuses(self, origin: Origin) -> str | None:
        """Why a redirect to `origin` is not followed, or None when it may be."""
        if self.any or origin == self.home or origin in self.others:
            return None
        return (
            f"a redirect to another origin ({show(origin)}) is not followed; name it in "
            "allow_redirects_to (zomgen validate --allow-redirects-to) to follow it"
        )
