"""The studio's pages (each a template with the menu), their script, style and icon, and the
games' catalogue every form is made from (``/api/games``)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from coinprint.studio import outputs
from coinprint.studio.routes.answers import error
from coinprint.studio.security import csrf_token
from coinprint.studio.state import studio_of

PAGES = {
    "print": "Print",
    "maps": "Maps",
    "check": "Check a drawing",
    "play": "Play",
    "replay": "Replay",
}
"""The pages, by path, with their titles, in the order the menu shows them."""
STATIC = ("studio.js", "table.js", "pick.js", "sling.js", "draw.js", "studio.css", "favicon.svg")
"""The files under ``/static/``: read from the package once, served from memory."""
MEDIA_TYPES = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}


@cache
def templates() -> Environment:
    """The pages' templates (loaded once)."""
    return Environment(loader=PackageLoader("coinprint.studio", "templates"), autoescape=select_autoescape())


@cache
def static_files() -> dict[str, bytes]:
    """The files under ``/static/``, by name (read once)."""
    return {name: (files("coinprint.studio") / "static" / name).read_bytes() for name in STATIC}


async def page(request: Request) -> Response:
    """One of :data:`PAGES`, by its path."""
    studio = studio_of(request)
    name = request.url.path.removeprefix("/")
    html = (
        templates()
        .get_template(f"{name}.html")
        .render(
            page=name,
            pages=PAGES,
            title=PAGES[name],
            csrf=csrf_token(studio.token),
            watched=[w.path.name for w in studio.watched],
        )
    )
    return HTMLResponse(html)


async def home(request: Request) -> Response:
    return RedirectResponse("/print", status_code=303)


async def favicon(request: Request) -> Response:
    return RedirectResponse("/static/favicon.svg", status_code=301)


async def static_file(request: Request) -> Response:
    name = request.path_params["name"]
    found = static_files()
    if name not in found:
        return error(f"no static file {name!r}", 404)
    return Response(found[name], media_type=MEDIA_TYPES[name.rsplit(".", 1)[1]])


async def games(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(outputs.catalogue))


ROUTES = [
    Route("/", home),
    *(Route(f"/{name}", page) for name in PAGES),
    Route("/static/{name}", static_file),
    Route("/favicon.ico", favicon),
    Route("/api/games", games),
]
