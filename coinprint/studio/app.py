"""The studio's web application: its pages and its JSON API (``docs/api.md``, "The studio's
API"), one Starlette app behind the :class:`~coinprint.studio.security.Guard`.

The routes are one module per page under :mod:`coinprint.studio.routes`, and hold no logic
of their own: printing and checking are :mod:`coinprint.studio.outputs` (the composition
below ``board``, ``kit`` and ``validate layout``), games are :mod:`coinprint.studio.play`,
replay pages are :mod:`coinprint.playback.page`. Long work (printing, checking, a computer's
move) runs in a worker thread, so the page and other requests are answered meanwhile.
"""

from __future__ import annotations

from starlette.applications import Starlette

from coinprint.studio.routes import check, maps, play, replay, site
from coinprint.studio.routes import print as print_page
from coinprint.studio.routes.answers import HANDLERS
from coinprint.studio.security import Guard, studio_policy
from coinprint.studio.state import Studio

ROUTES = [*site.ROUTES, *print_page.ROUTES, *maps.ROUTES, *check.ROUTES, *play.ROUTES, *replay.ROUTES]
"""Every page and API of the studio, page by page."""


def create_app(studio: Studio) -> Guard:
    """The studio's ASGI application for ``studio`` (its token guards every request; the
    routes find it at ``request.app.state.studio``)."""
    app = Starlette(routes=ROUTES, exception_handlers=dict(HANDLERS))
    app.state.studio = studio
    return Guard(app, studio.token, csp=studio_policy)
