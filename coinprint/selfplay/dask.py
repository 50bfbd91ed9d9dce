"""Self-play on the workers of a Dask distributed cluster (the optional extra
``coinprint[dask]``), every wait bounded by the Dask timeout (:func:`dask_timeout`)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from coinprint.caps import check_dask_timeout
from coinprint.errors import UsageError
from coinprint.selfplay.backend import Backend, PlayBatch, WorkersLost

if TYPE_CHECKING:
    from coinprint.selfplay import GameResult


DASK_TIMEOUT_S = 30
"""How long a run waits, by default, for a Dask scheduler to answer, or for a cluster that has
no workers (or has lost its scheduler) to get them back, before it gives up."""
HEALTH_CHECK_SECONDS = 1.0
"""How often a run on Dask asks the scheduler whether it still has workers, while it waits."""

_dask_timeout: ContextVar[int] = ContextVar("dask_timeout", default=DASK_TIMEOUT_S)


@contextlib.contextmanager
def dask_timeout(seconds: int) -> Iterator[None]:
    """Within this context runs on Dask wait at most ``seconds`` for a scheduler that does not
    answer or a cluster without workers (``--dask-timeout``; 1 s to the Dask timeout cap)."""

    token = _dask_timeout.set(check_dask_timeout(seconds))
    try:
        yield
    finally:
        _dask_timeout.reset(token)


class DaskBackend(Backend):
    """The workers of a Dask distributed cluster (``dask scheduler`` / ``dask worker``).

    Every wait is bounded by the Dask timeout (:func:`dask_timeout`): the address is probed
    before a client is made (a client given a service that is not a scheduler waits forever),
    and while batches are awaited the scheduler is asked, once a second, whether it is still
    there and still has workers; a cluster that stays without either for the timeout ends the
    run."""

    def __init__(self, address: str, play: PlayBatch) -> None:
        try:
            from distributed import Client
            from distributed.comm.addressing import get_address_host_port
        except ImportError:
            raise UsageError("--dask needs Dask's distributed scheduler: pip install 'coinprint[dask]'") from None
        self.address = address
        self.play = play
        self.timeout = _dask_timeout.get()
        try:
            # Checked first: a client given a malformed address hangs when it is cleaned up.
            host, port = get_address_host_port(address)
        except ValueError as exc:
            raise UsageError(
                f"--dask {address!r} is not a scheduler address like tcp://10.0.0.5:8786 ({exc})"
            ) from None
        scheme = address.partition("://")[0] if "://" in address else "tcp"
        if scheme != "tcp":
            raise UsageError(
                f"--dask {address}: coinprint reaches schedulers over tcp:// only ({scheme}:// needs "
                "credentials or transports it does not set up); give an address like tcp://10.0.0.5:8786"
            )
        _probe_scheduler(address, host, port, self.timeout)
        _quiet_dask_logs()
        try:
            self.client = Client(address, timeout=self.timeout, set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {address}: {_one_line(exc)}") from None
        self.slots = self._threads(self.timeout)
        if self.slots < 1:
            self.client.close()  # type: ignore[no-untyped-call]
            raise UsageError(f"the Dask scheduler at {address} has no workers; start some with 'dask worker {address}'")
        self.unhealthy_since: float | None = None
        self.last_check = time.monotonic()

    def _threads(self, seconds: float = HEALTH_CHECK_SECONDS) -> int:
        """Worker threads the scheduler has now; 0 when it does not answer within ``seconds``."""
        try:
            return sum(self.client.nthreads(callback_timeout=seconds).values())  # type: ignore[no-untyped-call]
        except Exception:  # a scheduler gone or not answering: no workers to count
            return 0

    def _check_health(self) -> None:
        now = time.monotonic()
        if now - self.last_check < HEALTH_CHECK_SECONDS:
            return
        self.last_check = now
        if self.client.status == "running" and self._threads() > 0:
            self.unhealthy_since = None
            return
        if self.unhealthy_since is None:
            self.unhealthy_since = now
        elif now - self.unhealthy_since >= self.timeout:
            what = "lost its scheduler" if self.client.status != "running" else "has had no workers"
            raise WorkersLost(f"the Dask cluster at {self.address} {what} for {self.timeout} s (--dask-timeout)")

    def submit(self, *args: Any) -> Any:
        return self.client.submit(self.play, *args, pure=False)

    def done(self, handle: Any) -> bool:
        return bool(handle.done())

    def wait(self, handle: Any, seconds: float) -> bool:
        if not handle.done():
            time.sleep(seconds)
            self._check_health()
        return bool(handle.done())

    def result(self, handle: Any) -> list[GameResult]:
        from concurrent.futures import CancelledError

        try:
            return list(handle.result())
        except CancelledError:
            raise WorkersLost(f"the Dask cluster at {self.address} lost its scheduler") from None
        except Exception as exc:
            if type(exc).__name__ == "KilledWorker":
                raise WorkersLost(
                    f"Dask workers at {self.address} died while playing the same batch again and again"
                ) from None
            raise

    def close(self, finished: bool) -> None:
        with contextlib.suppress(Exception):  # a scheduler already gone has nothing to close
            self.client.close(timeout=min(self.timeout, 5))  # type: ignore[no-untyped-call]


def _probe_scheduler(address: str, host: str, port: int, timeout: float) -> None:
    """Refuse, in one line and within ``timeout`` seconds, an address where no Dask scheduler
    answers: nothing listening, a service that says nothing, or one that speaks something
    else. A scheduler greets every connection at once with its handshake: a little-endian
    frame header, then a msgpack map naming its ``python`` and ``pickle-protocol``."""
    import socket

    greeting = b""
    try:
        with socket.create_connection((host, port), timeout=timeout) as probe:
            deadline = time.monotonic() + timeout
            while len(greeting) < 512 and b"pickle-protocol" not in greeting and _may_be_dask(greeting):
                probe.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = probe.recv(512)
                if not chunk:
                    break
                greeting += chunk
    except TimeoutError:
        if not greeting:
            raise UsageError(f"no Dask scheduler answered at {address} within {timeout:g} s (--dask-timeout)") from None
    except OSError as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}") from None
    if len(greeting) < 16 or not _may_be_dask(greeting) or b"pickle-protocol" not in greeting:
        raise UsageError(f"what answers at {address} is not a Dask scheduler (it did not greet like one)")


def _may_be_dask(greeting: bytes) -> bool:
    """Whether the first bytes a service sent can start a Dask handshake (a frame count of 1 to
    64 after the 8-byte length), so a service that speaks something else is refused at once."""
    return len(greeting) < 16 or 1 <= int.from_bytes(greeting[8:16], "little") <= 64


def _quiet_dask_logs() -> None:
    # Dask logs lost connections and retries to standard error; the run reports in one line.
    import logging

    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado", "asyncio")]
    for name in ["distributed", "tornado", "asyncio", *names]:  # Dask sets levels on its modules' loggers too
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
