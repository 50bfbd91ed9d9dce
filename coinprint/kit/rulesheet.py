"""A game's rule sheet: its texts in one language (the template), what the game adds to them
(values, figures, generated blocks, example positions replayed by its rules engine), set on
pages by :mod:`coinprint.render.document`; and ``rules GAME``'s PDF, the sheet followed by the
game's extra sheets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from coinprint.engine import IllegalMoveError, InvalidMoveError
from coinprint.errors import CoinprintError, UsageError
from coinprint.fileio import write_atomic
from coinprint.game import BOARD_PAGES, RuleSheetParts
from coinprint.kit.board import board_pages
from coinprint.kit.output import Say, file_name, resolve_output
from coinprint.params import Values, parse_layout_name
from coinprint.printing import PrintJob, PrintSettings
from coinprint.render.board import ink_saver_page
from coinprint.render.pdf import pages_to_pdf
from coinprint.render.words import localise_numbers, page_words
from coinprint.resources import templates_dir

if TYPE_CHECKING:
    from coinprint.game import Game
    from coinprint.layout import Layout
    from coinprint.render.document import WithoutTail
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


def texts_folder(game: Game) -> Path:
    """Where ``game``'s rule-sheet texts are: its own folder if it names one, else coinprint's
    ``templates/``."""

    return game.template_folder or templates_dir()


def languages(game: Game) -> list[str]:
    """The languages ``game``'s rule sheet is written in (``<game>.<lang>.json`` files)."""
    folder = texts_folder(game)
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
        raise UsageError(f"{game.name} has no rule sheet texts (no {game.name}.en.json in {texts_folder(game)})")
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
    return dict(load_template(f"{game.name}.{lang}.json", texts_folder(game)))


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
        without_after: WithoutTail | None = None,
    ) -> list[Scene]:
        """The template's ``part`` (``blocks``: the rule sheet; ``appendix``) set on ``paper``;
        ``before`` goes under its first heading, ``after`` at its end; with ``folio`` the
        footers count the pages of the kit the sheet goes into; ``without_after`` is told how
        many pages the sheet would take without ``after``, where the setting shows it."""
        from coinprint.render.document import blocks_from_json, layout_document

        # A sheet printed on its own says its parts are printed separately (in the kit).
        in_kit = {key: page_words(self.lang)["in_kit"] for key in {BOARD_PAGES, *self.game.kit_places}}
        values = {**self.values, **in_kit, **(places or {})}
        doc: list[dict[str, Any]] = []
        for entry in self.template.get(part, []):
            doc += self.parts.blocks[entry["generated"]] if "generated" in entry else [entry]
        doc = [*doc[:1], *before, *doc[1:], *after]
        blocks = blocks_from_json(doc, values=values, figures=self.figures, source=self.source)
        title = self.template["title"] if part == "blocks" else self.template.get("appendix_title", "")
        return layout_document(
            blocks,
            paper,
            title=title or self.template["title"],
            footer=self.template["footer"],
            folio=folio,
            tail_from=len(blocks) - len(after) if after else None,
            without_tail=without_after,
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


def print_job(
    game: Game,
    settings: PrintSettings,
    lang: str = "en",
    *,
    template: Mapping[str, Any] | None = None,
    copies: int | None = None,
    paged: bool = True,
) -> PrintJob:
    """The :class:`~coinprint.printing.PrintJob` of ``game`` in ``lang``: with the words of
    its template's ``board`` part (``template``: the texts in ``lang`` already read; none
    when the game has no texts in ``lang``), ``copies`` of a card, ``paged`` (a PDF) or one
    sheet (an SVG)."""
    if template is None:
        template = rule_sheet_template(game, lang) if lang in languages(game) else {}
    return PrintJob(settings, lang, template.get("board", {}), copies, paged)


def placed_sheets(material: RuleSheet, settings: PrintSettings) -> list[Scene]:
    """The rule sheet, then the game's extra sheets in its order (the Map's blank sheet),
    each tiled on the paper of ``settings``."""
    game = material.game
    sheets = game.extra_sheets(print_job(game, settings, material.lang, template=material.template))
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
    if appendix and not material.template.get("appendix"):
        raise UsageError(f"{material.game.title} has no appendix in {material.source}; leave out --appendix")
    pages = placed_sheets(material, PrintSettings(paper, style=style))
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
