"""The :class:`Game`: everything coinprint needs from one game, as one class of concepts.

Each game is a package ``coinprint/games/<name>/`` whose ``__init__`` defines a :class:`Game`
subclass (as python-chess has one board class per variant and OpenSpiel one registered game
per rule set). A game is

- its **parameters**, one typed schema (:class:`~coinprint.params.Param`) from which the layout
  spec ``game:key=value``, the options of ``board``, ``rules`` and ``play``, their help, their
  checking and the forms of any other front door are derived;
- its **capabilities**, declared as data: :attr:`Game.generated` (layouts grown from a seed:
  ``--fair``), :attr:`Game.cards` (prints cards: ``--copies``, ``--bleed``), :attr:`Game.seats`
  (agents can play it);
- its **board**: :meth:`Game.build` (a layout from typed values) and :meth:`Game.problems`
  (the checker);
- its **rules**: :meth:`Game.rules`, the referee on a layout, and beside it two optional
  objects: :meth:`Game.search` (what agents need: evaluations, play-outs, paired chance) and
  :meth:`Game.view` (what pictures of a position hold), as OpenSpiel keeps a game's states
  apart from its observers;
- one way to **print** a layout: :meth:`Game.sheet`, for a :class:`~coinprint.printing.PrintJob`; the rule sheet's
  contents: :meth:`Game.rule_sheet_parts`.

Shared code (the kit, the commands, the studio) receives the :class:`Game` object and composes
these hooks; it never names a game. Every hook but the first five has a default that is a
complete behaviour, so the base class is a whole game's worth of sensible choices.

A game's ``__init__`` must stay light: its heavy modules (shapely, reportlab) are imported
inside the hooks' implementations, so ``coinprint --help`` stays fast.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from coinprint.errors import UsageError
from coinprint.io import Conventions
from coinprint.params import Param, Schema, Values
from coinprint.printing import PrintJob
from coinprint.render.board import position_sheet
from coinprint.render.sheet import single_sheet
from coinprint.render.svg import scene_to_svg
from coinprint.search import Search
from coinprint.view import View

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.layout import Layout, Mark
    from coinprint.render.scene import Scene
    from coinprint.render.sheet import Sheet


@dataclass(frozen=True)
class Seat:
    """A player's seat in ``play``: the option naming its agent, and the default agent."""

    player: str
    flag: str
    default: str = "random"


@dataclass(frozen=True)
class Generated:
    """The capability of a game whose layouts are grown from a seed: ``board`` then offers a
    fair search (``--fair``, ``--candidates``, ``--fair-games``, ``--agent``), and ``analyse``
    families of maps. ``asks`` are the spec values that ask for a generated layout
    (``{"map": "random"}``); empty when every layout is generated."""

    asks: Mapping[str, str] = field(default_factory=dict)

    def of(self, values: Mapping[str, Any]) -> bool:
        """Whether ``values`` ask for a generated layout."""
        peek = values.peek if isinstance(values, Values) else values.__getitem__
        return all(str(peek(key)) == wanted for key, wanted in self.asks.items())


@dataclass
class RuleSheetParts:
    """What a game adds to its template's words to make its rule sheet: the values for
    ``{name}`` fields, the figures by name, and blocks that stand for generated content
    (``{"generated": NAME}`` in the template is replaced by ``blocks[NAME]``)."""

    values: dict[str, Any]
    figures: dict[str, Scene] = field(default_factory=dict)
    blocks: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Engines:
    """A game set up on one layout: its referee, and the search and view made for it
    (:meth:`Game.engines`). Self-play, analysis and the studio hold one per layout."""

    rules: Rules[Any, Any]
    search: Search[Any, Any]
    view: View[Any, Any]


BOARD_PAGES = "board_pages"
"""The place of the board in a kit (the template value ``{board_pages}``)."""


class Game(ABC):
    """One game: set the class attributes and implement the five abstract hooks."""

    name: ClassVar[str]
    """The name the command line, layout files and records use (``cointable``)."""
    title: ClassVar[str]
    """The name printed on sheets (``Coin Table``)."""
    board_noun: ClassVar[str] = "board"
    """What its board is called in help texts and default file names (``map card``, ``mat``)."""
    params: ClassVar[tuple[Param, ...]] = ()
    """The parameters: the schema every command and form is derived from."""
    seats: ClassVar[tuple[Seat, ...]] = ()
    """``play GAME``'s agent options, first mover first; none: agents cannot play it."""
    play_max_turns: ClassVar[int] = 2000
    """The default move limit of ``play`` (a cut game is a timeout, never a win)."""
    questions: ClassVar[str] = ""
    """The module holding the game's design questions (``questions()`` and ``sweep()``, see
    :mod:`coinprint.questions`), imported only by ``coinprint questions``; "" for none."""
    generated: ClassVar[Generated | None] = None
    """Set when layouts are grown from a seed (see :class:`Generated`)."""
    cards: ClassVar[bool] = False
    """Whether its board prints as cards (``board`` then takes ``--copies`` and ``--bleed``)."""
    drawing: ClassVar[Conventions | None] = Conventions()
    """How drawings (SVG, foreign GeoJSON) name this game's parts; None: a drawing cannot be
    read as a layout of this game."""
    template_folder: ClassVar[Path | None] = None
    """Where the rule-sheet texts ``<name>.<lang>.json`` are (default: coinprint's templates/)."""
    kit_places: ClassVar[tuple[str, ...]] = (BOARD_PAGES,)
    """The parts of the kit after the rule sheet, in order: the board, and the places of
    :meth:`extra_sheets` (the Map's blank sheet, ``blank_pages``)."""

    # -- the board and its check -----------------------------------------------------------------

    @abstractmethod
    def build(self, values: Values) -> Layout:
        """The layout the parameter ``values`` describe (typed: a length is a
        :class:`~coinprint.units.Length`); :class:`~coinprint.errors.UsageError` for a bad
        combination. Read every value you use from ``values``: one given and never read is
        refused as unused."""

    @abstractmethod
    def problems(self, layout: Layout, *, tolerance_mm: float = 0.2) -> list[Problem]:
        """Every problem with a layout of this game; never raises on a bad layout. Lengths
        may be off by ``tolerance_mm`` where the check compares them."""

    # -- the rules -------------------------------------------------------------------------------

    @abstractmethod
    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> Rules[Any, Any]:
        """The rules engine on ``layout`` with the record's ``options``."""

    def search(self, rules: Rules[Any, Any]) -> Search[Any, Any]:
        """What agents need to play ``rules`` besides the referee (its successors, evaluations,
        play-outs, paired chance, tree-search settings); by default all derived from the
        referee (:class:`~coinprint.search.Search`)."""
        return Search(rules)

    def view(self, rules: Rules[Any, Any]) -> View[Any, Any]:
        """What pictures of positions of ``rules`` hold (the coins on each space, captions,
        notes beside moves); by default no coins (:class:`~coinprint.view.View`)."""
        return View(rules)

    # -- printing --------------------------------------------------------------------------------

    @abstractmethod
    def sheet(self, layout: Layout, job: PrintJob) -> Sheet:
        """The print hook: ``layout`` (built, or read from a drawing and completed by
        :meth:`printable`) drawn at true size for ``job``, its words in ``job.lang`` (the
        sheet's ``lang`` is the job's: its info block and rulers are printed in it).
        ``board``, ``kit``, drawn layouts and the studio all print through it."""

    @abstractmethod
    def rule_sheet_parts(
        self, template: Mapping[str, Any], values: Values, layout: Callable[[], Layout]
    ) -> RuleSheetParts:
        """What the rule sheet adds to the template's words: values, figures and generated
        blocks, for the parameter ``values`` the sheet describes (those shown in ``rules``);
        ``layout()`` is the layout they describe, built once on first call."""

    def position_sheet(
        self, layout: Layout, marks: Sequence[Mark], players: Sequence[str], *, title: str = ""
    ) -> Sheet:
        """A position: the board with a coin on each marked space."""
        return position_sheet(layout, marks, players, title=title)

    def extra_sheets(self, job: PrintJob) -> dict[str, Sheet]:
        """Sheets the kit and the rule sheet print besides the board, by place (see
        :attr:`kit_places`); none by default."""
        return {}

    def file_stem(self, layout: Layout) -> str:
        """What a printed ``layout`` is called in its default file name (the seed of a
        generated one and the paper are added to it)."""
        return f"{self.name}-{self.board_noun.replace(' ', '-')}"

    # -- layouts read from files and drawings ----------------------------------------------------

    def named(self, layout: Layout) -> Layout:
        """A layout just read from a file or drawing, with the names this game gives spaces
        drawn without one (Coin Table: ``a1`` …)."""
        return layout

    def printable(self, layout: Layout) -> Layout:
        """A checked layout read from a file or drawing, completed with what :meth:`sheet`
        shows and a drawing does not say (colours, sizes, a card outline). Its ``params``
        name the values the rule sheet describes (those shown in ``rules``)."""
        return layout

    def layout_spec(self, layout: Layout) -> str:
        """The layout spec that rebuilds a generated ``layout`` (for records and fair searches)."""
        raise UsageError(f"{self.title} layouts are not generated from a seed")

    def summary(self, layout: Layout) -> str | None:
        """One line of figures about a valid layout (``validate layout``, ``board``), if any."""
        return None

    # -- derived from the above: not hooks -------------------------------------------------------

    @cached_property
    def schema(self) -> Schema:
        return Schema(self.name, self.params)

    @property
    def simulated(self) -> bool:
        """Whether agents can play it (``play``, ``balance``)."""
        return bool(self.seats)

    @property
    def players(self) -> tuple[str, ...]:
        """The seats of a game, first to move first."""
        return tuple(seat.player for seat in self.seats)

    @property
    def default_spec(self) -> str:
        """The layout spec of the standard layout (``cointable:size=5``), what ``play`` and
        ``balance`` use when none is given."""
        return self.schema.spec(self.schema.defaults())

    def layout(self, values: Values) -> Layout:
        """:meth:`build`, refusing a given value that it did not read."""
        layout = self.build(values)
        values.check_read(f"a {self.title} layout")
        return layout

    def layout_from_spec(self, params: Mapping[str, str]) -> Layout:
        """The layout a spec's ``key=value`` parameters (text, as in a record) name."""
        return self.layout(self.schema.from_spec(params))

    def spec_of(self, values: Values) -> str:
        """The spec of the layout ``values`` describe (their rules options aside), built once
        so a value it does not use is refused by its option's name: a generated layout's spec
        names what it grew from (its seed, the sizes it resolved); others are written from
        the values."""
        layout = self.layout(self.schema.layout_values(values))
        if self.generated is not None and self.generated.of(values):
            return self.layout_spec(layout)
        return self.schema.spec(values)

    def engines(self, layout: Layout, options: Mapping[str, Any] | None = None) -> Engines:
        """The referee on ``layout`` with the record's ``options``, and its search and view."""
        rules = self.rules(layout, options)
        return Engines(rules, self.search(rules), self.view(rules))

    def position_svg(self, rules: Rules[Any, Any], state: Any) -> bytes:
        """A position as a true-size SVG document (how a notebook and ``validate game --svg``
        show it)."""
        view = self.view(rules)
        marks, title = view.marks(state), view.title(state)
        board = view.board(state)
        return scene_to_svg(single_sheet(self.position_sheet(board, marks, rules.players, title=title), 10.0))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
