"""``python -m coinprint`` and the ``coinprint`` console script."""

import sys


def run() -> None:
    """Start the command line; Ctrl-C while it is still loading exits 130 with one line."""
    try:
        from coinprint.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("coinprint: interrupted\n")
        sys.exit(130)
    main()


if __name__ == "__main__":
    run()
