"""The :class:`Game` protocol: everything coinprint needs from one game, as one class.

Each game is a package ``coinprint/games/<name>/`` whose ``__init__`` defines a :class:`Game`
subclass (as python-chess has one board class per variant and OpenSpiel one registered
game per rule set): its board generator and checker, its rules engine, how it is drawn and
printed, and the options its commands take, declared as data (:class:`Option`). The command
line (``board``, ``rules``, ``play``, ``kit``), the layout readers and the cross-game tests
are built from these hooks alone, so a new game is one package and one registry line.

A game's ``__init__`` must stay light: it imports its heavy modules (shapely, reportlab)
inside the hooks, so ``coinprint --help`` can list every game's options quickly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from coinprint import caps
from coinprint.agents import checked_agent
from coinprint.errors import UsageError
from coinprint.io import Conventions
from coinprint.render.board import position_sheet
from coinprint.render.pages import single_sheet
from coinprint.render.svg import scene_to_svg

if TYPE_CHECKING:
    from coinprint.checks import Problem
    from coinprint.engine import Rules
    from coinprint.kit import PrintSettings, SheetParts
    from coinprint.layout import Layout, Mark
    from coinprint.render.pages import Sheet
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize

OptionKind = Literal["int", "text", "choice", "flag", "length", "length-or-zero", "paper"]


@dataclass(frozen=True)
class Option:
    """One option a game's command takes, as data; the command line turns it into a click
    option and hands its value to the game's hook under :attr:`dest`."""

    flag: str
    """The option as typed: ``--size``."""
    help: str
    default: Any = None
    kind: OptionKind = "text"
    """How the value is read: ``int``, ``text``, ``choice`` (one of :attr:`choices`), ``flag``
    (on/off), ``length`` (a length with a unit, checked when read; ``length-or-zero`` allows
    ``0``) or ``paper``."""
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    dest: str = ""
    """The key of the value in the hook's ``values`` (default: the flag without dashes)."""
    check: Callable[[Any, str], Any] | None = field(default=None, compare=False)
    """A validator from :mod:`coinprint.caps` (``check(value, flag)``), run when the option is
    read, so the command line and the library refuse a value with the same words."""

    @property
    def key(self) -> str:
        return self.dest or self.flag.lstrip("-").replace("-", "_")


# Options several games declare, defined once.
COPIES = Option(
    "--copies",
    "PDF: cards per page, 1 up to as many as fit (default: as many as fit).",
    None,
    "int",
    check=caps.check_copies,
)
CANDIDATES = Option(
    "--candidates",
    f"--fair: how many maps to try. (1 to {caps.MAX_CANDIDATES:,})",
    10,
    "int",
    check=caps.check_candidates,
)
FAIR_GAMES = Option(
    "--fair-games",
    f"--fair: fresh games the chosen map is re-measured on; their figure is printed (1 to {caps.MAX_GAMES:,}).",
    400,
    "int",
    check=caps.check_games,
)
FAIR_AGENT = Option(
    "--agent",
    "--fair: the agent playing both sides in the search and the re-measure (random, greedy, montecarlo or "
    "mcts, with parameters as in mcts:iterations=800).",
    "random",
    metavar="AGENT",
    check=checked_agent,
)
BLEED = Option(
    "--bleed",
    "Cards only (Coin Age): run the colours this far past the trim lines (e.g. 3mm), "
    "with crop marks and a PDF BleedBox; 0 prints dashed cut lines instead.",
    "0",
    "length-or-zero",
    metavar="LENGTH",
)
"""Declared by games that print cards; its value goes to the print settings, not the game."""


@dataclass(frozen=True)
class Seat:
    """A player's seat in ``play``: the option naming its agent, and the default agent."""

    player: str
    flag: str
    default: str = "random"


@dataclass(frozen=True)
class BoardPrint:
    """What ``board GAME`` prints: the layout, its drawing, the default file name (without
    suffix), lines said before writing (``seed 3``) and warnings about the layout."""

    layout: Layout
    sheet: Sheet
    name: str
    said: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()


class Game(ABC):
    """One game. Subclasses set the class attributes and implement the abstract hooks; the
    other hooks have defaults that fit a game without them."""

    name: ClassVar[str]
    """The name the command line, layout files and records use (``cointable``)."""
    title: ClassVar[str]
    """The name printed on sheets (``Coin Table``)."""
    simulated: ClassVar[bool] = True
    """Whether agents can play it (``play``, ``balance``)."""
    default_layout: ClassVar[str] = ""
    """The layout spec ``play`` and ``balance`` use when none is given (default: the name)."""
    generated: ClassVar[Mapping[str, str] | None] = None
    """For games whose layouts are generated from a seed: the spec parameters that ask for a
    generated layout (``{"map": "random"}``); None when every layout is fixed."""
    drawing: ClassVar[Conventions | None] = Conventions()
    """How drawings (SVG, foreign GeoJSON) name this game's parts; None: a drawing cannot be
    read as a layout of this game."""
    template_folder: ClassVar[Path | None] = None
    """Where the rule-sheet texts ``<name>.<lang>.json`` are (default: coinprint's templates/);
    a game with none has no rule sheet and its kit is the board alone."""
    board_noun: ClassVar[str] = "board"
    """What its board is called in help texts (``map card``, ``mat``)."""

    board_options: ClassVar[tuple[Option, ...]] = ()
    """Options of ``board GAME`` beyond the shared paper, print, output and layout ones."""
    rules_options: ClassVar[tuple[Option, ...]] = ()
    """Options of ``rules GAME`` beyond paper, language and output."""
    play_options: ClassVar[tuple[Option, ...]] = ()
    """Options of ``play GAME`` that choose the layout (``--size``) or set the rules
    (``--supply``); see :meth:`play_layout` and :meth:`rule_options`."""
    seats: ClassVar[tuple[Seat, ...]] = ()
    """``play GAME``'s agent options, first mover first."""
    play_seed: ClassVar[int] = 1
    """The default seed of the first game of ``play``."""
    play_max_turns: ClassVar[int] = 2000
    """The default move limit of ``play`` (a cut game is a timeout, never a win)."""

    # The board and its check.

    @abstractmethod
    def build(self, params: Mapping[str, str]) -> Layout:
        """The built-in layout from ``game:key=value,…`` parameters (strings, as in a record);
        :class:`~coinprint.errors.UsageError` for a bad parameter."""

    @abstractmethod
    def problems(self, layout: Layout, *, tolerance_mm: float = 0.2) -> list[Problem]:
        """Every problem with a layout of this game; never raises on a bad layout. Lengths
        may be off by ``tolerance_mm`` where the check compares them."""

    # The rules.

    @abstractmethod
    def rules(self, layout: Layout, options: Mapping[str, Any] | None = None) -> Rules[Any, Any]:
        """The rules engine on ``layout`` with the record's ``options``."""

    @property
    def layout_spec(self) -> str:
        """The layout spec ``play`` and ``balance`` use when none is given."""
        return self.default_layout or self.name

    def layout_name(self, layout: Layout) -> str:
        """The layout spec that rebuilds a generated ``layout`` (for records and fair searches)."""
        raise UsageError(f"{self.title} layouts are not generated from a seed")

    @property
    def players(self) -> tuple[str, ...]:
        """The seats of a standard game, first to move first."""
        return tuple(self.rules(self.build({})).players)

    def replay_note(self, rules: Rules[Any, Any], state: Any, move: Any) -> str:
        """A line a replay page shows under a move (Coin Age: the turn's throw), or ""."""
        return ""

    # Drawing and printing.

    @abstractmethod
    def board_sheet(self, layout: Layout, style: str) -> Sheet:
        """The board, card or mat at true size."""

    def position_sheet(
        self, layout: Layout, marks: Sequence[Mark], players: Sequence[str], *, title: str = ""
    ) -> Sheet:
        """A position: the board with a coin on each marked space."""

        return position_sheet(layout, marks, players, title=title)

    def position_svg(self, rules: Rules[Any, Any], state: Any) -> bytes:
        """A position as a true-size SVG document (how a notebook and ``validate game --svg``
        show it)."""

        marks, title = rules.marks(state), rules.describe_title(state)
        return scene_to_svg(single_sheet(self.position_sheet(rules.layout, marks, rules.players, title=title), 10.0))

    @abstractmethod
    def kit_pages(self, settings: PrintSettings, lang: str) -> list[Scene]:
        """The print-and-play kit: the rule sheet first, then the board."""

    def sheet_values(self, template: dict[str, Any], source: str, **params: Any) -> SheetParts | None:
        """What the game adds to the words of ``templates/<game>.<lang>.json`` to make its rule
        sheet (values, example positions, generated blocks); None for a game with no sheet."""
        return None

    def rules_extra_pages(self, paper: PaperSize, lang: str) -> list[Scene]:
        """Pages ``rules GAME`` prints after the sheet (the Map's blank sheet)."""
        return []

    def summary_line(self, layout: Layout) -> str | None:
        """One line of figures about a valid layout for ``validate layout``, if any."""
        return None

    def named(self, layout: Layout) -> Layout:
        """A layout read from a file or drawing, with the names this game gives spaces drawn
        without one (Coin Table: ``a1`` …)."""
        return layout

    def printable(self, layout: Layout) -> Layout:
        """A checked layout read from a file or drawing, completed with what this game's
        drawing shows and a drawing does not say (colours, sizes, a card outline)."""
        return layout

    def drawn_values(self, layout: Layout) -> dict[str, Any]:
        """What the rule sheet printed with a drawn ``layout`` says of its board (its
        ``sheet_values`` parameters: the Map's number of countries, the Coin Table side)."""
        return {}

    def drawn_sheet(self, layout: Layout, settings: PrintSettings, *, copies: int | None, for_pdf: bool) -> Sheet:
        """A checked layout read from a file or drawing, drawn for print (``--layout``)."""
        return self.board_sheet(layout, settings.style)

    # What the generic commands ask of the game.

    def board_layout(self, values: Mapping[str, Any]) -> Layout:
        """The layout ``board GAME`` prints, from the values of :attr:`board_options`."""
        return self.build({key: str(value) for key, value in values.items() if value is not None})

    def board_print(self, layout: Layout, values: Mapping[str, Any], settings: PrintSettings, pdf: bool) -> BoardPrint:
        """How ``board GAME`` prints ``layout`` (made by :meth:`board_layout`, perhaps swapped for
        the fairest of several by ``--fair``); ``pdf`` says whether it goes to a PDF (cards are
        then laid out on the paper)."""
        return BoardPrint(layout, self.board_sheet(layout, settings.style), f"{self.name}-board")

    def play_layout(self, values: Mapping[str, Any]) -> str:
        """The layout spec ``play GAME`` uses, from the values of :attr:`play_options`."""
        return self.default_layout or self.name

    def rule_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The rules options (a record's ``options``) from the values of :attr:`play_options`."""
        return {}

    def rules_params(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """What ``rules GAME`` passes to the sheet, from the values of :attr:`rules_options`."""
        return {}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
