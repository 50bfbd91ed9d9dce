"""mkdocs hooks for the command reference (docs/commands.md), which mkdocs-click writes from the
click commands themselves when the site is built, so it cannot drift from the code.

- Each command's epilog (the examples under ``--help``) is shown after its description;
  mkdocs-click shows the help text alone. A paragraph click keeps unwrapped (it starts with a
  ``\\b`` line) becomes a code block.
- The build fails unless the reference has a section for every game under ``board``, ``rules``
  and ``play`` (click groups whose commands are built on demand, one per registered game).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import click
from mkdocs.exceptions import PluginError

REFERENCE = "commands.md"


def _epilog(ctx: click.Context) -> Iterator[str]:
    text = inspect.cleandoc(ctx.command.epilog or "")
    for paragraph in text.split("\n\n"):
        lines = paragraph.splitlines()
        if not lines:
            continue
        if lines[0].strip() == "\b":
            yield "```sh"
            yield from inspect.cleandoc("\n".join(lines[1:])).splitlines()
            yield "```"
        else:
            yield from lines
        yield ""


def on_config(config: Any) -> Any:
    from mkdocs_click import _docs

    describe = getattr(_docs, "_make_description", None)
    if describe is None or getattr(describe, "with_epilog", False):
        if describe is None:
            raise PluginError("mkdocs-click has no _make_description: update docs/hooks.py")
        return config

    def with_epilog(ctx: click.Context, *args: Any, **kwargs: Any) -> Iterator[str]:
        yield from describe(ctx, *args, **kwargs)
        yield from _epilog(ctx)

    with_epilog.with_epilog = True  # type: ignore[attr-defined]
    _docs._make_description = with_epilog
    return config


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    if page.file.src_uri != REFERENCE:
        return html
    from coinprint.registry import GAMES

    wanted = [f"coinprint-{group}-{game}" for group in ("board", "rules") for game in GAMES.names()]
    wanted += [f"coinprint-play-{game}" for game in GAMES.simulated()]
    missing = [anchor for anchor in wanted if f'id="{anchor}"' not in html]
    if missing:
        raise PluginError(f"{REFERENCE} has no section for {', '.join(missing)}")
    return html
