"""Reading input files safely and writing output files whole or not at all."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from coinprint.caps import MAX_INPUT_BYTES
from coinprint.errors import UnreadableInputError, UsageError


def read_bytes(path: str | os.PathLike[str], *, cap: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, refusing anything larger than ``cap``.

    Devices, FIFOs and folders are refused before they are opened for reading, so a path
    such as ``/dev/zero`` can neither exhaust memory nor hang. Raises
    :class:`UnreadableInputError` with one line naming the file and the reason.
    """
    name = os.fspath(path)
    try:
        with open(name, "rb", opener=_open_no_block) as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise UnreadableInputError(f"cannot read {name}: not a regular file")
            if info.st_size > cap:
                raise UnreadableInputError(f"cannot read {name}: {info.st_size} bytes is over the {_size(cap)} cap")
            data = handle.read(cap + 1)
    except OSError as exc:
        raise UnreadableInputError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > cap:
        raise UnreadableInputError(f"cannot read {name}: it is over the {_size(cap)} cap")
    return data


def read_text(path: str | os.PathLike[str], *, cap: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of the regular file at ``path`` (see :func:`read_bytes`)."""
    try:
        return read_bytes(path, cap=cap).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableInputError(
            f"cannot read {os.fspath(path)}: not UTF-8 text ({exc.reason} at byte {exc.start})"
        ) from None


def _open_no_block(name: str, flags: int) -> int:
    # O_NONBLOCK: opening a FIFO with no writer must not hang before we can refuse it.
    return os.open(name, flags | os.O_NONBLOCK)


def _size(count: int) -> str:
    return f"{count // (1024 * 1024)} MB" if count >= 1024 * 1024 else f"{count} bytes"


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename.

    A reader never sees a half-written file, and a failure leaves nothing behind. The folder
    is created if missing. Raises :class:`UsageError` when the path cannot be written.
    """
    target = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    if target.exists() and target.is_dir():
        raise UsageError(f"cannot write {target}: it is a folder; give a file name")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
