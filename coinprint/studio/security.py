"""The studio's door: who may talk to it, and what every answer says to the browser.

A request gets through only when

- its ``Host`` is the loopback address or ``localhost`` (a page on another site that rebinds
  its own name to 127.0.0.1 is refused: DNS rebinding);
- it carries the studio's token: ``?token=`` on any URL, the cookie the first visit sets, or an
  ``Authorization: token …`` header (as Jupyter does);
- when it changes something (any method but GET, HEAD and OPTIONS), it comes from the studio's
  own pages (an ``Origin`` of this very address) or carries the CSRF token the pages hold
  (``X-CSRF-Token``), or the token in its ``Authorization`` header (which no other site's page
  can set without a preflight the studio never grants);
- its body is no larger than the command line's input cap (413 otherwise).

Every answer carries a Content-Security-Policy that forbids inline script, and refusals are
one line of JSON, ``{"error": "…"}``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import json
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from functools import cache
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs, urlsplit

from coinprint.caps import MAX_INPUT_BYTES
from coinprint.playback.page import TEMPLATE as REPLAY_TEMPLATE
from coinprint.resources import template_path

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "coinprint_studio_token"
"""The stem of the cookie that carries the token after the first visit: the cookie is
:func:`cookie_name` of the studio's port, because browsers send a cookie to every port of a
host, so one studio's cookie must not overwrite another's."""
CSRF_HEADER = "x-csrf-token"
"""The header the pages send the CSRF token in."""
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
"""The ``Host`` names the studio answers to."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
"""The Content-Security-Policy of every page: scripts and styles from the studio's own files
only, never inline."""


def inline_hashes(html: str, tag: str) -> list[str]:
    """The CSP hashes of the inline ``tag`` elements of ``html`` that run or style (not JSON data)."""
    found = []
    for match in re.finditer(rf"<{tag}(\s[^>]*)?>(.*?)</{tag}>", html, re.S):
        if "application/json" in (match.group(1) or ""):
            continue
        digest = hashlib.sha256(match.group(2).encode("utf-8")).digest()
        found.append(f"'sha256-{base64.b64encode(digest).decode()}'")
    return found


def hashed_policy(html: str) -> str:
    """The Content-Security-Policy of a page made from ``html``: its own inline scripts and
    styles (by their hashes), nothing else inline."""
    scripts = " ".join(inline_hashes(html, "script"))
    styles = " ".join(inline_hashes(html, "style"))
    return (
        f"default-src 'none'; script-src {scripts}; style-src {styles}; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )


@cache
def replay_policy() -> str:
    """The replay pages' policy: the script and style of coinprint's replay template."""
    return hashed_policy(template_path(REPLAY_TEMPLATE).read_text(encoding="utf-8"))


def studio_policy(path: str) -> str:
    """The policy of the answer at ``path``: :func:`replay_policy` under ``/replay/``,
    :data:`CSP` everywhere else."""
    return replay_policy() if path.startswith("/replay/") else CSP


def new_token() -> str:
    """A fresh random token (32 bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def csrf_token(token: str) -> str:
    """The CSRF token the pages hold for ``token`` (derived from it, so it is never stored)."""
    return hmac.new(token.encode(), b"coinprint studio csrf", hashlib.sha256).hexdigest()


def cookie_name(port: int) -> str:
    """The name of the token cookie of the studio listening on ``port``
    (``coinprint_studio_token_8770``)."""
    return f"{COOKIE}_{port}"


def _server_port(scope: Scope) -> int:
    """The port the request came in on (the socket's, not what the ``Host`` header claims)."""
    server = scope.get("server") or ("", 0)
    return int(server[1] or 0)


def _headers(scope: Scope) -> dict[str, str]:
    return {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}


HOST_HEADER = re.compile(r"(?P<name>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(?P<port>[0-9]{1,5}))?")
"""A ``Host`` value as RFC 9110 allows it: a name, an IPv4 address or a bracketed IPv6
address, then an optional numeric port, and nothing else."""


def _host_name(host: str) -> str:
    """``host`` without its port (``[::1]:8770`` → ``[::1]``); an empty string when ``host``
    is not a well-formed ``Host`` value (``127.0.0.1:1@evil.example``), so it matches no name."""
    match = HOST_HEADER.fullmatch(host)
    return match.group("name").lower() if match else ""


class Guard:
    """ASGI middleware enforcing the contract above around ``app``; ``csp`` chooses the
    policy of a path (the replay page's own scripts are allowed by their hashes)."""

    def __init__(self, app: ASGIApp, token: str, *, csp: Callable[[str], str] | None = None) -> None:
        self.app = app
        self.token = token
        self.csrf = csrf_token(token)
        self.csp = csp or (lambda path: CSP)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        refusal, from_query = self._refusal(scope, headers)
        if refusal is not None:
            status, message = refusal
            page = _wants_a_page(headers)
            await _refuse(send, status, message, self.csp(scope.get("path", "")), page=page)
            return
        path = scope.get("path", "")
        policy = self.csp(path)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [
                    (b"content-security-policy", policy.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cache-control", b"no-store"),
                ]
                if from_query:
                    cookie = f"{cookie_name(_server_port(scope))}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                    extra.append((b"set-cookie", cookie.encode()))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, _capped(receive), send_with_headers)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[tuple[int, str] | None, bool]:
        """Why the request is refused (status, message), or None; and whether the token came
        in the query (the answer then sets the cookie)."""
        host = _host_name(headers.get("host", ""))
        if host not in LOOPBACK_HOSTS:
            return (403, "the studio answers only to 127.0.0.1 and localhost"), False
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        by_query = any(hmac.compare_digest(given, self.token) for given in query.get("token", []))
        authorization = headers.get("authorization", "")
        scheme, _, given = authorization.partition(" ")
        by_header = scheme.lower() == "token" and hmac.compare_digest(given.strip(), self.token)
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except CookieError:  # a malformed cookie header is no token
            cookie = SimpleCookie()
        name = cookie_name(_server_port(scope))
        by_cookie = name in cookie and hmac.compare_digest(cookie[name].value, self.token)
        if not (by_query or by_header or by_cookie):
            return (403, "the studio needs its token: open the address it printed (…/?token=…)"), False
        if scope.get("method", "GET") not in SAFE_METHODS:
            origin = headers.get("origin")
            same = origin is not None and _same_origin(origin, headers.get("host", ""))
            if origin is not None and not same:
                return (403, "a request from another site was refused (its Origin is not the studio's)"), False
            if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
                return (403, "a request from another site was refused (Sec-Fetch-Site)"), False
            csrf = hmac.compare_digest(headers.get(CSRF_HEADER, ""), self.csrf)
            if not (same or csrf or by_header):
                return (403, "a change needs the studio's own page (Origin) or its CSRF token"), False
        length = headers.get("content-length", "0")
        if length.isdigit() and int(length) > MAX_INPUT_BYTES:
            return (413, _too_large()), False
        return None, by_query and not by_cookie


def _same_origin(origin: str, host: str) -> bool:
    parts = urlsplit(origin)
    return parts.scheme == "http" and parts.netloc == host and _host_name(parts.netloc) in LOOPBACK_HOSTS


def _too_large() -> str:
    return f"the upload is over the {MAX_INPUT_BYTES // (1024 * 1024)} MB input cap"


class TooLarge(Exception):
    """A request body grew past the input cap while it was read."""


def _capped(receive: Receive) -> Receive:
    """``receive`` that raises :class:`TooLarge` once the body passes the input cap (a body
    sent without a length, in chunks)."""
    seen = 0

    async def capped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_INPUT_BYTES:
                raise TooLarge(_too_large())
        return message

    return capped


def _wants_a_page(headers: dict[str, str]) -> bool:
    """Whether the request is a browser opening a page (it accepts HTML), which is answered
    with a page a person can read rather than JSON."""
    return "text/html" in headers.get("accept", "")


REFUSAL_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>coinprint studio: {title}</title></head>
<body><h1>coinprint studio: {title}</h1>
<p>{message}.</p>
<p>{advice}</p></body></html>
"""
"""The page a browser gets when the door refuses it (plain HTML: no script, no style)."""


def refusal_page(status: int, message: str) -> str:
    """The HTML page for a refusal with ``status`` and the one-line ``message``: what was wrong
    and what to do."""
    if status == 413:
        title, advice = "too large", "Choose a smaller file."
    elif "token" in message:
        title = "open the address it printed"
        advice = (
            "Open the address <code>coinprint studio</code> printed in its terminal, "
            "<code>http://127.0.0.1:PORT/?token=…</code>, with its token. A studio started again "
            "has a new token, so an old bookmark or tab no longer opens it."
        )
    else:
        title, advice = "refused", "Open the studio from the address it printed in its terminal."
    return REFUSAL_PAGE.format(title=title, message=html.escape(message), advice=advice)


async def _refuse(send: Send, status: int, message: str, policy: str, *, page: bool = False) -> None:
    if page:
        body, kind = refusal_page(status, message).encode(), b"text/html; charset=utf-8"
    else:
        body, kind = json.dumps({"error": message}, ensure_ascii=False).encode(), b"application/json"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"content-security-policy", policy.encode()),
                (b"x-content-type-options", b"nosniff"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
