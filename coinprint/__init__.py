"""coinprint: print and play coin games.

True-scale boards and rule sheets, generated maps that are always valid, and rules engines
that check recorded games move by move. The heavy libraries (shapely, reportlab, svgwrite,
networkx) are imported lazily by the modules that need them, so ``import coinprint`` and
``coinprint --help`` stay fast.
"""

__version__ = "0.1.0"

GAMES = ("cointable", "coinage", "mapgame", "flick")
"""The games coinprint knows, by the names the command line uses."""
