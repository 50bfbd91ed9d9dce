"""The Play page's API: a game started on a built-in layout, a checked drawing or a watched
file, a person's move, the computer's, undo, the position drawn, and the record
(:mod:`coinprint.studio.play` keeps the games)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from coinprint.errors import UsageError
from coinprint.params import parse_layout_name
from coinprint.studio.outputs import requested_game
from coinprint.studio.play import Session, rules_options
from coinprint.studio.routes.answers import NoSession, json_object
from coinprint.studio.routes.check import watched_check
from coinprint.studio.state import Studio, studio_of

if TYPE_CHECKING:
    from coinprint.game import Game
    from coinprint.layout import Layout

START_FIELDS = {"game", "layout", "opponent", "seat", "options", "seed"}
"""What a request to start a game may say."""


def session_of(request: Request) -> Session:
    """The game the request's ``id`` names; :class:`NoSession` (404) when there is none."""
    session = studio_of(request).sessions.get(request.path_params["id"])
    if session is None:
        raise NoSession("no such game; start one on the Play page")
    return session


async def start(request: Request) -> Response:
    studio = studio_of(request)
    doc = await json_object(request)
    unknown = sorted(set(doc) - START_FIELDS)
    if unknown:
        raise UsageError(f"the play request takes no {', '.join(unknown)}")
    game = requested_game(str(doc.get("game", "")))
    layout, recorded, shown = play_layout(studio, game, doc.get("layout"))
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
    session.layout_spec = str(doc.get("layout") or game.default_spec)
    return JSONResponse(session.to_json(), status_code=201)


async def show(request: Request) -> Response:
    return JSONResponse(session_of(request).to_json())


async def move(request: Request) -> Response:
    session = session_of(request)
    doc = await json_object(request)
    if "move" not in doc:
        raise UsageError('send the move as {"move": "…"}')
    await run_in_threadpool(session.play, doc["move"])
    return JSONResponse(session.to_json())


async def computer(request: Request) -> Response:
    session = session_of(request)
    await run_in_threadpool(session.computer)
    return JSONResponse(session.to_json())


async def undo(request: Request) -> Response:
    session = session_of(request)
    session.undo()
    return JSONResponse(session.to_json())


async def preview(request: Request) -> Response:
    """A move being made, judged live (the Map's arc while it is drawn): 200 with what the
    table shows, the rules' refusal included; 422 when it is no move at all."""
    session = session_of(request)
    doc = await json_object(request)
    if "move" not in doc:
        raise UsageError('send the move being made as {"move": "…"}')
    return JSONResponse(await run_in_threadpool(session.preview, doc["move"]))


async def board(request: Request) -> Response:
    session = session_of(request)
    return Response(await run_in_threadpool(session.board_svg), media_type="image/svg+xml")


async def table(request: Request) -> Response:
    session = session_of(request)
    return JSONResponse(await run_in_threadpool(session.table_board))


async def hint(request: Request) -> Response:
    session = session_of(request)
    return JSONResponse(await run_in_threadpool(session.hint))


async def stop(request: Request) -> Response:
    session = session_of(request)
    session.halt()
    return JSONResponse({"stopped": True})


async def in_progress(request: Request) -> Response:
    """The games not over, newest first: what the Play and Replay pages offer to continue."""
    return JSONResponse(
        [
            {
                "id": session.id,
                "title": session.game.title,
                "layout": session.layout_name,
                "moves": len(session.moves),
                "turn": session.rules.to_move(session.state),
                "against": sorted(set(session.agents.values())),
            }
            for session in studio_of(request).sessions.in_progress()
        ]
    )


async def record(request: Request) -> Response:
    played = session_of(request).record()
    return Response(
        played.dumps(),
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{played.game}-studio.json"'},
    )


def play_layout(studio: Studio, game: Game, given: Any) -> tuple[Layout, str | dict[str, Any], str]:
    """The layout a play request names: a built-in spec (``cointable:size=4``), a drawing
    checked on the Check page (``drawing:ID``) or a watched file (``watch:N``), valid and of
    ``game``; what its record calls it; and how the page names it. A file path is refused:
    the studio reads no file a request names."""
    spec = game.default_spec if given in (None, "") else str(given)
    kind, _, rest = spec.partition(":")
    if kind in ("drawing", "watch"):
        check = studio.drawings.get(rest) if kind == "drawing" else watched_check(studio, rest, game.name)
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
    _, params = parse_layout_name(spec)
    recorded = game.spec_of(game.schema.from_spec(params))
    return game.layout_from_spec(parse_layout_name(recorded)[1]), recorded, recorded


ROUTES = [
    Route("/api/play", start, methods=["POST"]),
    Route("/api/play", in_progress, methods=["GET"]),
    Route("/api/play/{id}", show),
    Route("/api/play/{id}/move", move, methods=["POST"]),
    Route("/api/play/{id}/computer", computer, methods=["POST"]),
    Route("/api/play/{id}/undo", undo, methods=["POST"]),
    Route("/api/play/{id}/preview", preview, methods=["POST"]),
    Route("/api/play/{id}/board.svg", board),
    Route("/api/play/{id}/table", table),
    Route("/api/play/{id}/hint", hint, methods=["POST"]),
    Route("/api/play/{id}/stop", stop, methods=["POST"]),
    Route("/api/play/{id}/record", record),
]
