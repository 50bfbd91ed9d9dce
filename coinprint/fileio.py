"""Reading input files safely and writing output files whole or not at all.

Input: :func:`read_bytes` and :func:`read_text` read regular files only, under a size cap;
:func:`parse_json` parses JSON under caps on nesting depth and number size, refusing NaN,
infinities and lone surrogates.

Output: :func:`write_atomic` replaces a regular file through a temporary file and a rename,
writes *through* character devices and FIFOs (``/dev/null``, a pipe), follows a symbolic link
to the file it names (the link stays), writes to standard output for ``-``, and removes its
temporary file on failure, on SIGINT, SIGTERM and SIGHUP (see :func:`install_signal_handlers`),
and, when a run was killed outright, on the next write to the same folder.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import secrets
import signal
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from coinprint.caps import (
    MAX_INPUT_BYTES,
    MAX_JSON_ARRAY_RUN,
    MAX_JSON_ARRAYS,
    MAX_JSON_DEPTH,
    MAX_JSON_INT_DIGITS,
    MAX_SPACE_POINTS,
)
from coinprint.errors import UnreadableInputError, UsageError

STDOUT = "-"
"""The output name that means standard output (``-o -``)."""
STDIN = "-"
"""The input name that means standard input (``validate layout - < card.svg``)."""


def read_bytes(path: str | os.PathLike[str], *, cap: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, refusing anything larger than ``cap``.

    Devices, FIFOs and folders are refused before they are opened for reading, so a path
    such as ``/dev/zero`` can neither exhaust memory nor hang. Raises
    :class:`UnreadableInputError` with one line naming the file and the reason.
    """
    name = os.fspath(path)
    if name == STDIN:
        return _read_stdin(cap)
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


def _read_stdin(cap: int) -> bytes:
    """Standard input, whole, refusing more than ``cap`` bytes and a terminal (which would
    wait for typing: the user meant to pipe a file in)."""
    stream = sys.stdin
    if stream is None or stream.isatty():
        raise UnreadableInputError(
            "cannot read - (standard input): it is a terminal; pipe a file in, e.g. - < card.svg"
        )
    source = getattr(stream, "buffer", None)
    data = source.read(cap + 1) if source is not None else stream.read(cap + 1).encode("utf-8")
    if len(data) > cap:
        raise UnreadableInputError(f"cannot read - (standard input): it is over the {_size(cap)} cap")
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


# -- JSON --------------------------------------------------------------------------------------------
_SURROGATE_ESCAPE = re.compile(r"(\\+)u([dD][89a-fA-F][0-9a-fA-F]{2})")


def parse_json(text: str, *, source: str) -> Any:
    """Parse JSON ``text`` read from ``source`` under coinprint's caps.

    Refused with one line naming ``source`` (:class:`UnreadableInputError`): text that is not
    JSON, nesting deeper than ``MAX_JSON_DEPTH``, whole numbers of more than
    ``MAX_JSON_INT_DIGITS`` digits, ``NaN``/``Infinity`` and numbers too large for a float,
    and escapes of lone UTF-16 surrogates (``"\ud800"``), which are not characters.
    """
    depth, arrays, run = _structure(text)
    if depth > MAX_JSON_DEPTH:
        raise UnreadableInputError(
            f"{source}: JSON nested {depth} levels deep is over the {MAX_JSON_DEPTH}-level nesting cap"
        )
    if arrays > MAX_JSON_ARRAYS:
        raise UnreadableInputError(
            f"{source} holds {arrays:,} JSON arrays (a point is one), over the {MAX_JSON_ARRAYS:,}-array cap"
        )
    if run:
        raise UnreadableInputError(
            f"{source} holds a list of more than {MAX_JSON_ARRAY_RUN:,} arrays side by side (one ring of as many "
            f"points), over the {MAX_JSON_ARRAY_RUN:,}-array run cap; a space has at most {MAX_SPACE_POINTS:,} points"
        )
    lone = _lone_surrogate(text)
    if lone is not None:
        line = text.count("\n", 0, lone) + 1
        shown = text[lone : lone + 6]
        raise UnreadableInputError(f"{source}: {shown} at line {line} is a lone surrogate, not a character")
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise UnreadableInputError(f"{source} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except _NumberError as exc:
        raise UnreadableInputError(f"{source}: {exc}") from None
    except RecursionError:  # only if the stack is already deep: the depth cap came first
        raise UnreadableInputError(f"{source}: JSON nested too deep to read") from None


def _lone_surrogate(text: str) -> int | None:
    """Where the first escape of an unpaired UTF-16 surrogate starts in JSON text, or None."""
    pending_high = -1  # end of an escaped high surrogate waiting for its low half
    for match in _SURROGATE_ESCAPE.finditer(text):
        if len(match.group(1)) % 2 == 0:  # "\\\\ud800" is an escaped backslash, then text
            continue
        start = match.end(1) - 1
        high = match.group(2)[1].lower() in "89ab"
        if pending_high >= 0 and (high or start != pending_high):
            return pending_high - 6
        if high:
            pending_high = match.end()
        elif pending_high < 0:
            return start
        else:
            pending_high = -1
    return pending_high - 6 if pending_high >= 0 else None


class _NumberError(ValueError):
    pass


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_JSON_INT_DIGITS:
        raise _NumberError(
            f"a whole number of {len(digits.lstrip('-')):,} digits is over the {MAX_JSON_INT_DIGITS}-digit cap"
        )
    return int(digits)


def _parse_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        shown = text if len(text) <= 24 else text[:20] + "…"
        raise _NumberError(f"the number {shown} is too large")
    return value


def _parse_constant(name: str) -> float:
    raise _NumberError(f"{name} is not a number JSON allows; coinprint needs finite numbers")


def _structure(text: str) -> tuple[int, int, bool]:
    """The deepest nesting of [ and { outside strings (0 for a scalar), how many arrays
    there are, and whether more than MAX_JSON_ARRAY_RUN arrays stand side by side in one
    list, at C speed: drop escapes, keep only brackets and quotes, drop the strings, then a
    running sum."""
    import numpy

    if "[" not in text and "{" not in text:
        return 0, 0, False
    if "\\" in text:
        text = _ESCAPE.sub("", text)
    skeleton = text.encode("utf-8", "surrogatepass").translate(None, _NOT_STRUCTURE)
    skeleton = _BARE_STRING.sub(b"", skeleton)
    step = numpy.zeros(256, dtype=numpy.int64)
    step[list(b"[{")], step[list(b"]}")] = 1, -1
    steps = step[numpy.frombuffer(skeleton, dtype=numpy.uint8)]
    run = _ARRAY_RUN in skeleton
    return int(numpy.cumsum(steps).max(initial=0)), skeleton.count(b"["), run


_ESCAPE = re.compile(r"\\.", re.DOTALL)
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'"[]{}')
_BARE_STRING = re.compile(rb'"[^"]*"')
_ARRAY_RUN = b"[]" * (MAX_JSON_ARRAY_RUN + 1)
"""More than MAX_JSON_ARRAY_RUN empty pairs in a row: a list of that many points (their
numbers and commas are already dropped from the skeleton)."""


# -- writing -----------------------------------------------------------------------------------------
_TEMP_MARK = ".coinprint-"
_TEMP_PATTERN = re.compile(r"^\..*\.coinprint-(\d+)-[0-9a-f]{8}\.tmp$")
_live_temporaries: set[str] = set()
"""Temporary files this process is writing now; a signal handler removes them."""


def check_file_target(path: str | os.PathLike[str]) -> str:
    """``path`` if it can name one output file, checked before any work with the words
    :func:`write_atomic` would use: an existing folder, a symbolic link in a loop, a socket or
    block device, a name too long, a folder on the way that is a file, or a folder that cannot
    be written is refused. ``-`` (standard output) passes."""
    name = os.fspath(path)
    if name == STDOUT:
        return name
    target, mode, shown = _output_target(name)
    if mode is None or stat.S_ISREG(mode):
        folder = target.parent
        while not os.path.lexists(folder) and folder != folder.parent:
            folder = folder.parent
        if not folder.is_dir():
            raise UsageError(f"cannot write {shown}: {_shown(str(folder))} is not a folder")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise UsageError(f"cannot write {shown}: the folder {_shown(str(folder))} is not writable")
    return name


def check_folder_target(path: str | os.PathLike[str], option: str = "-o") -> str:
    """``path`` if it can be the folder a command writes its files into, checked before any
    work: a symbolic link in a loop, or a file where the folder or a folder on its path should
    be, is refused in one line naming ``option``."""
    name = os.fspath(path)
    shown = _shown(name)
    folder = Path(name)
    while True:
        if os.path.islink(folder) and _loops(folder):
            raise UsageError(
                f"{option} {shown}: {_shown(str(folder))} is a symbolic link in a loop (it never reaches a folder)"
            )
        if os.path.lexists(folder) or folder == folder.parent:
            break
        folder = folder.parent
    if os.path.lexists(folder) and not folder.is_dir():
        raise UsageError(f"{option} {shown}: {_shown(str(folder))} is a file, not a folder; give a folder")
    return name


def _loops(link: str | Path) -> bool:
    """Whether the symbolic link ``link`` leads round in a loop (it never reaches a file)."""
    try:
        os.stat(link)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _output_target(name: str, *, follow_symlinks: bool = True) -> tuple[Path, int | None, str]:
    """Where writing ``name`` goes (a symbolic link's file, unless ``follow_symlinks`` is off),
    that path's file type (None: nothing there yet) and the name as messages show it. Refuses
    what :func:`write_atomic` never writes."""
    shown = _shown(name)
    try:
        link = os.path.islink(name)
        if link and follow_symlinks and _loops(name):
            raise UsageError(f"cannot write {shown}: it is a symbolic link in a loop (it never reaches a file)")
        target = Path(os.path.realpath(name)) if link and follow_symlinks else Path(name)
        mode = None if link and not follow_symlinks else (os.stat(target).st_mode if target.exists() else None)
    except OSError as exc:
        raise UsageError(f"cannot write {shown}: {exc.strerror or exc}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise UsageError(f"cannot write {shown}: it is a folder; give a file name")
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        raise UsageError(f"cannot write {shown}: it is not a regular file, a character device or a FIFO")
    _check_name_length(target, shown)
    return target, mode, shown


def utf8(text: str) -> bytes:
    """``text`` in UTF-8, a lone surrogate (a file name that was not UTF-8) as U+FFFD."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text).encode("utf-8")


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, follow_symlinks: bool = True) -> Path:
    """Write ``data`` to ``path`` whole or not at all; returns the path written.

    - ``-`` is standard output.
    - A new or regular file is written to a temporary file in the same folder (named
      ``.<name>.coinprint-<pid>-<random>.tmp``), then renamed over the target, so a reader
      never sees half a file and a failure leaves the old file as it was.
    - A character device or a FIFO (``/dev/null``, a named pipe) is written through, never
      replaced; block devices, sockets and folders are refused.
    - A symbolic link is followed: the file it points to is replaced and the link stays; a
      link in a loop is refused. With ``follow_symlinks=False`` (files coinprint names itself
      inside a folder, such as ``play``'s records) a link is replaced by the file instead, so
      a link planted in the folder never leads a write out of it.
    - The folder is created if missing; stale temporaries of runs that were killed are removed.

    Raises :class:`UsageError` (one line) when the path cannot be written.
    """
    if isinstance(data, str):
        data = utf8(data)
    name = os.fspath(path)
    if name == STDOUT:
        _write_stdout(data)
        return Path(STDOUT)
    target, mode, shown = _output_target(name, follow_symlinks=follow_symlinks)
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
        _write_through(target, data, shown)
        return Path(name)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot write {shown}: {exc.strerror or exc}") from None
    remove_stale_temporaries(target.parent, target.name)
    _replace(target, data, shown)
    return Path(name)


def _replace(target: Path, data: bytes, shown: str) -> None:
    tmp = str(target.parent / _temporary_name(target.name))
    _live_temporaries.add(tmp)
    try:
        with open(tmp, "xb") as handle:
            if target.is_file() and not target.is_symlink():  # a replaced file keeps its permissions
                os.fchmod(handle.fileno(), stat.S_IMODE(os.stat(target).st_mode))
            handle.write(data)
        os.replace(tmp, target)
    except OSError as exc:
        raise UsageError(f"cannot write {shown}: {exc.strerror or exc}") from None
    finally:
        _live_temporaries.discard(tmp)
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _temporary_name(name: str) -> str:
    # Keep the temporary's name within the 255-byte limit however long the target's is.
    stem = name.encode("utf-8", "surrogateescape")[:200].decode("utf-8", "ignore")
    return f".{stem}{_TEMP_MARK}{os.getpid()}-{secrets.token_hex(4)}.tmp"


def _write_through(target: Path, data: bytes, shown: str) -> None:
    try:
        # O_NONBLOCK: a FIFO nobody reads fails at once (ENXIO) instead of hanging.
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        reason = "no process is reading it" if exc.errno == errno.ENXIO else exc.strerror or str(exc)
        raise UsageError(f"cannot write {shown}: {reason}") from None


_data_stdout: Any = None
"""Standard output as it was when :func:`stdout_for_data` began (None outside it)."""
_data_mode = False
"""Whether :func:`stdout_for_data` is active: then ``-`` is :data:`_data_stdout` even when that is
None (standard output was closed), never the standard error that stands in for it."""


@contextlib.contextmanager
def stdout_for_data() -> Iterator[None]:
    """Within this context standard output carries only the data :func:`write_atomic` writes
    to ``-``; whatever else is printed (``wrote …``, a seed) goes to standard error."""
    global _data_stdout, _data_mode
    _data_stdout, _data_mode = sys.stdout, True
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        _data_stdout, _data_mode = None, False


def _write_stdout(data: bytes) -> None:
    """Write ``data`` whole to standard output, or raise :class:`UsageError` in one line.

    Every write is checked: a short write (an unbuffered or non-blocking standard output)
    goes on from where it stopped, a pipe that is full for now is waited on, and a full disk,
    a closed reader or a closed standard output is an error, never a truncated file."""
    out = _data_stdout if _data_mode else sys.stdout
    if out is None or getattr(out, "closed", False):
        raise UsageError("cannot write to standard output: it is closed")
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # a stream without a file (tests capture into one)
        fd = None
    try:
        if fd is None:
            out.write(data.decode("utf-8", "replace"))
            out.flush()
            return
        out.flush()  # whatever the text layer holds goes first
        _write_all(fd, data)
    except OSError as exc:
        raise UsageError(f"cannot write to standard output: {exc.strerror or exc}") from None


def _write_all(fd: int, data: bytes) -> None:
    import select

    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:  # a non-blocking pipe that is full: wait until it drains
            select.select([], [fd], [])
            continue
        if written <= 0:
            raise OSError(errno.EIO, "nothing was written")
        view = view[written:]


def _check_name_length(target: Path, shown: str) -> None:
    limit = 255
    try:
        limit = os.pathconf(_existing_parent(target), "PC_NAME_MAX")
    except (OSError, ValueError):
        pass
    for part in target.parts:
        size = len(part.encode("utf-8", "surrogateescape"))
        if size > limit:
            raise UsageError(
                f"cannot write {shown}: a file or folder name of {size} bytes is over the {limit}-byte limit"
            )


def _existing_parent(path: Path) -> Path:
    for parent in path.parents:
        if parent.is_dir():
            return parent
    return Path(".")


def _shown(name: str) -> str:
    return name if len(name) <= 80 else name[:60] + "…" + name[-15:]


LEGACY_TEMP_AGE_S = 600
"""Age after which a temporary of the older naming (no pid in it) counts as abandoned."""


def remove_stale_temporaries(folder: Path, target: str | None = None) -> list[Path]:
    """Remove temporaries that :func:`write_atomic` left in ``folder`` when its process was
    killed outright (its pid is gone); returns what was removed. Another run's live
    temporaries are left alone. With ``target`` (a file name), temporaries of that file in the
    older naming, ``.<target>.XXXXXXXX.tmp``, are removed once older than 10 minutes."""
    removed: list[Path] = []
    legacy = re.compile(rf"^\.{re.escape(target)}\.[a-z0-9_]{{8}}\.tmp$") if target else None
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".tmp") and e.is_file(follow_symlinks=False)]
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        name = entry.name
        match = _TEMP_PATTERN.match(name)
        stale = match is not None and not _process_alive(int(match.group(1)))
        if legacy is not None and legacy.match(name):
            try:
                stale = now - entry.stat(follow_symlinks=False).st_mtime > LEGACY_TEMP_AGE_S
            except OSError:
                stale = False
        if stale:
            try:
                (folder / name).unlink()
                removed.append(folder / name)
            except OSError:
                pass
    return removed


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


# -- signals --------------------------------------------------------------------------------------------
class Interrupted(BaseException):
    """SIGINT, SIGTERM or SIGHUP arrived; the command stops and exits ``128 + signal``.

    A ``BaseException`` (like ``KeyboardInterrupt``) so no ``except Exception`` swallows it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


HANDLED_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _on_signal(signum: int, frame: FrameType | None) -> None:
    for tmp in list(_live_temporaries):
        try:
            os.unlink(tmp)
        except OSError:
            pass
    raise Interrupted(signum)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Within this context SIGINT, SIGTERM and SIGHUP wait (they are blocked, and arrive when
    it ends): for steps that must finish together, such as writing a record and counting it,
    or starting a worker process (a signal during ``fork`` would be lost in its hooks)."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - every POSIX Python has it
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def release_signals() -> None:
    """Unblock the signals :func:`signals_held` blocks (a process forked inside it inherits them held)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HANDLED_SIGNALS)


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """Within this context SIGINT, SIGTERM and SIGHUP raise :class:`Interrupted` after
    removing the temporaries being written; the previous handlers come back after. A signal
    this process was started with ignored stays ignored, as Python leaves it: a job a shell
    or script put in the background (SIGINT ignored) is not stopped by a Ctrl-C meant for
    the job in the foreground, nor one under ``nohup`` (SIGHUP ignored) by a closed terminal."""
    previous = {}
    try:
        for signum in HANDLED_SIGNALS:
            if signal.getsignal(signum) == signal.SIG_IGN:
                continue
            previous[signum] = signal.signal(signum, _on_signal)
    except ValueError:  # not the main thread: leave signals as they are
        pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
