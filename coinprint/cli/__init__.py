"""The ``coinprint`` command line: click groups and commands that parse options and call the
layers below. No logic lives here; ``board``, ``rules`` and ``play``
have one command per registered game, built from what the game declares (``cli/games.py``).
A command's module is imported only when that command is run or its help shown
(``cli/groups.py``).

Exit codes: 0 ok, 1 a checked layout or record is invalid, 2 bad usage or unreadable input.
Every error a user can cause is one line on stderr.
"""

from __future__ import annotations

import sys

import click

from coinprint.cli.groups import board, cli, play, rules, validate
from coinprint.errors import EXIT_USAGE, CoinprintError, InterruptedRunError
from coinprint.fileio import Interrupted, handling_signals

__all__ = ["board", "cli", "main", "play", "printable_line", "rules", "validate"]


def main(argv: list[str] | None = None) -> None:
    """Run the command line; errors become one line on stderr and the contract's exit code.

    SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the command with ``coinprint: interrupted`` and
    exit 128 + the signal (130 for Ctrl-C); no temporary file is left behind. A signal the
    command was started with ignored (SIGINT for a job in the background) stays ignored.
    """
    import warnings

    # Floating-point warnings (numpy's, shapely's "invalid value encountered") are not lines
    # for a user: what a NaN or an overflow affects is checked where it is used.
    warnings.simplefilter("ignore", RuntimeWarning)
    _tolerate_unprintable_output()
    try:
        with handling_signals():
            status = cli.main(args=argv, prog_name="coinprint", standalone_mode=False)
    except Interrupted as exc:
        _fail("interrupted", exc.exit_code, prefix="coinprint: ")
    except KeyboardInterrupt:  # arrived before the handlers were in place
        _fail("interrupted", 130, prefix="coinprint: ")
    except click.ClickException as exc:
        _fail(_one_line(exc), exc.exit_code)
    except click.Abort:  # end of input at a prompt
        _fail("aborted", EXIT_USAGE, prefix="coinprint: ")
    except InterruptedRunError as exc:  # a long run stopped: "interrupted: what finished"
        _fail(str(exc), exc.exit_code, prefix="coinprint: ")
    except CoinprintError as exc:
        _fail(str(exc), exc.exit_code)
    except OSError as exc:  # a file system refusal outside the readers and writers
        where = f"{exc.filename}: " if exc.filename else ""
        _fail(f"{where}{exc.strerror or exc}", EXIT_USAGE)
    except (RecursionError, MemoryError) as exc:
        _fail(f"the input needs more memory than this system gives ({type(exc).__name__})", EXIT_USAGE)
    except Exception as exc:  # a bug: still one line, and it says so
        _fail(f"internal error: {type(exc).__name__}: {exc} (please report this)", EXIT_USAGE)
    # Commands return their exit code (validate returns 1 for an invalid input).
    sys.exit(status if isinstance(status, int) else 0)


def _fail(message: str, code: int, *, prefix: str = "coinprint: error: ") -> None:
    click.echo(prefix + printable_line(message), err=True)
    sys.exit(code)


def printable_line(text: str, limit: int = 600) -> str:
    """``text`` made safe for one terminal line: whitespace runs (newlines too) become one
    space, other control characters and lone surrogates are shown as escapes, and a very
    long message is shortened."""
    text = " ".join(str(text).split())
    text = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tolerate_unprintable_output() -> None:
    # A file name from the command line can hold bytes that are not UTF-8: print them back
    # as they came rather than fail with UnicodeEncodeError halfway through the output.
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="surrogateescape")
            except (ValueError, OSError):
                pass


def _one_line(exc: click.ClickException) -> str:
    message = exc.format_message()
    context = getattr(exc, "ctx", None)
    if isinstance(exc, click.UsageError) and context is not None:
        message += f" (see '{context.command_path} --help')"
    return message
