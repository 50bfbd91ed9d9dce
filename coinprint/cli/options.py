"""One option, one rule: the options several commands take (``--games``, ``--max-turns``,
``--supply``, ``--copies``, ``--lang``, ``--layout``) are defined here once, and each one's
callback calls the one validator in :mod:`coinprint.caps` that the library uses too, so a
value is refused the same way, with the same words, by every command."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from coinprint import caps
from coinprint.errors import UsageError


def file_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Callback of every ``-o`` that names one file: ``-`` means standard output, which then
    carries the file alone (messages go to standard error)."""
    from coinprint.fileio import STDOUT, stdout_for_data

    if value == STDOUT:
        ctx.with_resource(stdout_for_data())
    return value


def _checked(check: Callable[[Any, str], Any]) -> Callable[[click.Context, click.Parameter, Any], Any]:
    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        return value if value is None else check(value, param.opts[0])

    return callback


def games_option(default: int, help: str = "Games to play.") -> Callable:
    return click.option(
        "--games",
        default=default,
        show_default=True,
        type=int,
        callback=_checked(caps.check_games),
        help=f"{help} (1 to {caps.MAX_GAMES:,})",
    )


def max_turns_option(default: int, help: str = "Moves before a game counts as a timeout, never a win.") -> Callable:
    return click.option(
        "--max-turns",
        default=default,
        show_default=True,
        type=int,
        callback=_checked(caps.check_max_turns),
        help=f"{help} (1 to {caps.MAX_TURNS:,})",
    )


def supply_option(help: str = "Coins in the shared supply.") -> Callable:
    return click.option(
        "--supply",
        default=100,
        show_default=True,
        type=int,
        callback=_checked(caps.check_supply),
        help=f"{help} (1 to {caps.MAX_SUPPLY:,})",
    )


def copies_option() -> Callable:
    return click.option(
        "--copies",
        default=None,
        type=int,
        callback=_checked(caps.check_copies),
        help="PDF: cards per page, 1 up to as many as fit (default: as many as fit).",
    )


def checked_lang(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Callback of ``--lang``: a language code's form (which languages exist is the kit's)."""
    return caps.check_lang(value)


def _check_layout_spec(value: str, option: str) -> str:
    if not value.strip():
        raise UsageError(f"{option} is empty; give a built-in name (e.g. mapgame:countries=21) or a GeoJSON file")
    return value


def layout_option(default: str | None, help: str, *, name: str = "layout", metavar: str = "SPEC") -> Callable:
    return click.option(
        "--layout",
        name,
        default=default,
        show_default=default is not None,
        metavar=metavar,
        callback=_checked(_check_layout_spec),
        help=help,
    )


def seed_option(default: int | None, help: str, *, name: str = "--seed", dest: str | None = None) -> Callable:
    decls = [name] + ([dest] if dest else [])
    return click.option(
        *decls,
        default=default,
        show_default=default is not None,
        type=int,
        callback=_checked(caps.check_seed),
        help=help,
    )
