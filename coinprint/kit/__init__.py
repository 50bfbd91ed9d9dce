"""Writing boards, rule sheets, positions and whole kits to files: the layer the CLI calls
to turn layouts, rules and drawings into PDF, SVG or GeoJSON on disk.

Each game's ``sheet.py`` (``coinprint/games/<game>/``) gives the values, examples (replayed
by its rules engine, drawn by its drawing) and generated blocks of its rule sheet; this
module sets them from the template, and writes kits: the rule sheet and the board, one PDF.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint.caps import MAX_BLEED_MM, check_pages
from coinprint.engine import IllegalMoveError, InvalidMoveError
from coinprint.errors import CoinprintError, UsageError
from coinprint.fileio import STDOUT, write_atomic
from coinprint.registry import GAMES
from coinprint.render.pages import localise_numbers, page_words, paginate, plans, single_sheet
from coinprint.render.pdf import pages_to_pdf
from coinprint.render.scene import Scene
from coinprint.render.style import palette_names
from coinprint.render.svg import scene_to_svg
from coinprint.resources import templates_dir
from coinprint.source import builtin_layout, rules_for
from coinprint.units import PaperSize, paper_size, parse_length

if TYPE_CHECKING:
    from coinprint.engine import Rules
    from coinprint.layout import Layout
    from coinprint.render.pages import Sheet

DEFAULT_FOLDER = Path("output")
SUFFIXES = {".pdf": "pdf", ".svg": "svg", ".geojson": "geojson", ".json": "geojson"}


@dataclass(frozen=True)
class PrintSettings:
    """How to print: the paper, margins, overlap of tiled pages, and the style name."""

    paper: PaperSize
    margin_mm: float = 10.0
    overlap_mm: float = 10.0
    style: str = "color"
    bleed_mm: float = 0.0
    """How far cards' colours run past their trim lines (with crop marks and a PDF BleedBox)."""

    @classmethod
    def parse(
        cls,
        *,
        paper: str = "a4",
        margin: str = "10mm",
        overlap: str = "10mm",
        style: str = "color",
        bleed: str = "0",
    ) -> PrintSettings:
        """Settings from command-line text; bad values raise UsageError naming them."""
        sheet = paper_size(paper)
        margin_mm = 0.0 if str(margin).strip() in ("0", "0mm") else parse_length(margin, default_unit="mm")
        overlap_mm = 0.0 if str(overlap).strip() in ("0", "0mm") else parse_length(overlap, default_unit="mm")
        if margin_mm * 2 > sheet.width_mm - 40:
            raise UsageError(
                f"margin {margin} leaves too little of a {sheet.name} page; use at most {(sheet.width_mm - 40) / 2:.0f} mm"
            )
        if overlap_mm > 50:
            raise UsageError(f"overlap {overlap} is too large; use 0 to 50 mm")

        if style not in palette_names():
            raise UsageError(f"unknown style '{style}'; use {' or '.join(palette_names())}")
        bleed_mm = 0.0 if str(bleed).strip() in ("0", "0mm") else parse_length(bleed, default_unit="mm")
        if not 0 <= bleed_mm <= MAX_BLEED_MM:
            raise UsageError(f"bleed {bleed} is out of range; use 0 to {MAX_BLEED_MM:g} mm")
        return cls(sheet, margin_mm, overlap_mm, style, bleed_mm)


def resolve_output(
    output: str | None, fmt: str | None, default_name: str, formats: tuple[str, ...] = ("pdf", "svg", "geojson")
) -> tuple[Path, str]:
    """The file to write and its format, from ``-o`` and ``--format``.

    ``-o`` may be a file (its suffix gives the format unless ``--format`` is given) or a
    folder (an existing one, or a path ending in ``/``), where ``default_name`` is used.
    ``-`` (standard output) and devices such as ``/dev/null`` take ``--format``, else the
    first of ``formats``.
    """
    if output is not None and is_stream(output):
        chosen = fmt or formats[0]
        if chosen not in formats:
            raise UsageError(f"format {chosen} is not available here; use one of: {', '.join(formats)}")
        return Path(output), chosen
    if output is None or output.endswith(("/", "\\")) or Path(output).is_dir():
        folder = DEFAULT_FOLDER if output is None else Path(output)
        default = fmt or formats[0]
        return folder / f"{default_name}.{default}", default
    path = Path(output)
    inferred = SUFFIXES.get(path.suffix.lower())
    picked = fmt or inferred
    if picked is None:
        raise UsageError(
            f"cannot tell the format of '{output}'; end it in {', '.join('.' + f for f in formats)} or give --format"
        )
    chosen = picked
    if chosen not in formats:
        raise UsageError(f"format {chosen} is not available here; use one of: {', '.join(formats)}")
    if inferred and fmt and inferred != fmt and not (inferred == "geojson" and fmt == "geojson"):
        raise UsageError(f"-o '{output}' ends in {path.suffix} but --format is {fmt}; make them agree")
    return path, chosen


def is_stream(output: str) -> bool:
    """``-``, or an existing character device or FIFO (written through, never replaced)."""
    import stat

    if output == STDOUT:
        return True
    try:
        mode = os.stat(output).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def export_board(
    layout: Layout,
    sheet: Sheet,
    settings: PrintSettings,
    output: str | None,
    fmt: str | None,
    default_name: str,
    notes: Sequence[str] = (),
) -> list[Path]:
    """Write a board as PDF (tiled pages at true size), SVG (one true-size sheet) or GeoJSON;
    ``notes`` are more info lines printed under the sheet's own (e.g. how fair the map is).

    Returns the paths written. Nothing is written when anything fails.
    """
    if notes:
        sheet = replace(sheet, lines=[*sheet.lines, *notes])
    path, chosen = resolve_output(output, fmt, default_name)
    if chosen == "geojson":
        data: bytes | str = layout.dumps()
    elif chosen == "svg":
        data = scene_to_svg(single_sheet(sheet, settings.margin_mm))
    else:
        data = pages_to_pdf(board_pages(sheet, settings), title=sheet.title, keywords=_keywords(layout))
    return [write_atomic(path, data)]


def write_pages(
    pages: list[Scene], output: str | None, default_name: str, *, title: str, keywords: dict[str, Any] | None = None
) -> Path:
    """Write PDF pages (a rule sheet, a kit) to ``-o`` (a .pdf file or a folder)."""

    path, _ = resolve_output(output, None, default_name, ("pdf",))
    return write_atomic(path, pages_to_pdf(pages, title=title, keywords=keywords))


def template_folder(game: str) -> Path:
    """Where ``game``'s rule-sheet texts are: its own folder if it names one, else coinprint's
    ``templates/``."""

    return GAMES[game].template_folder or templates_dir()


def languages(game: str) -> list[str]:
    """The languages ``game``'s rule sheet is written in (``<game>.<lang>.json`` files)."""
    folder = template_folder(game)
    return sorted(p.name.split(".")[1] for p in folder.glob(f"{game}.*.json") if p.name.count(".") == 2)


def check_language(game: str, lang: str) -> None:
    """Refuse a language ``game`` has no texts in (UsageError naming the ones there are).
    The one language check behind every ``rules`` and ``kit`` command."""
    have = languages(game)
    if not have:
        raise UsageError(f"{game} has no rule sheet texts (no {game}.<lang>.json in {template_folder(game)})")
    if lang not in have:
        raise UsageError(f"no {game} rule sheet in language '{lang}'; use one of: {', '.join(have)}")


def sheet_template(game: str, lang: str = "en") -> dict[str, Any]:
    """The parsed texts of ``game`` in ``lang`` (``<game>.<lang>.json``)."""
    from coinprint.render.document import load_template

    check_language(game, lang)
    return dict(load_template(f"{game}.{lang}.json", template_folder(game)))


@dataclass
class SheetParts:
    """What a game adds to its template's words to make its rule sheet: the values for
    ``{name}`` fields, the figures by name, and blocks that stand for generated content
    (``{"generated": NAME}`` in the template is replaced by ``blocks[NAME]``)."""

    values: dict[str, Any]
    figures: dict[str, Scene]
    blocks: dict[str, list[dict[str, Any]]]


PLACES = ("board_pages", "blank_pages")
"""The template values that say where in the kit a part is (``{board_pages}``: the board,
``{blank_pages}``: the Map's blank sheet); a sheet printed on its own says they are
printed separately."""


def rule_sheet(
    game: str, paper: PaperSize, lang: str = "en", *, places: dict[str, str] | None = None, **params: Any
) -> list[Scene]:
    """``game``'s rule sheet on ``paper``: the one pipeline for every game.

    The words come from the template; the game's ``sheet_parts(template, source, **params)``
    (its registry entry names it) gives the values, figures (example positions replayed by the
    rules engine) and generated blocks. ``places`` says on which pages of the kit the board
    (and the blank sheet) are.
    """
    return sheet_material(game, lang, **params).pages("blocks", paper, places)


def appendix_pages(game: str, paper: PaperSize, lang: str = "en", **params: Any) -> list[Scene]:
    """The "for computers" pages (``rules --appendix``): how games are written down and
    checked, and the commands that print the board; set like the rule sheet."""
    return sheet_material(game, lang, **params).pages("appendix", paper)


@dataclass
class SheetMaterial:
    """A game's template in one language with everything its texts refer to (values,
    figures, generated blocks), made once and set on pages as often as needed."""

    template: dict[str, Any]
    source: str
    lang: str
    parts: SheetParts
    figures: dict[str, Scene]
    values: dict[str, Any]

    def pages(self, part: str, paper: PaperSize, places: dict[str, str] | None = None) -> list[Scene]:
        """The template's ``part`` (``blocks``: the rule sheet; ``appendix``) set on ``paper``."""
        from coinprint.render.document import blocks_from_json, layout_document

        values = {**self.values, **{key: page_words(self.lang)["in_kit"] for key in PLACES}, **(places or {})}
        doc: list[dict[str, Any]] = []
        for entry in self.template.get(part, []):
            doc += self.parts.blocks[entry["generated"]] if "generated" in entry else [entry]
        blocks = blocks_from_json(doc, values=values, figures=self.figures, source=self.source)
        title = self.template["title"] if part == "blocks" else self.template.get("appendix_title", "")
        return layout_document(blocks, paper, title=title or self.template["title"], footer=self.template["footer"])


def sheet_material(game: str, lang: str, **params: Any) -> SheetMaterial:
    """What ``game``'s rule sheet in ``lang`` is made of (see :class:`SheetMaterial`)."""

    template = sheet_template(game, lang)
    source = f"{game}.{lang}.json"
    parts = GAMES[game].sheet_values(template, source, **params)
    if parts is None:
        raise UsageError(f"{GAMES[game].title} has no rule sheet")
    specs = template.get("figures", {})
    figures = {key: example_position(game, spec, source=source, lang=lang) for key, spec in specs.items()}
    figures.update(parts.figures)
    values = {**{f"{key}_caption": spec.get("caption", "") for key, spec in specs.items()}, **parts.values}
    values = {key: localise_numbers(value, lang) if isinstance(value, str) else value for key, value in values.items()}
    return SheetMaterial(template, source, lang, parts, figures, values)


def page_range(first: int, count: int, lang: str = "en") -> str:
    """The words for "page 3" or "pages 3–4" in ``lang``."""

    words = page_words(lang)
    if count <= 1:
        return words["kit_page"].format(first=first)
    return words["kit_pages"].format(first=first, last=first + count - 1)


def with_rule_sheet(
    game: str, paper: PaperSize, lang: str, parts: dict[str, list[Scene]], **params: Any
) -> list[Scene]:
    """The rule sheet followed by ``parts`` (by place name, in order: the board pages, the
    blank sheet), the sheet saying on which pages each part is."""
    material = sheet_material(game, lang, **params)  # the examples are worked out once
    sheet_length = 1
    for _ in range(3):  # the page numbers may lengthen the sheet; settle in a pass or two
        places, first = {}, sheet_length + 1
        for name, pages in parts.items():
            places[name] = page_range(first, len(pages), lang)
            first += len(pages)
        sheet = material.pages("blocks", paper, places)
        if len(sheet) == sheet_length:
            break
        sheet_length = len(sheet)
    return sheet + [page for pages in parts.values() for page in pages]


def write_rules(
    game: str,
    paper: PaperSize,
    lang: str,
    output: str | None,
    fmt: str | None = None,
    *,
    appendix: bool = False,
    **params: Any,
) -> Path:
    """Write ``game``'s rule sheet in ``lang`` as a PDF (``-o`` a .pdf file or a folder).
    A game may add pages after the sheet (its registry entry's ``rules_extra_pages``: the
    Map's blank sheet); ``appendix`` adds the "for computers" pages at the end."""

    template = sheet_template(game, lang)
    path, _ = resolve_output(output, fmt, f"{game}-rules-{lang}", ("pdf",))
    extra = GAMES[game].rules_extra_pages(paper, lang)
    if extra:
        pages = with_rule_sheet(game, paper, lang, {"blank_pages": extra}, **params)
    else:
        pages = rule_sheet(game, paper, lang, **params)
    if appendix:
        pages += appendix_pages(game, paper, lang, **params)
    return write_pages(pages, str(path), game, title=template["title"], keywords={"game": game, "lang": lang})


def board_pages(sheet: Sheet, settings: PrintSettings) -> list[Scene]:
    """A board's sheet tiled on the paper of ``settings`` (the pages of its PDF)."""

    fewest = plans(sheet, settings.paper, settings.margin_mm, settings.overlap_mm, 0.0)
    check_pages(min(plan.pages for plan in fewest), f"this board on {settings.paper.name} paper")
    return paginate(sheet, settings.paper, settings.margin_mm, settings.overlap_mm)


def make_kit(
    game: str, settings: PrintSettings, lang: str, output: str | None, *, layout: Layout | None = None
) -> Path:
    """Write ``game``'s kit (rule sheet, then board) in ``lang`` as one PDF; returns the path.
    With ``layout`` (a valid layout of ``game``), that board is printed instead of the
    built-in one."""

    template = sheet_template(game, lang)
    if layout is None:
        pages = GAMES[game].kit_pages(settings, lang)
    else:
        drawn = GAMES[game]
        sheet = drawn.drawn_sheet(drawn.printable(layout), settings, copies=None, for_pdf=True)
        sheet.lang = lang
        pages = with_rule_sheet(
            game, settings.paper, lang, {"board_pages": board_pages(sheet, settings)}, **drawn.drawn_values(layout)
        )
    return write_pages(
        pages,
        output,
        f"{game}-kit",
        title=template["kit_title"],
        keywords={"game": game, "lang": lang, "paper": settings.paper.name},
    )


def example_position(game: str, spec: dict[str, Any], *, source: str = "template", lang: str = "en") -> Scene:
    """A rule sheet's example: the position after ``spec["moves"]`` on ``spec["layout"]`` (a
    built-in ``game:…`` name), replayed by the rules engine so an example is never illegal,
    and drawn by the game's position drawer."""

    spec_layout = str(spec.get("layout", game))
    if spec_layout.partition(":")[0] != game:
        raise CoinprintError(f"{source}: an example must be on a {game} layout, not {spec_layout!r}")
    layout = builtin_layout(spec_layout)
    rules = rules_for(layout, spec.get("options", {}))
    state = rules.initial_state()
    for number, text in enumerate(spec.get("moves", []), start=1):
        try:
            rules.apply(state, rules.parse_move(state, text))
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise CoinprintError(f"{source}: example move {number} ({text}) is not legal: {exc}") from None
    marks = rules.marks(state)
    letters = sheet_template(game, lang).get("coin_letters", {})
    if letters:  # the coins' letters in the sheet's language (H and T are English)
        marks = [replace(mark, text=letters.get(mark.text, mark.text)) for mark in marks]
    return GAMES[game].position_sheet(layout, marks, rules.players).content


def _keywords(layout: Layout) -> dict[str, Any]:
    words: dict[str, Any] = {"game": layout.game}
    if layout.meta.get("seed") is not None:
        words["seed"] = layout.meta["seed"]
    for key, value in sorted(layout.params.items()):
        words[key] = value
    return words


def position_svg(rules: Rules[Any, Any], state: Any) -> bytes:
    """A game position (the rules' marks on its layout) as a true-size SVG document, drawn by
    its game."""

    return GAMES[rules.layout.game].position_svg(rules, state)


REPORT_SUFFIXES = (".svg", ".pdf")
"""What ``validate layout --report`` writes."""


def require_suffix(path: str, option: str, suffixes: tuple[str, ...], *, stdout: bool = False) -> str:
    """``path`` when it ends in one of ``suffixes`` (``.svg``…), or is ``-`` where ``stdout``
    is allowed; else a :class:`UsageError` naming ``option``. Commands call it before any
    work, so a misspelt output name never costs a whole run."""
    if (stdout and path == STDOUT) or str(path).lower().endswith(suffixes):
        return path
    allowed = " or ".join(suffixes) + (" (or - for standard output)" if stdout else "")
    raise UsageError(f"{option} needs a file name ending in {allowed}, not '{path}'")


def write_position_svg(rules: Rules[Any, Any], state: Any, path: str) -> Path:
    """Draw a game position as a true-size SVG file at ``path`` (see :func:`position_svg`)."""
    require_suffix(path, "--svg", (".svg",), stdout=True)
    return write_atomic(path, position_svg(rules, state))
