"""What the studio prints and checks, as bytes: the same composition as ``board``, ``kit``,
``rules`` and ``validate layout`` (the functions below the command line), reading the choices
from a request's text fields through the game's schema instead of click.

Nothing here touches the file system: a drawing comes in as bytes, and every output goes
back as bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from coinprint.agents import AGENT_PARAMETERS, checked_agent
from coinprint.caps import check_candidates, check_copies, check_games, check_lang, check_tolerance
from coinprint.commands import (
    CheckedLayout,
    FairOptions,
    board_sheet,
    check_fair,
    check_layout_data,
    compose_board,
    fairest,
    game_values,
)
from coinprint.errors import UsageError
from coinprint.kit.board import board_data
from coinprint.kit.kit import kit, kit_params, kit_pdf, kit_values
from coinprint.kit.rulesheet import known_languages, languages, rule_sheet_language, rules_pdf
from coinprint.layout_report import layout_report_data, problem_geometry
from coinprint.printing import DEFAULT_MARGIN, PrintSettings
from coinprint.registry import GAMES
from coinprint.render.style import palette_names
from coinprint.render.svg import scene_to_svg
from coinprint.source import game_named
from coinprint.units import default_paper, length_or_zero, paper_size

if TYPE_CHECKING:
    from coinprint.game import Game
    from coinprint.layout import Layout
    from coinprint.params import Param, Values

FORMATS = ("pdf", "svg", "geojson")
"""What ``/api/board`` writes."""
MEDIA_TYPES = {"pdf": "application/pdf", "svg": "image/svg+xml", "geojson": "application/geo+json"}
PRINT_FIELDS = ("paper", "margin", "overlap", "style")
"""The print settings every board takes (the options of ``board``'s ``--paper`` … ``--style``)."""
CARD_FIELDS = ("copies", "bleed")
"""The print settings of a game that prints cards."""
PAPERS = ("a4", "letter", "a5", "a3", "legal", "tabloid")
"""The papers the forms offer by name (any ``WxH`` is accepted too)."""


def requested_game(name: str) -> Game:
    """The registered game a request names; :class:`UnknownGame` (answered with 404) naming
    the games there are."""
    if name not in GAMES:
        raise UnknownGame(f"unknown game {name!r}; use one of: {', '.join(GAMES.names())}")
    return game_named(name)


class UnknownGame(UsageError):
    """A request named a game that is not registered (answered with 404)."""


# -- the schema as JSON ----------------------------------------------------------------------------------
def param_json(param: Param) -> dict[str, Any]:
    """One parameter as the forms and ``/api/games`` describe it."""
    return {
        "name": param.name,
        "kind": param.kind,
        "help": param.describe(),
        "default": param.text(param.default),
        "commands": sorted(param.commands),
        "role": param.role,
        "low": param.low,
        "high": param.high,
        "choices": list(param.choices),
        "none": param.none,
    }


def game_json(game: Game) -> dict[str, Any]:
    """A game as ``/api/games`` lists it: its name, capabilities and parameter schema."""
    return {
        "name": game.name,
        "title": game.title,
        "board_noun": game.board_noun,
        "generated": None if game.generated is None else {"asks": dict(game.generated.asks)},
        "cards": game.cards,
        "drawn": game.drawing is not None,
        "seats": [{"player": seat.player, "default": seat.default} for seat in game.seats],
        "default_spec": game.default_spec,
        "languages": languages(game),
        "params": [param_json(param) for param in game.schema],
        "board": [param.name for param in game.schema.shown_in("board")],
        "kit": [param.name for param in kit_params(game)],
        "rules": [param.name for param in game.schema.shown_in("rules")],
        "play": [param.name for param in game.schema.shown_in("play")],
    }


def catalogue() -> dict[str, Any]:
    """Everything the forms are made from: the games with their schemas, papers, styles,
    languages and agents."""
    return {
        "games": [game_json(game) for game in GAMES],
        "papers": list(PAPERS),
        "default_paper": default_paper()[0],
        "styles": list(palette_names()),
        "languages": known_languages(),
        "agents": {name: sorted(params) for name, params in AGENT_PARAMETERS.items()},
    }


# -- reading a request's fields ----------------------------------------------------------------------------
def field_values(game: Game, command: str, fields: Mapping[str, str]) -> Values:
    """The values of ``game``'s parameters shown in ``command``, from text ``fields`` (keys
    spelt with ``_`` or ``-``; an empty field is not given), each read as the command line
    reads its option; the others at their defaults."""
    typed: dict[str, Any] = {}
    given = []
    by_name = {key.replace("-", "_"): value for key, value in fields.items()}
    for param in game.schema.shown_in(command):
        text = by_name.get(param.name, "")
        typed[param.name] = param.parse(text if text != "" else param.default, param.flag(command))
        if text != "":
            given.append(param.name)
    return game_values(game, command, typed, given)


def refuse_unknown(fields: Mapping[str, str], known: set[str], what: str) -> None:
    """Refuse a field no one reads (a misspelt parameter, a path where none is taken)."""
    unknown = sorted(key for key in fields if key.replace("-", "_") not in known)
    if unknown:
        raise UsageError(f"{what} takes no {', '.join(unknown)}; use {', '.join(sorted(known))}")


def print_settings(game: Game, fields: Mapping[str, str], *, board: bool = True) -> PrintSettings:
    """The print settings in ``fields`` (``paper``, ``margin``, ``overlap``, ``style``,
    ``bleed``), at the command line's defaults when left out."""
    bleed = fields.get("bleed") or "0"
    if not game.cards and bleed not in ("0", "0mm"):
        raise UsageError(f"bleed is for cards; {game.title} prints no cards")
    return PrintSettings.checked(
        paper_size(fields.get("paper") or default_paper()[0]),
        margin=length_or_zero(fields.get("margin") or "10mm") if board else DEFAULT_MARGIN,
        overlap=length_or_zero(fields.get("overlap") or "10mm") if board else DEFAULT_MARGIN,
        style=fields.get("style") or "color",
        bleed=length_or_zero(bleed),
    )


@dataclass(frozen=True)
class Board:
    """A board printed for the studio: the file's bytes, and the lines ``board`` says."""

    data: bytes
    fmt: str
    name: str
    """The file's name as the command line names it (without the folder)."""
    spec: str
    seed: int | None
    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def board_fields(game: Game) -> set[str]:
    """The fields ``/api/board/{game}`` reads."""
    names = {param.name for param in game.schema.shown_in("board")} | set(PRINT_FIELDS) | {"lang"}
    return names | set(CARD_FIELDS) if game.cards else names


def board(game: Game, fields: Mapping[str, str], fmt: str, *, layout: Layout | None = None) -> Board:
    """``board GAME`` for the choices in ``fields``: the same bytes as the command line
    writes for the same options (``-o FILE.fmt``). ``layout`` is a checked drawing to print
    instead (``board GAME --layout FILE``); the game's layout parameters are then refused."""
    if fmt not in FORMATS:
        raise UsageError(f"format {fmt!r} is not available; use one of: {', '.join(FORMATS)}")
    refuse_unknown(fields, board_fields(game), f"board {game.name}")
    values = field_values(game, "board", fields)
    settings = print_settings(game, fields)
    copies = check_copies(_whole(fields["copies"], "copies")) if game.cards and fields.get("copies") else None
    lang = check_lang(fields.get("lang") or "en")  # as ``board --lang`` takes it
    if layout is not None:
        if values.given:
            names = ", ".join(sorted(values.given))
            raise UsageError(f"a drawing prints as it is drawn; leave out {names}")
        printed = game.printable(layout)
        sheet = board_sheet(game, printed, settings, fmt, copies=copies, lang=lang)
        data = board_data(printed, sheet, settings, fmt)
        return Board(_bytes(data), fmt, f"{game.name}-drawing.{fmt}", "a drawing", None)
    made = compose_board(game, values, settings, fmt, copies=copies, lang=lang)
    data = board_data(made.layout, made.sheet, settings, fmt)
    spec = game.spec_of(values.plain())
    return Board(_bytes(data), fmt, f"{made.name}.{fmt}", spec, made.seed, made.lines, made.warnings)


def _whole(text: str, where: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{where} must be a whole number, not {text!r}") from None


def _bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


# -- the fair-map search -------------------------------------------------------------------------------
@dataclass(frozen=True)
class FairMap:
    """What ``board … --fair`` finds: the fairest map's spec and seed, and its line (the
    re-measured figure)."""

    spec: str
    seed: int | None
    line: str


FAIR_FIELDS = ("candidates", "agent", "fair_games")
"""The fields of a fair search besides the map's parameters (``--candidates`` …)."""


@dataclass(frozen=True)
class FairPlan:
    """A fair search checked and ready: the map it starts from (its seed first), and how the
    search goes (how many maps, who plays them, how many fresh games re-measure the chosen)."""

    game: Game
    layout: Layout
    options: FairOptions


def fair_plan(game: Game, fields: Mapping[str, str]) -> FairPlan:
    """The search ``board GAME --fair`` makes for the map in ``fields`` (and ``candidates``,
    ``agent``, ``fair_games``, at the command line's defaults), checked before any game."""
    map_fields = {key: value for key, value in fields.items() if key not in FAIR_FIELDS}
    refuse_unknown(map_fields, {param.name for param in game.schema.shown_in("board")}, f"a fair {game.name} map")
    values = field_values(game, "board", map_fields)
    check_fair(game, values, what="a fair search", spell=_fields_asked)
    default = FairOptions()
    candidates = check_candidates(_whole(fields.get("candidates") or str(default.candidates), "candidates"))
    agent = checked_agent(fields.get("agent") or default.agent, "agent")
    fair_games = check_games(_whole(fields.get("fair_games") or str(default.fair_games), "fair_games"), "fair_games")
    return FairPlan(game, game.layout(values), FairOptions(candidates, agent, fair_games))


def _fields_asked(game: Game, asks: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}={value}" for key, value in asks.items())


def fair_map(plan: FairPlan, progress: Callable[[int, int], None]) -> FairMap:
    """The fairest map of ``plan``, as ``board --fair`` finds it, with ``progress(done,
    total)`` as games are played (at each whole per cent). One worker process: the search is
    deterministic, so it finds what the command line finds on any number."""
    total, done, said = plan.options.games, 0, -1

    def played(count: int) -> None:  # said at each whole per cent, not after every game
        nonlocal done, said
        done = min(done + count, total)
        if done * 100 // total > said:
            said = done * 100 // total
            progress(done, total)

    chosen, line = fairest(plan.game, plan.layout, replace(plan.options, workers=1, progress=played))
    return FairMap(plan.game.layout_spec(chosen), chosen.meta.get("seed"), line)


# -- kits and rule sheets --------------------------------------------------------------------------------
def kit_choices(game: Game, fields: Mapping[str, str]) -> tuple[PrintSettings, str, Values]:
    """The settings, language and layout options of ``kit GAME`` in ``fields`` (``paper``,
    ``style``, ``lang``, ``bleed``, and the game's layout parameters as ``kit GAME`` takes
    them), the language as the kit chooses it (English when the game has no texts in a
    language coinprint knows)."""
    own = {param.name for param in kit_params(game)}
    refuse_unknown(fields, own | {"paper", "style", "lang", "bleed"}, f"kit {game.name}")
    settings = print_settings(game, fields, board=False)
    lang = rule_sheet_language(game, check_lang(fields.get("lang") or "en"))
    return settings, lang, kit_options(game, fields)


def kit_options(game: Game, fields: Mapping[str, str]) -> Values:
    """The kit's layout options in ``fields``, each read as ``kit GAME``'s option reads it
    (an empty field is not given; no fresh seed is drawn, as on the command line)."""
    by_name = {key.replace("-", "_"): value for key, value in fields.items()}
    typed: dict[str, Any] = {}
    for param in kit_params(game):
        text = by_name.get(param.name, "")
        if text != "":
            typed[param.name] = param.parse(text, param.flag("board"))
    return kit_values(game, typed, typed)


def kit_bytes(game: Game, fields: Mapping[str, str], *, layout: Layout | None = None) -> bytes:
    """``kit GAME`` for the choices in ``fields``: the same PDF bytes the command line
    writes (``-o FILE.pdf``); ``layout`` a checked drawing (``kit GAME --layout FILE``),
    which takes no layout options."""
    settings, lang, options = kit_choices(game, fields)
    if layout is not None and options.given:
        given = ", ".join(sorted(options.given))
        raise UsageError(f"a drawing's kit prints it as it is drawn; leave out {given}")
    return kit_pdf(game, settings, lang, layout=layout, options=options)


def kit_page_svgs(game: Game, fields: Mapping[str, str]) -> list[bytes]:
    """Each page of the kit as an SVG document, for the preview."""
    settings, lang, options = kit_choices(game, fields)
    return [scene_to_svg(page) for page in kit(game, settings, lang, options=options).pages]


def rules_bytes(game: Game, fields: Mapping[str, str]) -> bytes:
    """``rules GAME`` for the choices in ``fields`` (``paper``, ``lang``, ``appendix``, and
    the parameters the rule sheet shows): the same PDF bytes as the command line."""
    shown = {param.name for param in game.schema.shown_in("rules")}
    refuse_unknown(fields, shown | {"paper", "lang", "appendix"}, f"rules {game.name}")
    values = field_values(game, "rules", {k: v for k, v in fields.items() if k.replace("-", "_") in shown})
    appendix = (fields.get("appendix") or "false").lower() in ("1", "true", "yes", "on")
    paper = paper_size(fields.get("paper") or default_paper()[0])
    return rules_pdf(game, paper, check_lang(fields.get("lang") or "en"), values, appendix=appendix)


# -- checking a drawing -------------------------------------------------------------------------------------
@dataclass
class Check:
    """A drawing checked as ``validate layout`` checks it: the verdict, the problems (with
    their places), the lines the command says, and the report picture."""

    source: str
    checked: CheckedLayout
    lines: list[str]
    summary: str | None

    @classmethod
    def of(cls, source: str, checked: CheckedLayout, lines: list[str]) -> Check:
        """The check of the file called ``source``: the ``lines`` said while checking, then
        the verdict and summary lines ``validate layout`` says."""
        lines.append(f"{source}: {checked.verdict}")
        summary = checked.summary
        if summary is not None:
            lines.append(f"{source}: {summary}")
        return cls(source, checked, lines, summary)

    def to_json(self) -> dict[str, Any]:
        layout = self.checked.layout
        problems = []
        number = 0
        for problem in self.checked.problems:
            marked = problem.severity in ("error", "warning")
            number += 1 if marked else 0
            geometry = problem_geometry(layout, problem)
            place = None
            if geometry is not None and not geometry.is_empty:
                place = [round(value, 3) for value in geometry.bounds]
            problems.append(
                {
                    "number": number if marked else None,
                    "severity": problem.severity,
                    "message": str(problem),
                    "feature": problem.feature,
                    "place": place,
                }
            )
        return {
            "source": self.source,
            "game": layout.game,
            "valid": self.checked.valid,
            "verdict": self.checked.verdict,
            "summary": self.summary,
            "problems": problems,
            "lines": self.lines,
        }

    def report_svg(self) -> bytes:
        """The verdict drawn on the drawing: the picture of ``validate layout --report``."""
        return layout_report_data(self.checked.layout, self.checked.problems, self.checked.verdict, "svg")


def check_drawing(data: bytes, source: str, fields: Mapping[str, str]) -> Check:
    """``validate layout`` for the bytes of a drawing called ``source`` (``game``, ``units``
    and ``tolerance`` from ``fields``): the same verdict and messages."""
    refuse_unknown(fields, {"game", "units", "tolerance"}, "check")
    game = fields.get("game") or None
    if game is not None:
        requested_game(game)
    tolerance = fields.get("tolerance")
    tolerance_mm = None
    if tolerance:
        try:
            tolerance_mm = check_tolerance(float(tolerance.removesuffix("mm")))
        except ValueError:
            raise UsageError(f"--tolerance must be a length in mm, not {tolerance!r}") from None
    lines: list[str] = []
    checked = check_layout_data(data, source, game, fields.get("units") or "mm", tolerance_mm, lines.append)
    return Check.of(source, checked, lines)
