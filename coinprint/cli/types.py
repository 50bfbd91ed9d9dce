"""click parameter types that read lengths, papers and game names when the command line is
parsed, so a bad value is refused before any work, in one line naming the option; and the
group class every command group uses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem

from coinprint.caps import check_tolerance
from coinprint.errors import CoinprintError
from coinprint.registry import GAMES
from coinprint.units import PAPER_SIZES, Length, PaperSize, length_or_zero, paper_size, parse_length

if TYPE_CHECKING:
    ClickType = click.ParamType[Any, Any]
else:  # click before 8.2 has no type parameters on ParamType
    ClickType = click.ParamType


class LengthType(ClickType):
    """A length with a unit (``1.25in``, ``32mm``; ``0`` where ``zero`` allows it), converted
    to a :class:`~coinprint.units.Length` (its millimetres, and the text as written)."""

    name = "length"

    def __init__(self, *, zero: bool = False, default_unit: str | None = "mm") -> None:
        self.zero = zero
        self.default_unit = default_unit

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Length:
        if isinstance(value, Length):
            return value
        try:
            if self.zero:
                return length_or_zero(str(value), default_unit=self.default_unit)
            return Length.parse(str(value).strip(), default_unit=self.default_unit)
        except CoinprintError as exc:
            self.fail(str(exc), param, ctx)


class PaperType(ClickType):
    """A paper name (a4, letter, …) or ``WxH`` with a unit, converted to its
    :class:`~coinprint.units.PaperSize`."""

    name = "paper"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> PaperSize:
        if isinstance(value, PaperSize):
            return value
        try:
            return paper_size(str(value))
        except CoinprintError as exc:
            self.fail(str(exc), param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        return [CompletionItem(name) for name in PAPER_SIZES if name.startswith(incomplete.lower())]


class GameName(ClickType):
    """A registered game's name, looked up when the command line is read (not when the command
    tree was built), so a game registered late is accepted too."""

    name = "game"

    def __init__(self, *, simulated: bool = False, drawn: bool = False, extra: tuple[str, ...] = ()) -> None:
        self.simulated = simulated
        self.drawn = drawn
        self.extra = extra

    def choices(self) -> tuple[str, ...]:
        """The games accepted: all, those agents play (``simulated``), or those a drawing can
        be read for (``drawn``), then ``extra`` words (``all``)."""

        if not (self.simulated or self.drawn):  # by name alone: choosing one game loads that game only
            return (*GAMES.names(), *self.extra)
        games = [game for game in GAMES if (game.simulated or not self.simulated) and (game.drawing or not self.drawn)]
        return (*(game.name for game in games), *self.extra)

    def get_metavar(self, *args: Any, **kwargs: Any) -> str:
        return "[" + "|".join(self.choices()) + "]"

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        return [CompletionItem(name) for name in self.choices() if name.startswith(incomplete)]

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        choices = self.choices()
        value = GAMES.name_for(value) or value if value not in self.extra else value
        if value not in choices:
            self.fail(f"{value!r} is not one of {', '.join(map(repr, choices))}.", param, ctx)
        return value


LENGTH_OR_ZERO = LengthType(zero=True)
PAPER = PaperType()


class ToleranceType(ClickType):
    """``--tolerance``: a length (``0`` allowed) up to the tolerance cap, read as millimetres."""

    name = "tolerance"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, float):
            return value
        text = str(value).strip()
        try:
            return check_tolerance(0.0 if text in ("0", "0mm") else parse_length(text, default_unit="mm"))
        except CoinprintError as exc:
            self.fail(str(exc), param, ctx)


TOLERANCE = ToleranceType()


class HelpGroup(click.Group):
    """A group that prints its help and exits 0 when given no command (bare ``coinprint`` is
    the first thing many type)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("invoke_without_command", True)
        super().__init__(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        # click 8.2 keeps the command still to parse in _protected_args (8.1: protected_args).
        pending = getattr(ctx, "_protected_args", None)
        if pending is None:
            pending = ctx.protected_args
        if not pending and not ctx.args:
            click.echo(ctx.get_help())
            return 0
        return super().invoke(ctx)
