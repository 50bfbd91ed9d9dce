"""Errors shared by every layer, each carrying the exit code of the command-line contract.

Exit codes (docs/formats.md): 0 ok; 1 a layout or game record was checked and is invalid;
2 bad usage or unreadable input. Every error coinprint raises on purpose is a
:class:`CoinprintError`, so one ``except CoinprintError`` catches them all:

    CoinprintError
    ├── UsageError (also ValueError)          a bad option or parameter value     exit 2
    │   └── UnknownSpaceError (also KeyError)  a space name not on the layout
    ├── UnreadableInputError                  a file that is not what it should be exit 2
    ├── RunFailedError                        self-play lost its workers           exit 2
    └── InvalidInputError                     read, checked, and against the rules exit 1
        └── MoveError (also ValueError)       a move in a game
            ├── InvalidMoveError              not a move in the game's notation
            ├── IllegalMoveError              a move the rules forbid now
            └── AmbiguousMoveError            text that could mean more than one move
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


class CoinprintError(Exception):
    """An error a user caused and can fix; its message is one line saying what was wrong."""

    exit_code = EXIT_USAGE


class UsageError(CoinprintError, ValueError):
    """A bad value: an option, a length, a paper or coin name, an output path."""

    exit_code = EXIT_USAGE


class UnknownSpaceError(UsageError, KeyError):
    """A space looked up by a name the layout does not have (also a KeyError, as a dict's
    lookup would raise)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class UnreadableInputError(CoinprintError):
    """An input file that cannot be read or is not what it should be (not JSON, not a layout)."""

    exit_code = EXIT_USAGE


class RunFailedError(CoinprintError):
    """A self-play run could not go on: a worker process was killed (the out-of-memory killer,
    ``kill -9``), a Dask cluster lost its workers or its scheduler, or what answered at the
    Dask address was not a scheduler. The message says how many games had finished."""

    exit_code = EXIT_USAGE


class InvalidInputError(CoinprintError):
    """An input that was read and checked, and broke the rules (exit 1)."""

    exit_code = EXIT_INVALID


class MoveError(InvalidInputError, ValueError):
    """A move that cannot be played; the message says why."""


class InvalidMoveError(MoveError):
    """The text is not a move in this game's notation (a typo, an unknown cell name)."""


class IllegalMoveError(MoveError):
    """The move is well formed but the rules forbid it now; the message says why."""


class AmbiguousMoveError(MoveError):
    """The text could mean more than one legal move."""


EXIT_INTERRUPTED = 130
"""Ctrl-C: the shell's convention, 128 + SIGINT."""


class InterruptedRunError(CoinprintError):
    """The user stopped a long run (Ctrl-C, or SIGTERM / SIGHUP: exit 128 + the signal); the
    message starts with "interrupted" and says what was finished."""

    exit_code = EXIT_INTERRUPTED

    def __init__(self, message: str, exit_code: int = EXIT_INTERRUPTED) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def stop_code(stop: BaseException) -> int:
    """The exit code of a KeyboardInterrupt or a signal's ``Interrupted`` (128 + the signal)."""
    return getattr(stop, "exit_code", EXIT_INTERRUPTED)
