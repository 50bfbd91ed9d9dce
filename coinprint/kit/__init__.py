"""Writing boards, rule sheets, positions and whole kits to files: the layer the CLI calls
to turn layouts, rules and drawings into PDF, SVG or GeoJSON on disk.

A kit is composed here, for any :class:`~coinprint.game.Game`: its rule sheet (the template's
words with what the game's ``rule_sheet_parts`` adds: values, figures, generated blocks, and
example positions replayed by its rules engine), then the game's sheet of its board, then the
extra sheets it declares, each tiled on the paper. The game is asked, never called back.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint.caps import MAX_BLEED_MM, check_pages
from coinprint.engine import IllegalMoveError, InvalidMoveError
from coinprint.errors import CoinprintError, UsageError
from coinprint.fileio import STDOUT, write_atomic
from coinprint.game import BOARD_PAGES, PrintJob, RuleSheetParts
from coinprint.params import Values, parse_layout_name
from coinprint.render.board import ink_saver_page
from coinprint.render.marks import card_backs
from coinprint.render.pdf import number_pages, pages_to_pdf
from coinprint.render.scene import Scene, Text
from coinprint.render.sheet import single_sheet
from coinprint.render.style import palette_names, text_style
from coinprint.render.svg import scene_to_svg
from coinprint.render.tiling import paginate_with, plans
from coinprint.render.words import aid_blocks, localise_numbers, page_words
from coinprint.resources import templates_dir
from coinprint.units import INCH_PAPERS, PaperSize, paper_size, parse_length

if TYPE_CHECKING:
    from coinprint.engine import Rules
    from coinprint.game import Game
    from coinprint.layout import Layout
    from coinprint.render.sheet import Sheet
    from coinprint.render.words import InfoBlock

Say = Callable[[str], None]
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
    board_paper: PaperSize | None = None
    """Kits: the paper of the board and the other printed parts (None: ``paper``)."""
    duplex: bool = False
    """Kits: pages ordered and blanked for a double-sided printer that flips on the long edge."""

    @classmethod
    def parse(
        cls,
        *,
        paper: str = "a4",
        margin: str = "10mm",
        overlap: str = "10mm",
        style: str = "color",
        bleed: str = "0",
        board_paper: str | None = None,
        duplex: bool = False,
    ) -> PrintSettings:
        """Settings from command-line text; bad values raise UsageError naming them."""
        sheet = paper_size(paper)
        board_sheet = paper_size(board_paper) if board_paper else None
        margin_mm = 0.0 if str(margin).strip() in ("0", "0mm") else parse_length(margin, default_unit="mm")
        overlap_mm = 0.0 if str(overlap).strip() in ("0", "0mm") else parse_length(overlap, default_unit="mm")
        for each in (sheet, board_sheet or sheet):
            if margin_mm * 2 > each.width_mm - 40:
                raise UsageError(
                    f"margin {margin} leaves too little of a {each.name} page; "
                    f"use at most {(each.width_mm - 40) / 2:.0f} mm"
                )
        if overlap_mm > 50:
            raise UsageError(f"overlap {overlap} is too large; use 0 to 50 mm")

        if style not in palette_names():
            raise UsageError(f"unknown style '{style}'; use {' or '.join(palette_names())}")
        bleed_mm = 0.0 if str(bleed).strip() in ("0", "0mm") else parse_length(bleed, default_unit="mm")
        if not 0 <= bleed_mm <= MAX_BLEED_MM:
            raise UsageError(f"bleed {bleed} is out of range; use 0 to {MAX_BLEED_MM:g} mm")
        return cls(sheet, margin_mm, overlap_mm, style, bleed_mm, board_sheet, duplex)

    @property
    def parts(self) -> PrintSettings:
        """The settings a kit's board and other parts are printed with (on ``board_paper``)."""
        return replace(self, paper=self.board_paper or self.paper)


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
    path, chosen = resolve_output(output, fmt, default_name)
    return [write_atomic(path, board_data(layout, sheet, settings, chosen, notes))]


def board_data(
    layout: Layout, sheet: Sheet, settings: PrintSettings, fmt: str, notes: Sequence[str] = ()
) -> bytes | str:
    """A board's file contents in ``fmt`` (``pdf``: tiled pages at true size, ``svg``: one
    true-size sheet, ``geojson``: the layout), exactly as :func:`export_board` writes them;
    ``notes`` are more info lines under the sheet's own."""
    if notes:
        sheet = replace(sheet, lines=[*sheet.lines, *notes])
    if fmt == "geojson":
        return layout.dumps()
    if fmt == "svg":
        return scene_to_svg(single_sheet(sheet, settings.margin_mm))
    if fmt != "pdf":
        raise UsageError(f"format {fmt} is not available here; use one of: pdf, svg, geojson")
    return pages_to_pdf(board_pages(sheet, settings), title=sheet.title, keywords=_keywords(layout))


def file_name(*parts: object) -> str:
    """A default file name (without suffix) in the one pattern every output follows: what it
    is, then what makes it differ from its siblings (paper, language, seed), joined by ``-``
    (``cointable-kit-letter-sv``, ``mapgame-21-seed8-a4``); empty parts are left out."""
    return "-".join(str(part) for part in parts if part not in (None, ""))


def board_file_name(game: Game, layout: Layout, fmt: str, paper: PaperSize) -> str:
    """The default name of a printed board: the game's name for it, the seed of a generated
    layout, and the paper of a PDF."""
    seed = layout.meta.get("seed") if game.generated is not None else None
    return file_name(
        game.file_stem(layout), f"seed{seed}" if seed is not None else "", paper.name if fmt == "pdf" else ""
    )


def write_pages(
    pages: list[Scene], output: str | None, default_name: str, *, title: str, keywords: dict[str, Any] | None = None
) -> Path:
    """Write PDF pages (a rule sheet, a kit) to ``-o`` (a .pdf file or a folder)."""

    path, _ = resolve_output(output, None, default_name, ("pdf",))
    return write_atomic(path, pages_to_pdf(pages, title=title, keywords=keywords))


def template_folder(game: Game) -> Path:
    """Where ``game``'s rule-sheet texts are: its own folder if it names one, else coinprint's
    ``templates/``."""

    return game.template_folder or templates_dir()


def languages(game: Game) -> list[str]:
    """The languages ``game``'s rule sheet is written in (``<game>.<lang>.json`` files)."""
    folder = template_folder(game)
    return sorted(p.name.split(".")[1] for p in folder.glob(f"{game.name}.*.json") if p.name.count(".") == 2)


def known_languages() -> list[str]:
    """The languages coinprint prints pages in (its ``pages.<lang>.json`` texts)."""
    return sorted(p.name.split(".")[1] for p in templates_dir().glob("pages.*.json") if p.name.count(".") == 2)


def rule_sheet_language(game: Game, lang: str, note: Say | None = None) -> str:
    """The language ``game``'s sheets are printed in for ``lang``: ``lang`` itself, or English
    (said in one line to ``note``) when the game has no texts in a language coinprint knows.
    A language coinprint does not know at all is refused, naming the ones it knows."""
    have = languages(game)
    if lang in have:
        return lang
    if "en" not in have:
        raise UsageError(f"{game.name} has no rule sheet texts (no {game.name}.en.json in {template_folder(game)})")
    known = sorted({*known_languages(), *have})
    if lang not in known:
        raise UsageError(f"no rule sheet in language '{lang}'; use one of: {', '.join(known)}")
    if note is not None:
        note(f"note: {game.title} has no rule sheet in '{lang}'; printing it in English")
    return "en"


def rule_sheet_template(game: Game, lang: str = "en") -> dict[str, Any]:
    """The parsed texts of ``game`` in ``lang`` (``<game>.<lang>.json``; ``lang`` as
    :func:`rule_sheet_language` chose it)."""
    from coinprint.render.document import load_template

    if lang not in languages(game):
        rule_sheet_language(game, lang)  # refuses it in one line
    return dict(load_template(f"{game.name}.{lang}.json", template_folder(game)))


PLACES = (BOARD_PAGES, "blank_pages")
"""The template values that say where in the kit a part is (``{board_pages}``: the board,
``{blank_pages}``: the Map's blank sheet); a sheet printed on its own says they are
printed separately."""


@dataclass
class RuleSheet:
    """A game's template in one language with everything its texts refer to (values,
    figures, generated blocks), made once and set on pages as often as needed."""

    game: Game
    template: dict[str, Any]
    source: str
    lang: str
    parts: RuleSheetParts
    figures: dict[str, Scene]
    values: dict[str, Any]

    def pages(
        self,
        part: str,
        paper: PaperSize,
        places: Mapping[str, str] | None = None,
        *,
        before: Sequence[dict[str, Any]] = (),
        after: Sequence[dict[str, Any]] = (),
        folio: bool = False,
    ) -> list[Scene]:
        """The template's ``part`` (``blocks``: the rule sheet; ``appendix``) set on ``paper``;
        ``before`` goes under its first heading, ``after`` at its end; with ``folio`` the
        footers count the pages of the kit the sheet goes into."""
        from coinprint.render.document import blocks_from_json, layout_document

        in_kit = {key: page_words(self.lang)["in_kit"] for key in {*PLACES, *self.game.kit_places}}
        values = {**self.values, **in_kit, **(places or {})}
        doc: list[dict[str, Any]] = []
        for entry in self.template.get(part, []):
            doc += self.parts.blocks[entry["generated"]] if "generated" in entry else [entry]
        doc = [*doc[:1], *before, *doc[1:], *after]
        blocks = blocks_from_json(doc, values=values, figures=self.figures, source=self.source)
        title = self.template["title"] if part == "blocks" else self.template.get("appendix_title", "")
        return layout_document(
            blocks, paper, title=title or self.template["title"], footer=self.template["footer"], folio=folio
        )

    def with_parts(self, paper: PaperSize, parts: Mapping[str, list[Scene]]) -> list[Scene]:
        """The rule sheet followed by ``parts`` (by place name, in order: the board pages, the
        blank sheet), the sheet saying on which pages each part is."""
        if not parts:
            return self.pages("blocks", paper)
        sheet_length = 1
        for _ in range(3):  # the page numbers may lengthen the sheet; settle in a pass or two
            places, first = {}, sheet_length + 1
            for name, pages in parts.items():
                places[name] = page_range(first, len(pages), self.lang)
                first += len(pages)
            sheet = self.pages("blocks", paper, places)
            if len(sheet) == sheet_length:
                break
            sheet_length = len(sheet)
        return sheet + [page for pages in parts.values() for page in pages]

    def kit_pages(
        self, paper: PaperSize, parts: Mapping[str, KitPart], *, duplex: bool = False, aid: bool = True
    ) -> list[Scene]:
        """The kit: the rule sheet on ``paper`` (with the kit's contents under its title and
        the player aid at its end), then ``parts`` in order. With ``duplex`` the sheet ends
        on a back, every part's page starts a sheet, and each has its back (a card back or a
        blank page), so a double-sided printer turning on the long edge gets them right.
        ``aid``: the sheet ends with the player aid (when the template has one)."""
        words = page_words(self.lang)
        helper = self.template.get("player_aid") if aid else None
        after = [{"h2": helper["title"]}, {"ul": list(helper["lines"]), "whole": True}] if helper else []
        sheet_length, sheet = 1, []
        for _ in range(4):  # the page numbers may lengthen the sheet; settle in a pass or two
            starts = _part_starts(sheet_length, [part.length(duplex) for part in parts.values()], duplex)
            places = {
                name: page_range(first, len(part.pages), self.lang, step=2 if duplex else 1)
                for (name, part), first in zip(parts.items(), starts)
            }
            before = contents_blocks(words, [(places[name], part) for name, part in parts.items()], duplex)
            sheet = self.pages("blocks", paper, places, before=before, after=after, folio=True)
            if len(sheet) == sheet_length:
                break
            sheet_length = len(sheet)
        pages = list(sheet)
        if duplex and len(pages) % 2:
            pages.append(blank_page(paper, words["blank_page"]))
        for part in parts.values():
            for number, front in enumerate(part.pages):
                pages.append(front)
                if duplex:
                    back = part.backs.get(number)
                    pages.append(
                        back or blank_page(PaperSize("", front.width_mm, front.height_mm), words["blank_page"])
                    )
        return pages


@dataclass
class KitPart:
    """One printed part of a kit (the board, the Map's blank sheet): its title, its pages,
    the backs of those that have one (cards: by page index), and what is cut (``cards``:
    cut out along the lines; ``tiles``: trimmed and laid together; empty: nothing)."""

    title: str
    pages: list[Scene]
    backs: dict[int, Scene]
    cut: str
    aid: bool = False
    """Whether the player aid is printed on these pages."""

    def length(self, duplex: bool) -> int:
        """Pages the part takes in the kit (with duplex, every page has a back)."""
        return 2 * len(self.pages) if duplex else len(self.pages)


def _part_starts(sheet_length: int, lengths: Sequence[int], duplex: bool) -> list[int]:
    """The first page of each part after a rule sheet of ``sheet_length`` pages (with
    ``duplex``, the sheet is padded to end on a back)."""
    first = sheet_length + 1 + (sheet_length % 2 if duplex else 0)
    starts = []
    for length in lengths:
        starts.append(first)
        first += length
    return starts


def contents_blocks(
    words: Mapping[str, Any], parts: Sequence[tuple[str, KitPart]], duplex: bool
) -> list[dict[str, Any]]:
    """The kit's contents under the rule sheet's title: what is on which pages, what to cut,
    how to print (and a note for the other way of printing)."""

    def safe(text: str) -> str:  # the blocks' texts are formatted with the sheet's values
        return text.replace("{", "{{").replace("}", "}}")

    def first_up(text: str) -> str:
        return text[:1].upper() + text[1:]

    # The rules start the kit: the contents say where the rest is.
    items = []
    for pages, part in parts:
        items.append(
            first_up(words["contents_part_aid" if part.aid else "contents_part"].format(pages=pages, title=part.title))
        )
    cuts = [words[f"cut_{part.cut}"] for _, part in parts if part.cut]
    cutting = " ".join(dict.fromkeys(cuts)) if cuts else words["cut_none"]
    items.append(f"{cutting} {words['print_duplex' if duplex else 'print_single']}")
    return [{"h3": words["contents_heading"]}, {"ul": [safe(item) for item in items]}]


def blank_page(paper: PaperSize, note: str) -> Scene:
    """A page left blank on purpose (the back of a one-sided part in a double-sided kit),
    saying so in small print at its foot."""
    size = text_style("page_info").size_mm
    page = Scene(paper.width_mm, paper.height_mm, title=note)
    return page.add(Text((paper.width_mm / 2, 6.0), note, size, "middle", "#000000"))


class Layouts:
    """The layouts of one game a sheet refers to, each built once: by spec (its examples) and
    the one the rule sheet describes."""

    def __init__(self, game: Game, described: Layout | None = None, values: Values | None = None) -> None:
        self.game = game
        self._values = values if values is not None else game.schema.defaults()
        self._described = described
        self._built: dict[str, Layout] = {}

    def described(self) -> Layout:
        """The layout the rule sheet's values describe (built on first use)."""
        if self._described is None:
            self._described = self.game.layout(self._values.plain())
        return self._described

    def named(self, spec: str) -> Layout:
        """The built-in layout ``spec`` names (``cointable:size=3``), built once."""
        if spec not in self._built:
            name, params = parse_layout_name(spec)
            if name != self.game.name:
                raise UsageError(f"an example must be on a {self.game.name} layout, not {spec!r}")
            if self._described is not None and spec == self.game.default_spec and self._values.given == frozenset():
                self._built[spec] = self._described
            else:
                self._built[spec] = self.game.layout_from_spec(params)
        return self._built[spec]


def rule_sheet(
    game: Game, lang: str, values: Values | None = None, *, layouts: Layouts | None = None, style: str = "color"
) -> RuleSheet:
    """What ``game``'s rule sheet in ``lang`` is made of (see :class:`RuleSheet`), for the
    parameter ``values`` it describes (default: the game's defaults) printed in ``style``
    (the template's ``style_words`` for it name the colours printed). A given value the
    sheet does not use is refused."""

    values = values if values is not None else game.schema.defaults()
    template = rule_sheet_template(game, lang)
    source = f"{game.name}.{lang}.json"
    layouts = layouts or Layouts(game, values=values)
    parts = game.rule_sheet_parts(template, values, layouts.described)
    values.check_read(f"the {game.title} rule sheet")
    specs = template.get("figures", {})
    letters = template.get("coin_letters", {})
    figures = {
        key: example_position(game, spec, layouts, source=source, letters=letters) for key, spec in specs.items()
    }
    figures.update(parts.figures)
    texts = {**{f"{key}_caption": spec.get("caption", "") for key, spec in specs.items()}, **parts.values}
    words = template.get("style_words", {}).get(style, {})
    texts = {key: with_words(value, words) if isinstance(value, str) else value for key, value in texts.items()}
    texts = {key: localise_numbers(value, lang) if isinstance(value, str) else value for key, value in texts.items()}
    return RuleSheet(game, template, source, lang, parts, figures, {**words, **texts})


def with_words(text: str, words: Mapping[str, str]) -> str:
    """``text`` with each ``{name}`` of ``words`` written out (a caption's colours)."""
    for name, word in words.items():
        text = text.replace("{" + name + "}", word)
    return text


def in_style(pages: list[Scene], style: str) -> list[Scene]:
    """``pages`` as ``style`` prints them: in ink-saver every figure, badge and text in grey."""
    return [ink_saver_page(page) for page in pages] if style == "ink-saver" else pages


def page_range(first: int, count: int, lang: str = "en", *, step: int = 1) -> str:
    """The words for "page 3" or "pages 3–4" in ``lang`` (``count`` pages ``step`` apart)."""

    words = page_words(lang)
    if count <= 1:
        return words["kit_page"].format(first=first)
    return words["kit_pages"].format(first=first, last=first + step * (count - 1))


def print_job(game: Game, settings: PrintSettings, lang: str = "en", **job: Any) -> PrintJob:
    """A :class:`~coinprint.game.PrintJob` for ``game`` in ``lang``, with the words of its
    template's ``board`` part."""
    template = rule_sheet_template(game, lang) if lang in languages(game) else {}
    return PrintJob(settings, lang, template.get("board", {}), **job)


def placed_sheets(
    game: Game, material: RuleSheet, settings: PrintSettings, board: Sheet | None, *, extras: bool = True
) -> list[Scene]:
    """The rule sheet, then the kit's parts in ``game``'s order: ``board`` (left out when None)
    and, with ``extras``, the game's extra sheets, each tiled on the paper of ``settings``."""
    job = PrintJob(settings, material.lang, material.template.get("board", {}))
    sheets: dict[str, Sheet] = {**game.extra_sheets(job)} if extras else {}
    if board is not None:
        sheets[BOARD_PAGES] = board
    parts = {place: board_pages(sheets[place], settings) for place in game.kit_places if place in sheets}
    return material.with_parts(settings.paper, parts)


def rule_sheet_pages(
    game: Game,
    paper: PaperSize,
    lang: str,
    values: Values | None = None,
    *,
    appendix: bool = False,
    style: str = "color",
) -> list[Scene]:
    """``rules GAME``: the rule sheet in ``lang`` on ``paper`` for the parameter ``values``,
    then the game's extra sheets (the Map's blank sheet); ``appendix`` adds the "for
    computers" pages (how games are written down and checked) at the end; all in ``style``."""
    return _rule_sheet_pages(rule_sheet(game, lang, values, style=style), paper, appendix=appendix, style=style)


def _rule_sheet_pages(material: RuleSheet, paper: PaperSize, *, appendix: bool, style: str = "color") -> list[Scene]:
    pages = placed_sheets(material.game, material, PrintSettings(paper, style=style), None)
    if appendix:
        pages += material.pages("appendix", paper)
    return in_style(pages, style)


def write_rules(
    game: Game,
    paper: PaperSize,
    lang: str,
    output: str | None,
    fmt: str | None = None,
    *,
    appendix: bool = False,
    values: Values | None = None,
    note: Say | None = None,
    style: str = "color",
) -> Path:
    """Write ``game``'s rule sheet as a PDF (``-o`` a .pdf file or a folder); see :func:`rule_sheet_pages`."""

    lang = rule_sheet_language(game, lang, note)
    path, _ = resolve_output(output, fmt, file_name(game.name, "rules", paper.name, lang), ("pdf",))
    return write_atomic(path, rules_pdf(game, paper, lang, values, appendix=appendix, style=style))


def rules_pdf(
    game: Game,
    paper: PaperSize,
    lang: str,
    values: Values | None = None,
    *,
    appendix: bool = False,
    note: Say | None = None,
    style: str = "color",
) -> bytes:
    """The PDF bytes :func:`write_rules` writes: the rule sheet in ``lang`` (English, said to
    ``note``, when the game has no texts in it); see :func:`rule_sheet_pages`."""
    lang = rule_sheet_language(game, lang, note)
    material = rule_sheet(game, lang, values, style=style)  # the template is read once, for pages and title
    pages = _rule_sheet_pages(material, paper, appendix=appendix, style=style)
    return pages_to_pdf(pages, title=material.template["title"], keywords={"game": game.name, "lang": lang})


def board_pages_with(
    sheet: Sheet, settings: PrintSettings, extra: Sequence[InfoBlock] = (), *, kit: bool = True
) -> tuple[list[Scene], bool]:
    """A sheet tiled on the paper of ``settings``, with ``extra`` (the player aid) where a page
    has room; the second value says whether it found room. ``kit``: the pages go into a kit
    (see :func:`~coinprint.render.tiling.paginate_with`)."""
    fewest = plans(sheet, settings.paper, settings.margin_mm, settings.overlap_mm, 0.0)
    check_pages(min(plan.pages for plan in fewest), f"this board on {settings.paper.name} paper")
    return paginate_with(sheet, settings.paper, settings.margin_mm, settings.overlap_mm, kit=kit, extra=extra)


def board_pages(sheet: Sheet, settings: PrintSettings) -> list[Scene]:
    """A board's sheet tiled on the paper of ``settings`` (the pages of its PDF)."""
    return board_pages_with(sheet, settings, kit=False)[0]


@dataclass(frozen=True)
class Kit:
    """A print-and-play kit: its title (the template's ``kit_title``) and its pages."""

    title: str
    pages: list[Scene]


def kit(game: Game, settings: PrintSettings, lang: str, *, layout: Layout | None = None) -> Kit:
    """``game``'s kit in ``lang``: the rule sheet (with the kit's contents and a player aid),
    then its board (the standard one, or ``layout``, a valid layout of ``game`` read from a
    file), then its extra sheets, in the game's order; the rules on :func:`kit_rules_paper`,
    the parts on the board paper, every page counting the kit's pages. The standard board is
    built once and the template read once, for the sheet and the pages alike."""

    if layout is None:
        board = game.layout(game.schema.defaults())
        layouts = Layouts(game, board)
        values = None
    else:
        board = game.printable(layout)
        values = rule_sheet_values(game, board)
        layouts = Layouts(game, values=values)
    material = rule_sheet(game, lang, values, layouts=layouts, style=settings.style)
    extras, rules_paper, duplex = layout is None, kit_rules_paper(settings.paper), settings.duplex
    parts = kit_parts(game, material, settings.parts, board, extras=extras)
    pages = material.kit_pages(rules_paper, parts, duplex=duplex)
    if material.template.get("player_aid"):
        # The player aid ends the rule sheet where that costs no page; else it goes where the
        # board leaves room, and only failing that onto a page of its own.
        shorter = material.kit_pages(rules_paper, parts, duplex=duplex, aid=False)
        if len(shorter) < len(pages):
            beside = kit_parts(game, material, settings.parts, board, extras=extras, aid=True)
            if any(part.aid for part in beside.values()):
                pages = material.kit_pages(rules_paper, beside, duplex=duplex, aid=False)
    return Kit(material.template["kit_title"], number_pages(in_style(pages, settings.style)))


def kit_parts(
    game: Game, material: RuleSheet, settings: PrintSettings, board: Layout, *, extras: bool = True, aid: bool = False
) -> dict[str, KitPart]:
    """The printed parts of ``game``'s kit, by place, in the game's order: ``board``'s sheet
    and, with ``extras``, the game's extra sheets, each on the paper of ``settings``; with
    ``settings.duplex`` a sheet of cards gets its backs (the player aid on every card); with
    ``aid`` the player aid goes where the first part with room leaves it."""

    job = PrintJob(settings, material.lang, material.template.get("board", {}))
    sheets: dict[str, Sheet] = {**game.extra_sheets(job)} if extras else {}
    sheet = game.sheet(board, job)
    sheet.lang = material.lang
    # A drawn board's kit is its rule sheet and its board: the extra sheets go with the
    # standard board (the Map's blank sheet says how to draw the standard map).
    sheets[BOARD_PAGES] = sheet
    words: Mapping[str, Any] = material.template.get("player_aid") or {}
    parts: dict[str, KitPart] = {}
    for place in (place for place in game.kit_places if place in sheets):
        each = sheets[place]
        wanted = aid and words and not any(part.aid for part in parts.values())
        extra = aid_blocks(words["title"], list(words["lines"]), material.lang) if wanted else []
        pages, placed = board_pages_with(each, settings, extra)
        cards = each.kind == "cards"
        backs = {}
        if cards and settings.duplex and words:
            backs = {n: card_backs(each, page, words["title"], list(words["lines"])) for n, page in enumerate(pages)}
        cut = "cards" if cards else "tiles" if len(pages) > 1 else ""
        parts[place] = KitPart(each.title, pages, backs, cut, placed)
    return parts


def kit_rules_paper(paper: PaperSize) -> PaperSize:
    """The paper a kit's rules are set on: ``paper``, but A4 (Letter for the Letter family)
    when ``paper`` is larger (rules set on A3 leave half the page blank)."""
    small = paper_size("letter" if paper.name in INCH_PAPERS else "a4")
    larger = paper.width_mm * paper.height_mm > small.width_mm * small.height_mm * 1.01
    return small if larger else paper


def rule_sheet_values(game: Game, layout: Layout) -> Values:
    """The values a rule sheet printed with a drawn ``layout`` describes: those of its
    ``params`` (as :meth:`~coinprint.game.Game.printable` completed them) that ``rules`` shows."""
    schema = game.schema
    defaults = schema.defaults()
    shown = {param.name for param in schema.shown_in("rules")}
    values = {
        name: layout.params.get(name, defaults.peek(name)) if name in shown else defaults.peek(name)
        for name in defaults
    }
    return Values(values)


def make_kit(
    game: Game, settings: PrintSettings, lang: str, output: str | None, *, layout: Layout | None = None
) -> Path:
    """Write ``game``'s kit (see :func:`kit`) in ``lang`` as one PDF; returns the path."""

    board = settings.board_paper.name if settings.board_paper and settings.board_paper != settings.paper else ""
    name = file_name(game.name, "kit", settings.paper.name, board, lang, "duplex" if settings.duplex else "")
    path, _ = resolve_output(output, None, name, ("pdf",))
    return write_atomic(path, kit_pdf(game, settings, lang, layout=layout))


def kit_pdf(game: Game, settings: PrintSettings, lang: str, *, layout: Layout | None = None) -> bytes:
    """The PDF bytes :func:`make_kit` writes: ``game``'s kit (see :func:`kit`) in ``lang``."""
    made = kit(game, settings, lang, layout=layout)
    keywords = {"game": game.name, "lang": lang, "paper": settings.paper.name}
    return pages_to_pdf(made.pages, title=made.title, keywords=keywords)


def example_position(
    game: Game,
    spec: Mapping[str, Any],
    layouts: Layouts | None = None,
    *,
    source: str = "template",
    letters: Mapping[str, str] | None = None,
) -> Scene:
    """A rule sheet's example: the position after ``spec["moves"]`` on ``spec["layout"]`` (a
    built-in ``game:…`` name), replayed by the rules engine so an example is never illegal,
    and drawn by the game's position drawer; ``letters`` are the coins' letters in the
    sheet's language (H and T are English)."""

    layouts = layouts or Layouts(game)
    spec_layout = str(spec.get("layout", game.name))
    try:
        layout = layouts.named(spec_layout)
    except UsageError as exc:
        raise CoinprintError(f"{source}: {exc}") from None
    rules = game.rules(layout, spec.get("options", {}))
    state = rules.initial_state()
    for number, text in enumerate(spec.get("moves", []), start=1):
        try:
            rules.apply(state, rules.parse_move(state, text))
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise CoinprintError(f"{source}: example move {number} ({text}) is not legal: {exc}") from None
    marks = game.view(rules).marks(state)
    if letters:
        marks = [replace(mark, text=letters.get(mark.text, mark.text)) for mark in marks]
    return game.position_sheet(layout, marks, rules.players).content


def _keywords(layout: Layout) -> dict[str, Any]:
    words: dict[str, Any] = {"game": layout.game}
    if layout.meta.get("seed") is not None:
        words["seed"] = layout.meta["seed"]
    for key, value in sorted(layout.params.items()):
        words[key] = value
    return words


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


def write_position_svg(game: Game, rules: Rules[Any, Any], state: Any, path: str) -> Path:
    """Draw a position of ``game`` as a true-size SVG file at ``path``."""
    require_suffix(path, "--svg", (".svg",), stdout=True)
    return write_atomic(path, game.position_svg(rules, state))
