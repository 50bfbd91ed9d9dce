"""What every route shares: reading a request's fields, upload or JSON, and answering with a
download, a server-sent event or a one-line refusal (``{"error": "…"}``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from coinprint.caps import MAX_INPUT_BYTES
from coinprint.errors import CoinprintError, UsageError
from coinprint.studio import outputs
from coinprint.studio.outputs import UnknownGame
from coinprint.studio.play import RefusedMove
from coinprint.studio.security import TooLarge

NAME_CHARS = 100
"""Longest file name a download or an upload is called by."""


class NoSession(Exception):
    """A play id the studio does not know."""


class NoRecord(Exception):
    """An uploaded record's id the studio does not know (or no longer keeps)."""


def error(message: str, status: int = 400) -> JSONResponse:
    """A refusal: one line of JSON ``{"error": "…"}``."""
    line = " ".join(str(message).split())
    return JSONResponse({"error": line[:600]}, status_code=status)


async def _usage_error(request: Request, exc: Exception) -> Response:
    status = 404 if isinstance(exc, UnknownGame) else 422 if isinstance(exc, RefusedMove) else 400
    return error(str(exc), status)


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 400
    words = {404: f"no page or API at {request.url.path}", 405: f"{request.method} is not allowed here"}
    return error(words.get(status, str(exc)), status)


async def _too_large(request: Request, exc: Exception) -> Response:
    return error(str(exc), 413)


async def _internal(request: Request, exc: Exception) -> Response:
    return error(f"internal error: {type(exc).__name__}: {exc} (please report this)", 500)


async def _not_found(request: Request, exc: Exception) -> Response:
    return error(str(exc), 404)


async def _no_record(request: Request, exc: Exception) -> Response:
    return error("no such record; open it again on the Replay page", 404)


HANDLERS: Mapping[Any, Callable[[Request, Exception], Any]] = {
    HTTPException: _http_error,
    NoSession: _not_found,
    NoRecord: _no_record,
    CoinprintError: _usage_error,
    TooLarge: _too_large,
    Exception: _internal,
}
"""How each failure is answered: a refused value 400 (an unknown game 404, a refused move
422), an unknown id 404, a body over the cap 413, anything else 500."""


def fields(request: Request) -> dict[str, str]:
    """The query's fields, each given once (a field given twice is refused)."""
    found: dict[str, str] = {}
    for key, value in request.query_params.multi_items():
        if key == "token":
            continue
        if key in found:
            raise UsageError(f"{key} is given twice")
        found[key] = value
    return found


def split_file(name: str, formats: Sequence[str]) -> tuple[str, str]:
    """``cointable.pdf`` → (``cointable``, ``pdf``); the format must be one of ``formats``."""
    stem, dot, suffix = name.rpartition(".")
    if not dot or suffix not in formats:
        raise UsageError(f"{name!r}: end the name in {' or '.join('.' + f for f in formats)}")
    return stem, suffix


def download(data: bytes, fmt: str, name: str) -> Response:
    """``data`` shown in the browser as a file called ``name`` (made safe)."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "-", name)[:NAME_CHARS]
    return Response(
        data,
        media_type=outputs.MEDIA_TYPES.get(fmt, "application/octet-stream"),
        headers={"content-disposition": f'inline; filename="{safe}"'},
    )


def source_name(text: str | None, default: str) -> str:
    """A name for an upload, for messages only: its last part, printable, short."""
    name = (text or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable())[:NAME_CHARS]
    return name or default


async def upload(request: Request) -> tuple[bytes, str | None]:
    """The upload: the body itself, or the first file of a multipart form; and its name."""
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form(max_files=1, max_fields=10, max_part_size=MAX_INPUT_BYTES)
        for value in form.values():
            if not isinstance(value, str):
                return await value.read(), value.filename
        raise UsageError("the form has no file; send the drawing as a file field or as the body")
    return await request.body(), None


async def json_object(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object (an empty body is ``{}``)."""
    try:
        doc = json.loads(await request.body() or b"{}")
    except ValueError as exc:
        raise UsageError(f"the request is not JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise UsageError("the request must be a JSON object")
    return doc


def event(name: str, doc: Mapping[str, Any]) -> str:
    """One server-sent event called ``name`` carrying ``doc`` as JSON."""
    return f"event: {name}\ndata: {json.dumps(doc)}\n\n"


EVENT_STREAM_HEADERS = {"x-accel-buffering": "no"}
"""Headers of a server-sent event stream (a proxy passes each event on as it comes)."""
