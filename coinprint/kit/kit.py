"""A print-and-play kit, composed for any :class:`~coinprint.game.Game`: its rule sheet (with
the kit's contents under its title and a player aid), then the game's sheet of its board, then
the extra sheets it declares, each tiled on the paper, every page counting the kit's pages.
The game is asked, never called back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint.fileio import write_atomic
from coinprint.game import BOARD_PAGES
from coinprint.kit.board import board_pages_with
from coinprint.kit.output import file_name, resolve_output
from coinprint.kit.rulesheet import Layouts, RuleSheet, in_style, page_range, print_job, rule_sheet
from coinprint.params import Param, Values
from coinprint.render.marks import card_backs
from coinprint.render.pdf import number_pages, pages_to_pdf
from coinprint.render.scene import Scene, Text
from coinprint.render.style import text_style
from coinprint.render.words import aid_blocks, page_words
from coinprint.units import INCH_PAPERS, PaperSize, paper_size

if TYPE_CHECKING:
    from coinprint.game import Game
    from coinprint.layout import Layout
    from coinprint.printing import PrintSettings
    from coinprint.render.sheet import Sheet


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
    brief: bool = False
    """Whether the pages' own rules in brief stand for the player aid (see :attr:`Sheet.brief`)."""

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
        items.append(first_up(words[_contents_word(part)].format(pages=pages, title=part.title)))
    cuts = [words[f"cut_{part.cut}"] for _, part in parts if part.cut]
    cutting = " ".join(dict.fromkeys(cuts)) if cuts else words["cut_none"]
    items.append(f"{cutting} {words['print_duplex' if duplex else 'print_single']}")
    return [{"h3": words["contents_heading"]}, {"ul": [safe(item) for item in items]}]


def _contents_word(part: KitPart) -> str:
    """The contents' words for ``part``: with a player aid beside it, with its own rules in
    brief standing for the aid, or on its own."""
    if part.brief:
        return "contents_part_brief"
    return "contents_part_aid" if part.aid else "contents_part"


def blank_page(paper: PaperSize, note: str) -> Scene:
    """A page left blank on purpose (the back of a one-sided part in a double-sided kit),
    saying so in small print at its foot."""
    size = text_style("page_info").size_mm
    page = Scene(paper.width_mm, paper.height_mm, title=note)
    return page.add(Text((paper.width_mm / 2, 6.0), note, size, "middle", "#000000"))


@dataclass(frozen=True)
class Kit:
    """A print-and-play kit: its title (the template's ``kit_title``) and its pages."""

    title: str
    pages: list[Scene]


def kit(
    game: Game,
    settings: PrintSettings,
    lang: str,
    *,
    layout: Layout | None = None,
    options: Values | None = None,
) -> Kit:
    """``game``'s kit in ``lang``: the rule sheet (with the kit's contents and a player aid),
    then its board (the standard one, the one its layout ``options`` describe (see
    :func:`kit_values`), or ``layout``, a valid layout of ``game`` read from a file), then its
    extra sheets, in the game's order; the rules on :func:`kit_rules_paper`, the parts on the
    board paper, every page counting the kit's pages. The board is built and drawn once and
    the template read once, for the sheet and the pages alike."""

    values: Values | None
    if layout is None and options is not None and options.given:
        # The rule sheet describes the board printed (Coin Table's size), as with a drawn one.
        board = game.layout(options)
        values = rule_sheet_values(game, board)
        layouts = Layouts(game, values=values)
    elif layout is None:
        board = game.layout(game.schema.defaults())
        layouts = Layouts(game, board)
        values = None
    else:
        board = game.printable(layout)
        values = rule_sheet_values(game, board)
        layouts = Layouts(game, values=values)
    material = rule_sheet(game, lang, values, layouts=layouts, style=settings.style)
    sheets = kit_sheets(game, material, settings.parts, board, extras=layout is None)
    plan = _KitPlan(material, kit_rules_paper(settings.paper), settings.duplex)
    parts = kit_parts(material, sheets, settings.parts)
    if not material.template.get("player_aid"):
        pages = plan.pages(parts)
    else:
        pages = _with_aid(plan, parts, lambda: kit_parts(material, sheets, settings.parts, aid=True))
    return Kit(material.template["kit_title"], number_pages(in_style(pages, settings.style)))


def _with_aid(plan: _KitPlan, parts: dict[str, KitPart], beside: Callable[[], dict[str, KitPart]]) -> list[Scene]:
    """The kit's pages with its player aid: at the end of the rule sheet where that costs no
    page; else where the board leaves room (``beside()``: the parts with the aid placed), and
    only failing that onto a page of its own."""
    # The sheet is set with its aid first: that setting tells, nearly always, how long the
    # sheet would be without it (which decides where the aid goes) as well.
    known = plan.length_without_aid(parts)
    length = known if known is not None else plan.length(parts, aid=False)
    shorter = plan.kit_length(parts, length)
    tried = plan.sheet(parts, aid=True, length=length)
    # On single-sided pages a sheet the aid lengthens lengthens the kit: try the board first.
    costs_a_page = len(tried) > length and not plan.duplex
    with_aid = None if costs_a_page else plan.pages(parts, aid=True, length=length, first=tried)
    if with_aid is None or shorter < len(with_aid):
        placed = beside()
        if any(part.aid for part in placed.values()):
            return plan.pages(placed, aid=False, length=length)
    return with_aid if with_aid is not None else plan.pages(parts, aid=True, length=len(tried))


@dataclass
class _Setting:
    """A rule sheet set on pages, its contents' page numbers as fields: ``places``, where the
    parts were when it was set; ``numbers``, the field of each page number (a part's name and
    the word of its place); ``without_aid``, the sheet's length without its player aid where
    the setting shows it."""

    pages: list[Scene]
    places: dict[str, str]
    numbers: list[tuple[str, int]]
    without_aid: int | None = None


@dataclass
class _KitPlan:
    """The pages of one kit: its rule sheet on ``paper`` (with the kit's contents under its
    title, and the player aid at its end when asked) followed by the parts. The sheet is set
    once for each text it has (with or without the aid, its parts described one way): the
    page numbers the contents name are filled in after the setting, and it is set again only
    when they come out wider or narrower than those it was set with."""

    material: RuleSheet
    paper: PaperSize
    duplex: bool
    settings: dict[tuple[Any, ...], _Setting] = field(default_factory=dict)

    def places(self, parts: Mapping[str, KitPart], length: int) -> dict[str, str]:
        """Where each of ``parts`` is ("pages 3–4") after a rule sheet of ``length`` pages."""
        duplex = self.duplex
        starts = _part_starts(length, [part.length(duplex) for part in parts.values()], duplex)
        return {
            name: page_range(first, len(part.pages), self.material.lang, step=2 if duplex else 1)
            for (name, part), first in zip(parts.items(), starts)
        }

    def length(self, parts: Mapping[str, KitPart], *, aid: bool) -> int:
        """How many pages the rule sheet takes before ``parts`` (see :meth:`pages`), set once
        where the page numbers it finds are as wide as those it was set with."""
        length = 1
        for _ in range(4):  # the page numbers may lengthen the sheet; settle in a pass or two
            found = len(self.sheet(parts, aid=aid, length=length))
            if found == length or self._set_alike(parts, length, found):
                return found
            length = found
        return length

    def length_without_aid(self, parts: Mapping[str, KitPart]) -> int | None:
        """How many pages the rule sheet takes before ``parts`` without its player aid, as the
        sheet set with the aid shows it (its body is set the same either way); None where only
        setting it without the aid would tell."""
        length = 1
        for _ in range(3):  # set again only where the page numbers come out wider
            found = self._setting(parts, aid=True, length=length).without_aid
            if found is None:
                return None
            if found == length or self._set_alike(parts, length, found):
                return found
            length = found
        return None

    def _set_alike(self, parts: Mapping[str, KitPart], length: int, other: int) -> bool:
        """Whether the sheet is set the same as ``length`` or ``other`` pages long (its page
        numbers alone differ, in words of the same width)."""
        from coinprint.render.document import same_measure

        before, after = self.places(parts, length), self.places(parts, other)
        return all(same_measure(before[name], after[name]) for name in parts)

    def sheet(self, parts: Mapping[str, KitPart], *, aid: bool, length: int) -> list[Scene]:
        """The rule sheet set on pages as if it were ``length`` pages long: the contents say
        where ``parts`` start after it; ``aid``: it ends with the player aid (when the
        template has one)."""
        from coinprint.render.document import fill_fields

        setting = self._setting(parts, aid=aid, length=length)
        places = self.places(parts, length)
        return fill_fields(setting.pages, [places[name].split(" ")[word] for name, word in setting.numbers])

    def _setting(self, parts: Mapping[str, KitPart], *, aid: bool, length: int) -> _Setting:
        """The sheet's setting for this text, made now unless one was made whose page numbers
        were as wide as those ``length`` gives."""
        from coinprint.render.document import same_measure

        key = (aid, *((name, part.title, part.cut, part.aid, part.brief) for name, part in parts.items()))
        places = self.places(parts, length)
        kept = self.settings.get(key)
        if kept is None or not all(same_measure(kept.places[name], places[name]) for name in parts):
            kept = self.settings[key] = self._set(parts, aid=aid, places=places)
        return kept

    def _set(self, parts: Mapping[str, KitPart], *, aid: bool, places: dict[str, str]) -> _Setting:
        """Set the rule sheet once, its contents' page numbers (the words of ``places`` with
        digits in them) as fields."""
        from coinprint.render.document import WithoutTail, field

        material, duplex = self.material, self.duplex
        helper = material.template.get("player_aid") if aid else None
        after = [{"h2": helper["title"]}, {"ul": list(helper["lines"]), "whole": True}] if helper else []
        numbers: list[tuple[str, int]] = []
        marked = {}
        for name, place in places.items():
            words = place.split(" ")
            for index, word in enumerate(words):
                if any(ch.isdigit() for ch in word):
                    words[index] = field(len(numbers), word)
                    numbers.append((name, index))
            marked[name] = " ".join(words)
        before = contents_blocks(
            page_words(material.lang), [(marked[name], part) for name, part in parts.items()], duplex
        )
        without = WithoutTail()
        pages = material.pages(
            "blocks", self.paper, marked, before=before, after=after, folio=True, without_after=without
        )
        return _Setting(pages, places, numbers, without.pages if helper else None)

    def kit_length(self, parts: Mapping[str, KitPart], sheet_length: int) -> int:
        """The pages of the kit whose rule sheet takes ``sheet_length`` pages (see :meth:`pages`)."""
        padding = sheet_length % 2 if self.duplex else 0
        return sheet_length + padding + sum(part.length(self.duplex) for part in parts.values())

    def pages(
        self, parts: Mapping[str, KitPart], *, aid: bool = True, length: int = 1, first: list[Scene] | None = None
    ) -> list[Scene]:
        """The kit with ``parts``, its rule sheet first set as if ``length`` pages long
        (``first``: that setting, already made). With ``duplex`` the sheet ends on a back,
        every part's page starts a sheet, and each has its back (a card back or a blank
        page), so a double-sided printer turning on the long edge gets them right."""
        sheet: list[Scene] = []
        for _ in range(4):  # the page numbers may lengthen the sheet; settle in a pass or two
            sheet = first if first is not None else self.sheet(parts, aid=aid, length=length)
            first = None
            if len(sheet) == length:
                break
            length = len(sheet)
        words = page_words(self.material.lang)
        pages = list(sheet)
        if self.duplex and len(pages) % 2:
            pages.append(blank_page(self.paper, words["blank_page"]))
        for part in parts.values():
            for number, front in enumerate(part.pages):
                pages.append(front)
                if self.duplex:
                    back = part.backs.get(number)
                    pages.append(
                        back or blank_page(PaperSize("", front.width_mm, front.height_mm), words["blank_page"])
                    )
        return pages


def kit_sheets(
    game: Game, material: RuleSheet, settings: PrintSettings, board: Layout, *, extras: bool = True
) -> dict[str, Sheet]:
    """The sheets of ``game``'s kit, by place, in the game's order, each drawn once for
    ``settings`` in the rule sheet's language: ``board``'s sheet and, with ``extras``, the
    game's extra sheets."""
    job = print_job(game, settings, material.lang, template=material.template)
    sheets: dict[str, Sheet] = {**game.extra_sheets(job)} if extras else {}
    # A drawn board's kit is its rule sheet and its board: the extra sheets go with the
    # standard board (the Map's blank sheet says how to draw the standard map).
    sheets[BOARD_PAGES] = game.sheet(board, job)
    return {place: sheets[place] for place in game.kit_places if place in sheets}


def kit_parts(
    material: RuleSheet, sheets: Mapping[str, Sheet], settings: PrintSettings, *, aid: bool = False
) -> dict[str, KitPart]:
    """The printed parts of a kit: ``sheets`` (by place, in order) each tiled on the paper of
    ``settings``; with ``settings.duplex`` a sheet of cards gets its backs (the player aid on
    every card); with ``aid`` the player aid goes where the first part with room leaves it, or,
    where none has room, a sheet that prints the rules in brief stands for it."""

    words: Mapping[str, Any] = material.template.get("player_aid") or {}
    parts: dict[str, KitPart] = {}
    for place, each in sheets.items():
        wanted = aid and words and not any(part.aid for part in parts.values())
        extra = aid_blocks(words["title"], list(words["lines"]), material.lang) if wanted else []
        pages, placed = board_pages_with(each, settings, extra)
        cards = each.kind == "cards"
        backs = {}
        if cards and settings.duplex and words:
            backs = {n: card_backs(each, page, words["title"], list(words["lines"])) for n, page in enumerate(pages)}
        cut = "cards" if cards else "tiles" if len(pages) > 1 else ""
        parts[place] = KitPart(each.title, pages, backs, cut, placed)
    if aid and words and not any(part.aid for part in parts.values()):
        # No page has room for the aid: a sheet that prints the rules in brief stands for it.
        brief = next((place for place, each in sheets.items() if each.brief), None)
        if brief is not None:
            parts[brief] = replace(parts[brief], aid=True, brief=True)
    return parts


def kit_rules_paper(paper: PaperSize) -> PaperSize:
    """The paper a kit's rules are set on: ``paper``, but A4 (Letter for the Letter family)
    when ``paper`` is larger (rules set on A3 leave half the page blank)."""
    small = paper_size("letter" if paper.name in INCH_PAPERS else "a4")
    larger = paper.width_mm * paper.height_mm > small.width_mm * small.height_mm * 1.01
    return small if larger else paper


def kit_params(game: Game) -> tuple[Param, ...]:
    """The options ``kit GAME`` takes: the parameters of ``game``'s layout, as ``board GAME``
    takes them (a layout spec's parameters; ``board``'s own, such as the Map's ``--blank``,
    are not a kit's)."""
    return tuple(param for param in game.schema.shown_in("board") if param.shown_in("spec"))


def kit_values(game: Game, typed: Mapping[str, Any], given: Iterable[str]) -> Values:
    """The values of ``game``'s kit options (:func:`kit_params`): ``typed`` (each already
    read as ``board``'s option reads it, by name), of which those named in ``given`` count as
    given; the others at their defaults. A kit draws no fresh seed: given none, a generated
    map is the one its default seed grows, as the standard kit prints it."""
    names = {param.name for param in kit_params(game)}
    values = {
        param.name: typed.get(param.name, param.default) if param.name in names else param.default
        for param in game.schema
    }
    where = {param.name: param.flag("board") for param in game.schema}
    return Values(values, set(given) & names, where=where)


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
    game: Game,
    settings: PrintSettings,
    lang: str,
    output: str | None,
    *,
    layout: Layout | None = None,
    options: Values | None = None,
) -> Path:
    """Write ``game``'s kit (see :func:`kit`) in ``lang`` as one PDF; returns the path."""

    board = settings.board_paper.name if settings.board_paper and settings.board_paper != settings.paper else ""
    name = file_name(game.name, "kit", settings.paper.name, board, lang, "duplex" if settings.duplex else "")
    path, _ = resolve_output(output, None, name, ("pdf",))
    return write_atomic(path, kit_pdf(game, settings, lang, layout=layout, options=options))


def kit_pdf(
    game: Game, settings: PrintSettings, lang: str, *, layout: Layout | None = None, options: Values | None = None
) -> bytes:
    """The PDF bytes :func:`make_kit` writes: ``game``'s kit (see :func:`kit`) in ``lang``."""
    made = kit(game, settings, lang, layout=layout, options=options)
    keywords = {"game": game.name, "lang": lang, "paper": settings.paper.name}
    return pages_to_pdf(made.pages, title=made.title, keywords=keywords)
