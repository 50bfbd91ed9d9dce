"""Running the studio: uvicorn on the loopback address, the address with its token printed
first, the browser opened, and everything stopped on Ctrl-C (the port released)."""

from __future__ import annotations

import socket
import threading
import webbrowser
from collections.abc import Callable, Sequence
from pathlib import Path

from coinprint.errors import UsageError
from coinprint.studio.app import create_app
from coinprint.studio.security import new_token
from coinprint.studio.state import Studio, Watched

HOST = "127.0.0.1"
"""The studio binds the loopback address only."""
DEFAULT_PORT = 8770


def bind(port: int) -> socket.socket:
    """A listening socket on the loopback address (``port`` 0: any free one); a port in use
    is refused in one line."""
    # Named TCP, so asyncio sets TCP_NODELAY on every connection it accepts (it does so only
    # for sockets whose protocol says TCP): without it a response written in two parts waits
    # for the browser's delayed acknowledgement, 40 ms on every request of a kept connection.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {HOST}:{port} ({exc.strerror}); choose another --port") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket, token: str) -> str:
    """The address to open: ``http://127.0.0.1:PORT/?token=…``."""
    return f"http://{HOST}:{sock.getsockname()[1]}/?token={token}"


def make_studio(watch: Sequence[str] = (), game: str | None = None) -> Studio:
    """A studio with a fresh token that watches the files ``watch`` (checked for ``game``)."""
    return Studio(new_token(), [Watched(Path(path), game) for path in watch])


def serve(
    studio: Studio,
    sock: socket.socket,
    *,
    open_browser: bool,
    say: Callable[[str], None],
) -> None:
    """Serve ``studio`` on ``sock`` until Ctrl-C (or SIGTERM): say the address first, open the
    browser unless told not to. Returns when the server has stopped and the socket is closed."""
    import uvicorn

    url = address(sock, studio.token)
    say(url)
    config = uvicorn.Config(
        create_app(studio),
        log_level="warning",
        timeout_graceful_shutdown=1,
        lifespan="off",
        ws="none",
    )
    server = uvicorn.Server(config)
    if open_browser:
        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    finally:
        # A computer still thinking would keep the process alive after Ctrl-C: stop it.
        studio.sessions.halt_all()
        sock.close()
