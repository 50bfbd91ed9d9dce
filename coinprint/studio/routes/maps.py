"""The Maps page's API: the fair-map search of ``board GAME --fair``, streamed as server-sent
events while it plays."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from coinprint.errors import CoinprintError
from coinprint.studio import outputs
from coinprint.studio.outputs import requested_game
from coinprint.studio.routes.answers import EVENT_STREAM_HEADERS, event, fields


class _Stopped(Exception):
    """The page that asked for a search went away: the search stops at its next step."""


async def fair_events(request: Request) -> Response:
    game = requested_game(request.path_params["game"])
    plan = await run_in_threadpool(outputs.fair_plan, game, fields(request))
    return StreamingResponse(fair_stream(plan), media_type="text/event-stream", headers=EVENT_STREAM_HEADERS)


async def fair_stream(plan: outputs.FairPlan) -> AsyncIterator[str]:
    """A fair-map search as server-sent events: ``progress`` after each candidate measured,
    then ``done`` (the map's spec, seed and re-measured figure) or ``error`` (one line). The
    search runs in a thread of its own; when the page goes away it stops at its next step."""
    loop = asyncio.get_running_loop()
    messages: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
    stopped = threading.Event()

    def post(name: str, doc: dict[str, Any]) -> None:
        if stopped.is_set():
            raise _Stopped()
        loop.call_soon_threadsafe(messages.put_nowait, (name, doc))

    def search() -> None:
        try:
            try:
                found = outputs.fair_map(plan, lambda done, total: post("progress", {"done": done, "total": total}))
            except CoinprintError as exc:
                post("error", {"error": " ".join(str(exc).split())})
            else:
                post("done", {"spec": found.spec, "seed": found.seed, "line": found.line})
        except (_Stopped, RuntimeError):  # the page went away, or the studio stopped under it
            pass

    threading.Thread(target=search, name="coinprint-fair-search", daemon=True).start()
    try:
        while True:
            name, doc = await messages.get()
            yield event(name, doc)
            if name != "progress":
                return
    finally:
        stopped.set()


ROUTES = [Route("/api/fair/{game}/events", fair_events)]
