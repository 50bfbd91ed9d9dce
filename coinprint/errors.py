"""Errors shared by every layer, each carrying the exit code of the command-line contract.

Exit codes (DESIGN.md §2.1): 0 ok; 1 a layout or game record was checked and is invalid;
2 bad usage or unreadable input.
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


class UnreadableInputError(CoinprintError):
    """An input file that cannot be read or is not what it should be (not JSON, not a layout)."""

    exit_code = EXIT_USAGE


class InvalidInputError(CoinprintError):
    """An input that was read and checked, and broke the rules (exit 1)."""

    exit_code = EXIT_INVALID


EXIT_INTERRUPTED = 130
"""Ctrl-C: the shell's convention, 128 + SIGINT."""


class InterruptedRunError(CoinprintError):
    """The user stopped a long run (Ctrl-C); the message says what was finished."""

    exit_code = EXIT_INTERRUPTED
