"""The Print page's API: a board (``board GAME``), what printing it says, a kit and its
pages for the preview (``kit GAME``), and a rule sheet (``rules GAME``), each the same bytes
as the command line writes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from coinprint.errors import UsageError
from coinprint.studio import outputs
from coinprint.studio.outputs import requested_game
from coinprint.studio.routes.answers import download, error, fields, split_file
from coinprint.studio.state import Studio, studio_of

if TYPE_CHECKING:
    from coinprint.layout import Layout

KIT_PREVIEWS = 20
"""Most kits whose preview pages the studio keeps in memory."""


def checked_drawing(studio: Studio, given: dict[str, str], game: str) -> Layout | None:
    """The drawing checked on the Check page that the ``drawing`` field names (taken out of
    ``given``), when it is a valid layout of ``game``; None when no drawing is named."""
    drawing = given.pop("drawing", None)
    if drawing is None:
        return None
    check = studio.drawings.get(drawing)
    if check is None:
        raise UsageError("no such checked drawing; check it again on the Check page")
    if not check.checked.valid or check.checked.layout.game != game:
        raise UsageError(f"that drawing is not a valid {game} layout")
    return check.checked.layout


async def board(request: Request) -> Response:
    name, fmt = split_file(request.path_params["file"], outputs.FORMATS)
    game = requested_game(name)
    given = fields(request)
    layout = checked_drawing(studio_of(request), given, name)
    made = await run_in_threadpool(outputs.board, game, given, fmt, layout=layout)
    response = download(made.data, fmt, made.name)
    if made.seed is not None:
        response.headers["x-coinprint-seed"] = str(made.seed)
    return response


async def board_info(request: Request) -> Response:
    game = requested_game(request.path_params["game"])
    made = await run_in_threadpool(outputs.board, game, fields(request), "geojson")
    return JSONResponse({"spec": made.spec, "seed": made.seed, "lines": made.lines, "warnings": made.warnings})


async def kit(request: Request) -> Response:
    name, fmt = split_file(request.path_params["file"], ("pdf",))
    game = requested_game(name)
    given = fields(request)
    layout = checked_drawing(studio_of(request), given, name)
    data = await run_in_threadpool(outputs.kit_bytes, game, given, layout=layout)
    return download(data, fmt, f"{name}-kit.pdf")


async def kit_pages(request: Request) -> list[bytes]:
    """The kit's pages as SVG, for the preview (kept for the next request)."""
    kept = studio_of(request).kit_pages
    game = requested_game(request.path_params["game"])
    given = fields(request)
    key = (game.name, tuple(sorted(given.items())))
    pages = kept.get(key)
    if pages is None:
        pages = await run_in_threadpool(outputs.kit_page_svgs, game, given)
        kept[key] = pages
        while len(kept) > KIT_PREVIEWS:
            kept.popitem(last=False)
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
    name, fmt = split_file(request.path_params["file"], ("pdf",))
    data = await run_in_threadpool(outputs.rules_bytes, requested_game(name), fields(request))
    return download(data, fmt, f"{name}-rules.pdf")


ROUTES = [
    Route("/api/board/{file}", board),
    Route("/api/board-info/{game}", board_info),
    Route("/api/kit/{file}", kit),
    Route("/api/kit-pages/{game}", kit_page_count),
    Route("/api/kit-page/{game}/{number:int}.svg", kit_page),
    Route("/api/rules/{file}", rules),
]
