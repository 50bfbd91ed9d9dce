"""The one list of games: a :class:`~coinprint.game.Game` per name, found when first asked for.

Every list of games in coinprint (the command line's commands and choices, ``kit all``,
``balance``, the layouts named in records, the cross-game tests) derives from :data:`GAMES`.
The built-in games are named here by where their class is (``module:Class``), and games of
other packages are found through the ``coinprint.games`` entry point group; both are imported
on first use, so ``import coinprint`` stays fast, and a game registered at any time (a plug-in,
a test's toy game) appears in every command.

Adding a game is its package ``coinprint/games/<name>/``, one line in :data:`BUILT_IN` and its
English rule-sheet texts ``templates/<name>.en.json`` (CONTRIBUTING.md walks through it).
Choosing a game, by its name or its title, imports that game alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from typing import TYPE_CHECKING, cast

from coinprint.errors import UsageError

if TYPE_CHECKING:
    from coinprint.game import Game

BUILT_IN: dict[str, str] = {
    "cointable": "coinprint.games.cointable:CoinTable",
    "coinage": "coinprint.games.coinage:CoinAge",
    "mapgame": "coinprint.games.mapgame:MapGame",
    "flick": "coinprint.games.flick:Flick",
}
"""The games coinprint ships, in the order the command line lists them."""

TITLES: dict[str, str] = {"cointable": "Coin Table", "coinage": "Coin Age", "mapgame": "Map", "flick": "Flick"}
"""The built-in games' titles (each its Game's ``title``), so that a title names its game
(``map`` for ``mapgame``) without importing every game."""

GAME_AGENTS: dict[str, str] = {"park": "flick", "lookahead": "mapgame"}
"""The agents the built-in games add to the shared ones (each its game's ``Search.agents``), by
name, so that the command line accepts them before it loads the game that checks them."""

ENTRY_POINTS = "coinprint.games"
"""The entry point group through which other packages add games (``name = "pkg.mod:Class"``)."""


def load_game(target: str) -> Game:
    """The game whose class is at ``module:Class``; :class:`TypeError` saying what is missing
    when it is not a whole game."""
    module, _, attribute = target.partition(":")
    found = getattr(import_module(module), attribute)
    game = found() if isinstance(found, type) else found
    # Checked by what it has, not by class: this module imports no game machinery at run time.
    missing = [hook for hook in HOOKS if not callable(getattr(game, hook, None))]
    missing += [data for data in ("name", "title") if not _is_text(getattr(game, data, None))]
    if missing:
        raise TypeError(f"{target} is not a coinprint.game.Game: it has no {', '.join(missing)}")
    return cast("Game", game)


HOOKS = ("build", "problems", "rules", "sheet", "rule_sheet_parts")
"""The hooks every game writes."""


def _is_text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


class Registry:
    """The games by name, in the order the command line lists them."""

    def __init__(
        self, targets: dict[str, str], *, entry_points: str | None = None, titles: dict[str, str] | None = None
    ) -> None:
        self._targets = dict(targets)
        self._titles = dict(titles or {})
        self._games: dict[str, Game] = {}
        self._broken: dict[str, str] = {}
        self._entry_points = entry_points

    def _names(self) -> list[str]:
        if self._entry_points is not None:
            self._load_entry_points(self._entry_points)
            self._entry_points = None
        return list(self._targets)

    def _load_entry_points(self, group: str) -> None:
        from importlib.metadata import entry_points

        for point in entry_points(group=group):
            self._targets.setdefault(point.name, point.value)

    def _game(self, name: str) -> Game:
        game = self._games.get(name)
        if game is None:
            why = self._broken.get(name)
            if why is None:
                try:
                    game = load_game(self._targets[name])
                    if game.name != name:
                        raise TypeError(f"it calls itself {game.name!r}")
                except Exception as exc:
                    why = self._broken[name] = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            if why is not None:
                raise UsageError(f"the game {name!r} ({self._targets[name]}) is broken and cannot be loaded: {why}")
            assert game is not None
            self._games[name] = game
        return game

    def __iter__(self) -> Iterator[Game]:
        """The games that load (a broken one fails when it is chosen by name, in one line, and
        is listed by :meth:`broken`)."""
        games = []
        for name in self._names():
            try:
                games.append(self._game(name))
            except UsageError:
                continue
        return iter(games)

    def why_broken(self, name: str) -> str | None:
        """Why the registered game ``name`` cannot be loaded (one line), or None when it loads;
        loads that game alone."""
        try:
            self._game(name)
        except UsageError:
            return self._broken.get(name)
        return None

    def broken(self) -> dict[str, str]:
        """The registered games that cannot be loaded, by name, each with why (one line)."""
        for _ in self:
            pass  # loading every game finds the broken ones
        return {name: self._broken[name] for name in self._names() if name in self._broken}

    def __len__(self) -> int:
        return len(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __getitem__(self, name: str) -> Game:
        """The game called ``name``; :class:`UsageError` naming the games there are if none."""
        if name not in self._names():
            raise UsageError(f"unknown game {name!r}; use one of: {', '.join(self.names())}")
        return self._game(name)

    def names(self) -> tuple[str, ...]:
        return tuple(self._names())

    def name_for(self, word: str) -> str | None:
        """The name of the game ``word`` means: its name, or its title as one word in any case
        (``map`` for ``mapgame``, ``CoinAge``); None when it means none. The built-in games'
        titles are known without importing them; other games are loaded to read theirs."""
        names = self._names()
        if word in names:
            return word
        wanted = _one_word(word)
        return next((name for name, title in self.titles().items() if wanted in (name, _one_word(title))), None)

    def titles(self) -> dict[str, str]:
        """Each game's title by name, in the command line's order (a broken game left out):
        the built-in games' without importing them, other games' by loading them."""
        found = {}
        for name in self._names():
            title = self._titles.get(name)
            if title is None:
                try:
                    title = self._game(name).title
                except UsageError:
                    continue
            found[name] = title
        return found

    def simulated(self) -> tuple[str, ...]:
        """The games agents can play (``play``, ``balance``)."""
        return tuple(game.name for game in self if game.simulated)

    def register(self, game: Game) -> None:
        """Add a game (a plug-in, or a test's toy game); its name must be new."""
        if game.name in self._names():
            raise UsageError(f"a game called {game.name!r} is registered already")
        self._targets[game.name] = f"{type(game).__module__}:{type(game).__qualname__}"
        self._games[game.name] = game

    def unregister(self, name: str) -> None:
        self._targets.pop(name, None)
        self._games.pop(name, None)
        self._broken.pop(name, None)


def _one_word(text: str) -> str:
    return text.lower().replace(" ", "").replace("-", "")


GAMES = Registry(BUILT_IN, entry_points=ENTRY_POINTS, titles=TITLES)
"""Every game coinprint knows, by its command-line name."""


def game_of(name: str) -> Game:
    """The game called ``name`` (a layout's or a record's ``game``): the registry's one
    lookup for code below the edges that holds a name it was given, such as a notebook's
    picture of a position."""
    return GAMES[name]
