"""What one running studio holds, and how a route finds it (``request.app.state.studio``)."""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from coinprint.studio.play import Sessions

if TYPE_CHECKING:
    from starlette.requests import Request

    from coinprint.studio.outputs import Check

T = TypeVar("T")

MAX_DRAWINGS = 50
"""Most checked drawings (and uploaded records) the studio keeps in memory."""


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


def studio_of(request: Request) -> Studio:
    """The studio a request was made to."""
    return cast("Studio", request.app.state.studio)
