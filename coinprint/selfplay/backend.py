"""What a place to play batches of games provides to the run (:class:`Backend`), and the error
a backend raises when its workers are gone."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coinprint.selfplay import GameResult

PlayBatch = Callable[..., "list[GameResult]"]
"""What a worker calls with each batch's arguments (:func:`coinprint.selfplay.play_batch`): the
backends are given it, so they need not import the run that uses them."""


class WorkersLost(Exception):
    """Raised by a backend when its workers are gone; the run turns it into one line."""


class Backend:
    """Where batches of games are played: the run submits batches, waits on the oldest and
    reads its results; ``slots`` is how many batches play at once."""

    slots = 1

    def submit(self, *args: Any) -> Any:
        raise NotImplementedError

    def done(self, handle: Any) -> bool:
        """Has this batch finished (its result is waiting)?"""
        return True

    def wait(self, handle: Any, seconds: float) -> bool:
        """Wait up to ``seconds`` for the batch; True when it has finished."""
        return True

    def result(self, handle: Any) -> list[GameResult]:
        raise NotImplementedError

    def close(self, finished: bool) -> None:
        """Release the workers; when not ``finished``, stop work still running."""
