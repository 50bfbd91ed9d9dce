"""The studio's web application: its pages and its JSON API (``docs/api.md``, "The studio's
API"), one Starlette app behind the :class:`~coinprint.studio.security.Guard`.

The routes hold no logic of their own: printing and checking are
:mod:`coinprint.studio.outputs` (the composition below ``board``, ``kit`` and ``validate
layout``), games are :mod:`coinprint.studio.play`, replay pages are
:mod:`coinprint.playback.page`. Long work (printing, checking, a computer's move) runs in a worker
thread, so the page and other requests are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
import secrets
import tempfile
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from coinprint.caps import MAX_INPUT_BYTES
from coinprint.commands import check_layout_file
from coinprint.engine import parse_layout_name, read_record
from coinprint.errors import CoinprintError, UsageError
from coinprint.playback.page import TEMPLATE, page_from_record
from coinprint.playback.timelapse import TimelapseOptions, timelapse_from_record
from coinprint.resources import template_path
from coinprint.source import builtin_layout
from coinprint.studio import outputs
from coinprint.studio.outputs import Check, UnknownGame, game_named
from coinprint.studio.play import RefusedMove, Session, Sessions, rules_options
from coinprint.studio.security import CSP, Guard, TooLarge, csrf_token

if TYPE_CHECKING:
    from coinprint.game import Game
    from coinprint.layout import Layout

T = TypeVar("T")

PAGES = {
    "print": "Print",
    "maps": "Maps",
    "check": "Check a drawing",
    "play": "Play",
    "replay": "Replay",
}
"""The pages, by path, with their titles, in the order the menu shows them."""
STATIC = ("studio.js", "studio.css", "favicon.svg")
"""The files under ``/static/``: read from the package once, served from memory."""
MAX_DRAWINGS = 50
"""Most checked drawings (and uploaded records) the studio keeps in memory."""
NAME_CHARS = 100


@dataclass
class Watched:
    """A file named on the command line with ``--watch``: re-checked whenever it is saved."""

    path: Path
    game: str | None = None


@dataclass
class Studio:
    """What one running studio holds: its token, the files it may read (those named on the
    command line), the drawings checked and records uploaded (in memory), the games."""

    token: str
    watched: list[Watched] = field(default_factory=list)
    sessions: Sessions = field(default_factory=Sessions)
    drawings: OrderedDict[str, Check] = field(default_factory=OrderedDict)
    records: OrderedDict[str, str] = field(default_factory=OrderedDict)
    kit_pages: OrderedDict[tuple[Any, ...], list[bytes]] = field(default_factory=OrderedDict)
    debounce_ms: int = 50

    def keep(self, store: OrderedDict[str, T], value: T) -> str:
        """Keep ``value`` in ``store`` under a new random id (dropping the oldest over the cap)."""
        key = secrets.token_hex(12)
        store[key] = value
        while len(store) > MAX_DRAWINGS:
            store.popitem(last=False)
        return key


# -- answers -------------------------------------------------------------------------------------------
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


def _fields(request: Request) -> dict[str, str]:
    """The query's fields, each given once (a field given twice is refused)."""
    fields: dict[str, str] = {}
    for key, value in request.query_params.multi_items():
        if key == "token":
            continue
        if key in fields:
            raise UsageError(f"{key} is given twice")
        fields[key] = value
    return fields


def _split_file(name: str, formats: Sequence[str]) -> tuple[str, str]:
    """``cointable.pdf`` → (``cointable``, ``pdf``); the format must be one of ``formats``."""
    stem, dot, suffix = name.rpartition(".")
    if not dot or suffix not in formats:
        raise UsageError(f"{name!r}: end the name in {' or '.join('.' + f for f in formats)}")
    return stem, suffix


def _download(data: bytes, fmt: str, name: str) -> Response:
    safe = re.sub(r"[^A-Za-z0-9._-]", "-", name)[:NAME_CHARS]
    return Response(
        data,
        media_type=outputs.MEDIA_TYPES.get(fmt, "application/octet-stream"),
        headers={"content-disposition": f'inline; filename="{safe}"'},
    )


def _source_name(text: str | None, default: str) -> str:
    """A name for an upload, for messages only: its last part, printable, short."""
    name = (text or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable())[:NAME_CHARS]
    return name or default


async def _body(request: Request) -> tuple[bytes, str | None]:
    """The upload: the body itself, or the first file of a multipart form; and its name."""
    if request.headers.get("content-type", "").startswith("multipart/form-data"):
        form = await request.form(max_files=1, max_fields=10, max_part_size=MAX_INPUT_BYTES)
        for value in form.values():
            if not isinstance(value, str):
                return await value.read(), value.filename
        raise UsageError("the form has no file; send the drawing as a file field or as the body")
    return await request.body(), None


async def _json(request: Request) -> dict[str, Any]:
    try:
        doc = json.loads(await request.body() or b"{}")
    except ValueError as exc:
        raise UsageError(f"the request is not JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise UsageError("the request must be a JSON object")
    return doc


# -- the app -------------------------------------------------------------------------------------------
def create_app(studio: Studio) -> Guard:
    """The studio's ASGI application for ``studio`` (its token guards every request)."""
    templates = Environment(loader=PackageLoader("coinprint.studio", "templates"), autoescape=select_autoescape())
    static = {name: (files("coinprint.studio") / "static" / name).read_bytes() for name in STATIC}
    csrf = csrf_token(studio.token)

    def page(name: str) -> Callable[[Request], Any]:
        async def show(request: Request) -> Response:
            html = templates.get_template(f"{name}.html").render(
                page=name, pages=PAGES, title=PAGES[name], csrf=csrf, watched=[w.path.name for w in studio.watched]
            )
            return HTMLResponse(html)

        return show

    async def home(request: Request) -> Response:
        return RedirectResponse("/print", status_code=303)

    async def static_file(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in static:
            return error(f"no static file {name!r}", 404)
        media = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}[name.rsplit(".", 1)[1]]
        return Response(static[name], media_type=media)

    async def games(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(outputs.catalogue))

    def _drawing(fields: dict[str, str], game: str) -> Any:
        drawing = fields.pop("drawing", None)
        if drawing is None:
            return None
        check = studio.drawings.get(drawing)
        if check is None:
            raise UsageError("no such checked drawing; check it again on the Check page")
        if not check.checked.valid or check.checked.layout.game != game:
            raise UsageError(f"that drawing is not a valid {game} layout")
        return check.checked.layout

    async def board(request: Request) -> Response:
        name, fmt = _split_file(request.path_params["file"], outputs.FORMATS)
        game = game_named(name)
        fields = _fields(request)
        layout = _drawing(fields, name)
        made = await run_in_threadpool(outputs.board, game, fields, fmt, layout=layout)
        response = _download(made.data, fmt, made.name)
        if made.seed is not None:
            response.headers["x-coinprint-seed"] = str(made.seed)
        return response

    async def board_info(request: Request) -> Response:
        game = game_named(request.path_params["game"])
        made = await run_in_threadpool(outputs.board, game, _fields(request), "geojson")
        return JSONResponse({"spec": made.spec, "seed": made.seed, "lines": made.lines, "warnings": made.warnings})

    async def kit(request: Request) -> Response:
        name, fmt = _split_file(request.path_params["file"], ("pdf",))
        game = game_named(name)
        fields = _fields(request)
        layout = _drawing(fields, name)
        data = await run_in_threadpool(outputs.kit_bytes, game, fields, layout=layout)
        return _download(data, fmt, f"{name}-kit.pdf")

    async def kit_pages(request: Request) -> list[bytes]:
        game = game_named(request.path_params["game"])
        fields = _fields(request)
        key = (game.name, tuple(sorted(fields.items())))
        pages = studio.kit_pages.get(key)
        if pages is None:
            pages = await run_in_threadpool(outputs.kit_page_svgs, game, fields)
            studio.kit_pages[key] = pages
            while len(studio.kit_pages) > 20:
                studio.kit_pages.popitem(last=False)
        return pages

    async def kit_page_count(request: Request) -> Response:
        return JSONResponse({"pages": len(await kit_pages(request))})

    async def kit_page(request: Request) -> Response:
        pages = await kit_pages(request)
        number = request.path_params["number"]
        if not 1 <= number <= len(pages):
            return error(f"the kit has pages 1 to {len(pages)}, not {number}", 404)
        return Response(pages[number - 1], media_type="image/svg+xml")

    async def rules(request: Request) -> Response:
        name, fmt = _split_file(request.path_params["file"], ("pdf",))
        data = await run_in_threadpool(outputs.rules_bytes, game_named(name), _fields(request))
        return _download(data, fmt, f"{name}-rules.pdf")

    async def check(request: Request) -> Response:
        fields = _fields(request)
        name = _source_name(fields.pop("name", None), "drawing")
        data, filename = await _body(request)
        if not data:
            raise UsageError("the drawing is empty; send an SVG or GeoJSON file")
        source = _source_name(filename, name)
        checked = await run_in_threadpool(outputs.check_drawing, data, source, fields)
        drawing = studio.keep(studio.drawings, checked)
        return JSONResponse({**checked.to_json(), "id": drawing, "report": f"/api/drawing/{drawing}/report.svg"})

    async def report(request: Request) -> Response:
        checked = studio.drawings.get(request.path_params["id"])
        if checked is None:
            return error("no such checked drawing", 404)
        return Response(await run_in_threadpool(checked.report_svg), media_type="image/svg+xml")

    async def watch_list(request: Request) -> Response:
        return JSONResponse(
            {"files": [{"number": n, "name": w.path.name, "game": w.game} for n, w in enumerate(studio.watched)]}
        )

    async def watch_events(request: Request) -> Response:
        number = request.path_params["number"]
        if not 0 <= number < len(studio.watched):
            return error(f"no watched file {number}; the studio watches {len(studio.watched)}", 404)
        watched = studio.watched[number]
        fields = _fields(request)
        game = fields.pop("game", None) or watched.game
        outputs.refuse_unknown(fields, set(), "watch")
        if game is not None:
            game_named(game)
        return StreamingResponse(
            _watch_stream(studio, watched, game), media_type="text/event-stream", headers={"x-accel-buffering": "no"}
        )

    async def fair_events(request: Request) -> Response:
        game = game_named(request.path_params["game"])
        plan = await run_in_threadpool(outputs.fair_plan, game, _fields(request))
        return StreamingResponse(
            _fair_stream(plan), media_type="text/event-stream", headers={"x-accel-buffering": "no"}
        )

    async def play_start(request: Request) -> Response:
        doc = await _json(request)
        unknown = sorted(set(doc) - {"game", "layout", "opponent", "seat", "options", "seed"})
        if unknown:
            raise UsageError(f"the play request takes no {', '.join(unknown)}")
        game = game_named(str(doc.get("game", "")))
        layout, recorded, shown = _play_layout(studio, game, doc.get("layout"))
        opponent = doc.get("opponent", "greedy")
        seed = doc.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise UsageError("seed must be a whole number")
        options = doc.get("options") or {}
        if not isinstance(options, dict):
            raise UsageError("options must be an object")
        session = studio.sessions.start(
            game,
            layout,
            recorded,
            shown,
            opponent=None if opponent is None else str(opponent),
            seat=None if doc.get("seat") is None else str(doc["seat"]),
            options=rules_options(game, options),
            seed=seed,
        )
        return JSONResponse(session.to_json(), status_code=201)

    def _session(request: Request) -> Session:
        session = studio.sessions.get(request.path_params["id"])
        if session is None:
            raise _NoSession("no such game; start one on the Play page")
        return session

    async def play_show(request: Request) -> Response:
        return JSONResponse(_session(request).to_json())

    async def play_move(request: Request) -> Response:
        session = _session(request)
        doc = await _json(request)
        if "move" not in doc:
            raise UsageError('send the move as {"move": "…"}')
        await run_in_threadpool(session.play, doc["move"])
        return JSONResponse(session.to_json())

    async def play_computer(request: Request) -> Response:
        session = _session(request)
        await run_in_threadpool(session.computer)
        return JSONResponse(session.to_json())

    async def play_undo(request: Request) -> Response:
        session = _session(request)
        session.undo()
        return JSONResponse(session.to_json())

    async def play_board(request: Request) -> Response:
        session = _session(request)
        return Response(await run_in_threadpool(session.board_svg), media_type="image/svg+xml")

    async def play_record(request: Request) -> Response:
        record = _session(request).record()
        return Response(
            record.dumps(),
            media_type="application/json",
            headers={"content-disposition": f'attachment; filename="{record.game}-studio.json"'},
        )

    async def replay_upload(request: Request) -> Response:
        data, _ = await _body(request)
        text = await run_in_threadpool(_checked_record, data)
        key = studio.keep(studio.records, text)
        return JSONResponse({"id": key, "url": f"/replay/{key}"}, status_code=201)

    def uploaded(request: Request) -> str:
        text = studio.records.get(request.path_params["id"])
        if text is None:
            raise _NoRecord()
        return text

    async def replay_page(request: Request) -> Response:
        text = uploaded(request)
        downloads = _timelapse_links(f"/replay/{request.path_params['id']}")
        return HTMLResponse(await run_in_threadpool(_replay_html, text, downloads))

    async def replay_session(request: Request) -> Response:
        session = _session(request)
        downloads = _timelapse_links(f"/replay/play/{session.id}")
        return HTMLResponse(await run_in_threadpool(_replay_html, session.record().dumps(), downloads))

    async def replay_timelapse(request: Request) -> Response:
        return await _timelapse_response(uploaded(request), request.path_params["fmt"], "record")

    async def session_timelapse(request: Request) -> Response:
        record = _session(request).record()
        return await _timelapse_response(record.dumps(), request.path_params["fmt"], f"{record.game}-studio")

    routes = [
        Route("/", home),
        *(Route(f"/{name}", page(name)) for name in PAGES),
        Route("/static/{name}", static_file),
        Route("/favicon.ico", lambda request: RedirectResponse("/static/favicon.svg", status_code=301)),
        Route("/api/games", games),
        Route("/api/board/{file}", board),
        Route("/api/board-info/{game}", board_info),
        Route("/api/fair/{game}/events", fair_events),
        Route("/api/kit/{file}", kit),
        Route("/api/kit-pages/{game}", kit_page_count),
        Route("/api/kit-page/{game}/{number:int}.svg", kit_page),
        Route("/api/rules/{file}", rules),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/drawing/{id}/report.svg", report),
        Route("/api/watch", watch_list),
        Route("/api/watch/{number:int}/events", watch_events),
        Route("/api/play", play_start, methods=["POST"]),
        Route("/api/play/{id}", play_show),
        Route("/api/play/{id}/move", play_move, methods=["POST"]),
        Route("/api/play/{id}/computer", play_computer, methods=["POST"]),
        Route("/api/play/{id}/undo", play_undo, methods=["POST"]),
        Route("/api/play/{id}/board.svg", play_board),
        Route("/api/play/{id}/record", play_record),
        Route("/api/replay", replay_upload, methods=["POST"]),
        Route("/replay/play/{id}", replay_session),
        Route("/replay/play/{id}/timelapse.{fmt}", session_timelapse),
        Route("/replay/{id}", replay_page),
        Route("/replay/{id}/timelapse.{fmt}", replay_timelapse),
    ]
    handlers: Mapping[Any, Callable[[Request, Exception], Any]] = {
        HTTPException: _http_error,
        _NoSession: _not_found,
        _NoRecord: lambda request, exc: error("no such record; open it again on the Replay page", 404),
        CoinprintError: _usage_error,
        TooLarge: _too_large,
        Exception: _internal,
    }
    app = Starlette(routes=routes, exception_handlers=dict(handlers))
    return Guard(app, studio.token, csp=_policy)


class _NoSession(Exception):
    """A play id the studio does not know."""


class _NoRecord(Exception):
    """An uploaded record's id the studio does not know (or no longer keeps)."""


async def _not_found(request: Request, exc: Exception) -> Response:
    return error(str(exc), 404)


# -- layouts for a game ---------------------------------------------------------------------------------
def _play_layout(studio: Studio, game: Game, given: Any) -> tuple[Layout, str | dict[str, Any], str]:
    """The layout a play request names: a built-in spec (``cointable:size=4``), a drawing
    checked on the Check page (``drawing:ID``) or a watched file (``watch:N``), valid and of
    ``game``; what its record calls it; and how the page names it. A file path is refused:
    the studio reads no file a request names."""
    spec = game.default_spec if given in (None, "") else str(given)
    kind, _, rest = spec.partition(":")
    if kind in ("drawing", "watch"):
        if kind == "drawing":
            check = studio.drawings.get(rest)
        else:
            check = _watched_check(studio, rest, game.name)
        if check is None:
            raise UsageError(f"no such checked drawing ({spec}); check it on the Check page first")
        if not check.checked.valid or check.checked.layout.game != game.name:
            raise UsageError(f"{check.source} is not a valid {game.name} layout: {check.checked.verdict}")
        layout = check.checked.layout
        return layout, layout.to_geojson(), check.source
    if kind != game.name:
        raise UsageError(
            f"layout {spec!r} is not a {game.name} layout spec (e.g. {game.default_spec}) nor a checked drawing; "
            "the studio reads no file a request names"
        )
    name, params = parse_layout_name(spec)
    recorded = game.spec_of(game.schema.from_spec(params))
    return builtin_layout(recorded), recorded, recorded


def _watched_check(studio: Studio, number: str, game: str) -> Check | None:
    if not number.isdigit() or int(number) >= len(studio.watched):
        return None
    watched = studio.watched[int(number)]
    return check_file(watched.path, watched.game or game)


def check_file(path: Path, game: str | None) -> Check:
    """``validate layout`` of a file named on the command line (``--watch``)."""
    lines: list[str] = []
    checked = check_layout_file(str(path), game, "mm", None, lines.append)
    lines.append(f"{path.name}: {checked.verdict}")
    summary = None
    if checked.valid:
        summary = game_named(checked.layout.game).summary(checked.layout)
        if summary is not None:
            lines.append(f"{path.name}: {summary}")
    return Check(path.name, checked, lines, summary)


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
    return f"event: check\ndata: {json.dumps(doc)}\n\n"


async def _watch_stream(studio: Studio, watched: Watched, game: str | None) -> AsyncIterator[str]:
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


def _event(name: str, doc: Mapping[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(doc)}\n\n"


class _Stopped(Exception):
    """The page that asked for a search went away: the search stops at its next step."""


async def _fair_stream(plan: outputs.FairPlan) -> AsyncIterator[str]:
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
            yield _event(name, doc)
            if name != "progress":
                return
    finally:
        stopped.set()


# -- replay pages ---------------------------------------------------------------------------------------
def _checked_record(data: bytes) -> str:
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
    _replay_html(text)  # refuses a record that cannot be replayed, in one line
    return text


def _replay_html(text: str, downloads: Sequence[str] = ()) -> str:
    """The replay page of a record's ``text``, offering the time-lapses at ``downloads``."""
    return _with_record_file(text, lambda path: page_from_record(path, downloads).html)


def _with_record_file(text: str, use: Callable[[str], T]) -> T:
    """``use`` called on the path of a file holding a record's ``text`` (a file of the studio's
    own: replay pages and time-lapses read a record from a file)."""
    with tempfile.TemporaryDirectory(prefix="coinprint-studio-") as folder:
        path = Path(folder) / "record.json"
        path.write_text(text, encoding="utf-8")
        return use(str(path))


TIMELAPSE_TYPES = {"gif": "image/gif", "webp": "image/webp", "mp4": "video/mp4"}
"""The time-lapses a replay page offers, by suffix (when the video extra is installed)."""


def _timelapse_links(base: str) -> list[str]:
    """The time-lapse downloads of the replay page at ``base``: a GIF and an MP4, each when its
    library is installed (the ``video`` extra), else none."""
    import importlib.util

    if importlib.util.find_spec("PIL") is None:
        return []
    formats = ["gif"] + (["mp4"] if importlib.util.find_spec("av") is not None else [])
    return [f"{base}/timelapse.{fmt}" for fmt in formats]


async def _timelapse_response(text: str, fmt: str, stem: str) -> Response:
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


def _inline_hashes(html: str, tag: str) -> list[str]:
    """The CSP hashes of the inline ``tag`` elements of ``html`` that run or style (not JSON data)."""
    found = []
    for match in re.finditer(rf"<{tag}(\s[^>]*)?>(.*?)</{tag}>", html, re.S):
        if "application/json" in (match.group(1) or ""):
            continue
        digest = hashlib.sha256(match.group(2).encode("utf-8")).digest()
        found.append(f"'sha256-{base64.b64encode(digest).decode()}'")
    return found


def _replay_policy() -> str:
    """The replay page's CSP: its own script and style (from coinprint's template, by hash), nothing else inline."""
    template = template_path(TEMPLATE).read_text(encoding="utf-8")
    scripts = " ".join(_inline_hashes(template, "script"))
    styles = " ".join(_inline_hashes(template, "style"))
    return (
        f"default-src 'none'; script-src {scripts}; style-src {styles}; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    )


_REPLAY_POLICY: list[str] = []


def _policy(path: str) -> str:
    if path.startswith("/replay/"):
        if not _REPLAY_POLICY:
            _REPLAY_POLICY.append(_replay_policy())
        return _REPLAY_POLICY[0]
    return CSP
