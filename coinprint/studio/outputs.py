"""What the studio prints and checks, as bytes: the same composition as ``board``, ``kit``,
``rules`` and ``validate layout`` (the functions below the command line), reading the choices
from a request's text fields through the game's schema instead of click.

Nothing here touches the file system: a drawing comes in as bytes, and every output goes
back as bytes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from coinprint.agents import AGENT_PARAMETERS, checked_agent
from coinprint.caps import check_candidates, check_copies, check_games, check_lang, check_tolerance
from coinprint.commands import CheckedLayout, check_layout_data
from coinprint.errors import UsageError
from coinprint.fair import FAIR_GAMES, SEARCH_GAMES, fairest_map, search_games
from coinprint.kit.board import board_data
from coinprint.kit.kit import kit, kit_pdf
from coinprint.kit.output import board_file_name
from coinprint.kit.rulesheet import known_languages, languages, print_job, rule_sheet_language, rules_pdf
from coinprint.layout_report import layout_report_data, problem_geometry
from coinprint.printing import DEFAULT_MARGIN, PrintSettings, length_or_zero
from coinprint.registry import GAMES
from coinprint.render.style import palette_names
from coinprint.render.svg import scene_to_svg
from coinprint.source import game_named as source_game_named
from coinprint.units import default_paper, paper_size

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


def game_named(name: str) -> Game:
    """The registered game called ``name``; :class:`UnknownGame` naming the games there are."""
    if name not in GAMES:
        raise UnknownGame(f"unknown game {name!r}; use one of: {', '.join(GAMES.names())}")
    return source_game_named(name)


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
def game_values(game: Game, command: str, fields: Mapping[str, str]) -> Values:
    """The values of ``game``'s parameters shown in ``command``, from text ``fields`` (keys
    spelt with ``_`` or ``-``; an empty field is not given), each read as the command line
    reads its option; the others at their defaults."""
    shown = game.schema.shown_in(command)
    typed: dict[str, Any] = {}
    given = []
    by_name = {key.replace("-", "_"): value for key, value in fields.items()}
    for param in shown:
        text = by_name.get(param.name, "")
        flag = param.flag(command)
        if text != "":
            typed[param.name] = param.parse(text, flag)
            given.append(param.name)
        else:
            typed[param.name] = param.parse(param.default, flag)
    values = game.schema.from_options(command, typed, given)
    # As on the command line: a generated map given no seed gets a fresh one (the answer names it).
    return game.schema.with_fresh_seeds(command, values, game.generated is not None and game.generated.of(values))


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
    names = {param.name for param in game.schema.shown_in("board")} | set(PRINT_FIELDS)
    return names | set(CARD_FIELDS) if game.cards else names


def board(game: Game, fields: Mapping[str, str], fmt: str, *, layout: Layout | None = None) -> Board:
    """``board GAME`` for the choices in ``fields``: the same bytes as the command line
    writes for the same options (``-o FILE.fmt``). ``layout`` is a checked drawing to print
    instead (``board GAME --layout FILE``); the game's layout parameters are then refused."""
    if fmt not in FORMATS:
        raise UsageError(f"format {fmt!r} is not available; use one of: {', '.join(FORMATS)}")
    refuse_unknown(fields, board_fields(game), f"board {game.name}")
    values = game_values(game, "board", fields)
    settings = print_settings(game, fields)
    copies = check_copies(_whole(fields["copies"], "copies")) if game.cards and fields.get("copies") else None
    if layout is not None:
        if values.given:
            names = ", ".join(sorted(values.given))
            raise UsageError(f"a drawing prints as it is drawn; leave out {names}")
        printed = game.printable(layout)
        job = print_job(game, settings, copies=copies, paged=fmt == "pdf")
        data = board_data(printed, game.sheet(printed, job), settings, fmt)
        return Board(_bytes(data), fmt, f"{game.name}-drawing.{fmt}", "a drawing", None)
    built = game.layout(values)
    lines: list[str] = []
    seed = built.meta.get("seed") if game.generated is not None else None
    if seed is not None:
        summary = game.summary(built)
        lines.append(f"seed {seed}" + (f": {summary}" if summary else ""))
    warnings = [str(problem) for problem in game.problems(built) if problem.severity == "warning"]
    job = print_job(game, settings, copies=copies, paged=fmt == "pdf")
    data = board_data(built, game.sheet(built, job), settings, fmt)
    name = f"{board_file_name(game, built, fmt, settings.paper)}.{fmt}"
    return Board(_bytes(data), fmt, name, game.spec_of(values.plain()), seed, lines, warnings)


def new_seed(rng: random.Random | None = None) -> int:
    """A seed for a new map at one click (six digits: easy to read out and type)."""
    return (rng or random.SystemRandom()).randrange(1, 1_000_000)


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
    """A fair search checked and ready: the map it starts from (its seed first), how many
    maps it tries, who plays them, and how many fresh games the chosen one is re-measured on."""

    game: Game
    layout: Layout
    candidates: int
    agent: str
    fair_games: int

    @property
    def games(self) -> int:
        """How many games the search plays (the length of its progress bar)."""
        return search_games(self.candidates, SEARCH_GAMES, self.fair_games)


def fair_plan(game: Game, fields: Mapping[str, str]) -> FairPlan:
    """The search ``board GAME --fair`` makes for the map in ``fields`` (and ``candidates``,
    ``agent``, ``fair_games``, at the command line's defaults), checked before any game."""
    map_fields = {key: value for key, value in fields.items() if key not in FAIR_FIELDS}
    refuse_unknown(map_fields, {param.name for param in game.schema.shown_in("board")}, f"a fair {game.name} map")
    generated = game.generated
    if generated is None:
        raise UsageError(f"a fair search needs a generated map; {game.title} layouts are fixed")
    values = game_values(game, "board", map_fields)
    if not generated.of(values):
        raise UsageError(f"a fair search needs {', '.join(f'{k}={v}' for k, v in generated.asks.items())}")
    candidates = check_candidates(_whole(fields.get("candidates") or "10", "candidates"))
    agent = checked_agent(fields.get("agent") or "random", "agent")
    fair_games = check_games(_whole(fields.get("fair_games") or str(FAIR_GAMES), "fair_games"), "fair_games")
    return FairPlan(game, game.layout(values), candidates, agent, fair_games)


def fair_map(plan: FairPlan, progress: Callable[[int, int], None]) -> FairMap:
    """The fairest map of ``plan``, by :func:`coinprint.fair.fairest_map` as ``board --fair``
    finds it, with ``progress(done, total)`` as games are played (at each whole per cent). One worker process: the
    search is deterministic, so it finds what the command line finds on any number."""
    total, done, said = plan.games, 0, -1

    def played(count: int) -> None:  # said at each whole per cent, not after every game
        nonlocal done, said
        done = min(done + count, total)
        if done * 100 // total > said:
            said = done * 100 // total
            progress(done, total)

    chosen, line = fairest_map(
        plan.game,
        plan.layout,
        plan.candidates,
        agent=plan.agent,
        fair_games=plan.fair_games,
        workers=1,
        progress=played,
    )
    return FairMap(plan.game.layout_spec(chosen), chosen.meta.get("seed"), line)


# -- kits and rule sheets --------------------------------------------------------------------------------
def kit_choices(game: Game, fields: Mapping[str, str]) -> tuple[PrintSettings, str]:
    """The settings and language of ``kit GAME`` in ``fields`` (``paper``, ``style``,
    ``lang``, ``bleed``), the language as the kit chooses it (English when the game has no
    texts in a language coinprint knows)."""
    refuse_unknown(fields, {"paper", "style", "lang", "bleed"}, f"kit {game.name}")
    settings = print_settings(game, fields, board=False)
    lang = rule_sheet_language(game, check_lang(fields.get("lang") or "en"))
    return settings, lang


def kit_bytes(game: Game, fields: Mapping[str, str], *, layout: Layout | None = None) -> bytes:
    """``kit GAME`` for the choices in ``fields``: the same PDF bytes the command line
    writes (``-o FILE.pdf``); ``layout`` a checked drawing (``kit GAME --layout FILE``)."""
    settings, lang = kit_choices(game, fields)
    return kit_pdf(game, settings, lang, layout=layout)


def kit_page_svgs(game: Game, fields: Mapping[str, str]) -> list[bytes]:
    """Each page of the kit as an SVG document, for the preview."""
    settings, lang = kit_choices(game, fields)
    return [scene_to_svg(page) for page in kit(game, settings, lang).pages]


def rules_bytes(game: Game, fields: Mapping[str, str]) -> bytes:
    """``rules GAME`` for the choices in ``fields`` (``paper``, ``lang``, ``appendix``, and
    the parameters the rule sheet shows): the same PDF bytes as the command line."""
    shown = {param.name for param in game.schema.shown_in("rules")}
    refuse_unknown(fields, shown | {"paper", "lang", "appendix"}, f"rules {game.name}")
    values = game_values(game, "rules", {k: v for k, v in fields.items() if k.replace("-", "_") in shown})
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
        game_named(game)
    tolerance = fields.get("tolerance")
    tolerance_mm = None
    if tolerance:
        try:
            tolerance_mm = check_tolerance(float(tolerance.removesuffix("mm")))
        except ValueError:
            raise UsageError(f"--tolerance must be a length in mm, not {tolerance!r}") from None
    lines: list[str] = []
    checked = check_layout_data(data, source, game, fields.get("units") or "mm", tolerance_mm, lines.append)
    lines.append(f"{source}: {checked.verdict}")
    layout = checked.layout
    summary = game_named(layout.game).summary(layout) if checked.valid and layout.game in GAMES else None
    if summary is not None:
        lines.append(f"{source}: {summary}")
    return Check(source, checked, lines, summary)
