"""The toy fifth game "Strip" in the checkout: the scratch game of ``tests/scratch_game/``,
loaded from its file (it lives once, there; ``tests/test_wheel.py`` ships the same file in a
wheel as ``coinprint/games/strip/``), with its rule-sheet texts read from that folder.

The conformance suite registers :data:`GAME` with one call, as a plug-in would, to show that
a game gets every command and check from the registry alone.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

FOLDER = Path(__file__).resolve().parent / "scratch_game"
"""The scratch game: its package ``strip/`` and its English texts ``strip.en.json``."""
PACKAGE = FOLDER / "strip"
TEMPLATE = FOLDER / "strip.en.json"
MODULE = "tests.scratch_game.strip"


def _load() -> ModuleType:
    if MODULE in sys.modules:
        return sys.modules[MODULE]
    spec = importlib.util.spec_from_file_location(
        MODULE, PACKAGE / "__init__.py", submodule_search_locations=[str(PACKAGE)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE] = module
    spec.loader.exec_module(module)
    return module


_scratch = _load()
NAME: str = _scratch.NAME
SQUARE_MM: float = _scratch.SQUARE_MM
build = _scratch.build
StripState = _scratch.StripState
StripRules = _scratch.StripRules


class Strip(_scratch.Strip):
    """The scratch game, its texts read from ``tests/scratch_game/`` (in a wheel they are
    coinprint's ``templates/strip.en.json``)."""

    template_folder = FOLDER


GAME = Strip()
