"""The Replay page's API: a record uploaded (kept in memory), its replay page and
time-lapses, and the same for a game played in the studio."""

from __future__ import annotations

import html
import importlib.util
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from coinprint.caps import MAX_INPUT_BYTES
from coinprint.engine import read_record
from coinprint.errors import UsageError
from coinprint.playback.page import page_from_record
from coinprint.playback.timelapse import TimelapseOptions, timelapse_from_record
from coinprint.studio.routes.answers import NoRecord, upload
from coinprint.studio.routes.play import session_of
from coinprint.studio.routes.site import PAGES
from coinprint.studio.security import TooLarge
from coinprint.studio.state import studio_of

T = TypeVar("T")

TIMELAPSE_TYPES = {"gif": "image/gif", "webp": "image/webp", "mp4": "video/mp4"}
"""The time-lapses a replay page offers, by suffix (when the video extra is installed)."""


async def upload_record(request: Request) -> Response:
    studio = studio_of(request)
    data, _ = await upload(request)
    text = await run_in_threadpool(checked_record, data)
    key = studio.keep(studio.records, text)
    return JSONResponse({"id": key, "url": f"/replay/{key}"}, status_code=201)


def uploaded(request: Request) -> str:
    """The text of the uploaded record the request's ``id`` names; :class:`NoRecord` (404)."""
    text = studio_of(request).records.get(request.path_params["id"])
    if text is None:
        raise NoRecord()
    return text


async def record_page(request: Request) -> Response:
    text = uploaded(request)
    downloads = timelapse_links(f"/replay/{request.path_params['id']}")
    return HTMLResponse(with_studio_menu(await run_in_threadpool(replay_html, text, downloads)))


async def session_page(request: Request) -> Response:
    session = session_of(request)
    downloads = timelapse_links(f"/replay/play/{session.id}")
    page = await run_in_threadpool(replay_html, session.record().dumps(), downloads)
    back = None if session.over else f"/play?id={session.id}"
    return HTMLResponse(with_studio_menu(page, back))


def with_studio_menu(page: str, back: str | None = None) -> str:
    """A replay page (the command line's, byte for byte) with the studio's menu at its top,
    and a way back to the game it shows while that game is in progress."""
    links = [f'<a href="/{name}">{html.escape(label)}</a>' for name, label in PAGES.items()]
    if back is not None:
        links.append(f'<a id="back-to-game" href="{html.escape(back, quote=True)}">Back to the game</a>')
    menu = f'<nav aria-label="Studio pages"><p>coinprint studio: {" · ".join(links)}</p></nav>\n'
    return page.replace("<body>\n", f"<body>\n{menu}", 1)


async def record_timelapse(request: Request) -> Response:
    return await timelapse_response(uploaded(request), request.path_params["fmt"], "record")


async def session_timelapse(request: Request) -> Response:
    played = session_of(request).record()
    return await timelapse_response(played.dumps(), request.path_params["fmt"], f"{played.game}-studio")


def checked_record(data: bytes) -> str:
    """An uploaded record's text, when it names its layout by a built-in spec or inline (a
    path in it would make the studio read a file the request names)."""
    if len(data) > MAX_INPUT_BYTES:
        raise TooLarge("the upload is over the input cap")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("the record is not UTF-8 text") from None
    record = read_record(text, source="the record")
    if isinstance(record.layout, str) and record.layout.partition(":")[0] != record.game:
        raise UsageError(
            "the record names its layout by a file path; the studio reads no file a request names "
            "(open it with 'coinprint replay', or put the layout inline)"
        )
    replay_html(text)  # refuses a record that cannot be replayed, in one line
    return text


def replay_html(text: str, downloads: Sequence[str] = ()) -> str:
    """The replay page of a record's ``text``, offering the time-lapses at ``downloads``."""
    return _with_record_file(text, lambda path: page_from_record(path, downloads).html)


def _with_record_file(text: str, use: Callable[[str], T]) -> T:
    """``use`` called on the path of a file holding a record's ``text`` (a file of the studio's
    own: replay pages and time-lapses read a record from a file)."""
    with tempfile.TemporaryDirectory(prefix="coinprint-studio-") as folder:
        path = Path(folder) / "record.json"
        path.write_text(text, encoding="utf-8")
        return use(str(path))


def timelapse_links(base: str) -> list[str]:
    """The time-lapse downloads of the replay page at ``base``: a GIF and an MP4, each when its
    library is installed (the ``video`` extra), else none."""
    if importlib.util.find_spec("PIL") is None:
        return []
    formats = ["gif"] + (["mp4"] if importlib.util.find_spec("av") is not None else [])
    return [f"{base}/timelapse.{fmt}" for fmt in formats]


async def timelapse_response(text: str, fmt: str, stem: str) -> Response:
    """A record's time-lapse as a download, in the time-lapse's default size and pace."""
    if fmt not in TIMELAPSE_TYPES:
        raise UsageError(f"no time-lapse as .{fmt[:12]}; use one of: {', '.join(TIMELAPSE_TYPES)}")
    options = TimelapseOptions(fmt)
    data = await run_in_threadpool(_with_record_file, text, lambda path: timelapse_from_record(path, options).data)
    return Response(
        data,
        media_type=TIMELAPSE_TYPES[fmt],
        headers={"content-disposition": f'attachment; filename="{stem}.{fmt}"'},
    )


ROUTES = [
    Route("/api/replay", upload_record, methods=["POST"]),
    Route("/replay/play/{id}", session_page),
    Route("/replay/play/{id}/timelapse.{fmt}", session_timelapse),
    Route("/replay/{id}", record_page),
    Route("/replay/{id}/timelapse.{fmt}", record_timelapse),
]
