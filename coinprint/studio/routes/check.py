"""The Check page's API: a drawing checked as ``validate layout`` checks it (kept in memory
for printing and playing), its report picture, and the files named with ``--watch``, checked
again whenever they are saved (server-sent events)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from coinprint.commands import check_layout_data
from coinprint.errors import CoinprintError, UsageError
from coinprint.fileio import read_bytes
from coinprint.studio import outputs
from coinprint.studio.outputs import Check, requested_game
from coinprint.studio.routes.answers import EVENT_STREAM_HEADERS, error, event, fields, source_name, upload
from coinprint.studio.state import Studio, Watched, studio_of


async def check(request: Request) -> Response:
    given = fields(request)
    name = source_name(given.pop("name", None), "drawing")
    data, filename = await upload(request)
    if not data:
        raise UsageError("the drawing is empty; send an SVG or GeoJSON file")
    source = source_name(filename, name)
    checked = await run_in_threadpool(outputs.check_drawing, data, source, given)
    studio = studio_of(request)
    drawing = studio.keep(studio.drawings, checked)
    return JSONResponse({**checked.to_json(), "id": drawing, "report": f"/api/drawing/{drawing}/report.svg"})


async def report(request: Request) -> Response:
    checked = studio_of(request).drawings.get(request.path_params["id"])
    if checked is None:
        return error("no such checked drawing", 404)
    return Response(await run_in_threadpool(checked.report_svg), media_type="image/svg+xml")


async def watch_list(request: Request) -> Response:
    watched = studio_of(request).watched
    return JSONResponse({"files": [{"number": n, "name": w.path.name, "game": w.game} for n, w in enumerate(watched)]})


async def watch_events(request: Request) -> Response:
    studio = studio_of(request)
    number = request.path_params["number"]
    if not 0 <= number < len(studio.watched):
        return error(f"no watched file {number}; the studio watches {len(studio.watched)}", 404)
    watched = studio.watched[number]
    given = fields(request)
    game = given.pop("game", None) or watched.game
    outputs.refuse_unknown(given, set(), "watch")
    if game is not None:
        requested_game(game)
    return StreamingResponse(
        watch_stream(studio, watched, game), media_type="text/event-stream", headers=EVENT_STREAM_HEADERS
    )


def check_file(path: Path, game: str | None) -> Check:
    """``validate layout`` of a file named on the command line (``--watch``)."""
    lines: list[str] = []
    checked = check_layout_data(read_bytes(path), str(path), game, "mm", None, lines.append)
    return Check.of(path.name, checked, lines)


def watched_check(studio: Studio, number: str, game: str) -> Check | None:
    """The check of watched file ``number`` (text, as a layout spec names it) for ``game``;
    None when the studio watches no such file."""
    if not number.isdigit() or int(number) >= len(studio.watched):
        return None
    watched = studio.watched[int(number)]
    return check_file(watched.path, watched.game or game)


def _check_event(studio: Studio, watched: Watched, game: str | None) -> str:
    """One server-sent event: the watched file's check as JSON (or why it cannot be read);
    a valid drawing is kept, under the id the page prints and plays it by."""
    try:
        checked = check_file(watched.path, game)
        doc: dict[str, Any] = checked.to_json()
        doc["report_svg"] = checked.report_svg().decode("utf-8")
        if checked.checked.valid:
            doc["id"] = studio.keep(studio.drawings, checked)
    except CoinprintError as exc:
        doc = {"source": watched.path.name, "valid": False, "error": " ".join(str(exc).split())}
    return event("check", doc)


async def watch_stream(studio: Studio, watched: Watched, game: str | None) -> AsyncIterator[str]:
    """The watched file's check now, and again whenever it is saved (watched through its
    folder, so an editor that saves by replacing the file is seen too). The watcher is in
    place before the first check is sent, so no save after it is missed."""
    from watchfiles import awatch

    target = watched.path.resolve()
    stop = anyio.Event()
    changes = awatch(target.parent, stop_event=stop, debounce=studio.debounce_ms, step=20, recursive=False)
    pending = asyncio.ensure_future(anext(changes))
    await asyncio.sleep(0)  # the task has started: the watcher is set up
    try:
        yield await run_in_threadpool(_check_event, studio, watched, game)
        while True:
            found = await pending
            pending = asyncio.ensure_future(anext(changes))
            if any(Path(changed).resolve() == target for _, changed in found):
                yield await run_in_threadpool(_check_event, studio, watched, game)
    finally:
        stop.set()
        pending.cancel()


ROUTES = [
    Route("/api/check", check, methods=["POST"]),
    Route("/api/drawing/{id}/report.svg", report),
    Route("/api/watch", watch_list),
    Route("/api/watch/{number:int}/events", watch_events),
]
