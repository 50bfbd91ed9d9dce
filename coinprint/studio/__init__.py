"""coinprint studio: a local web application for the people who do not live in a terminal.

Print a kit (every option from the game's parameter schema, a live preview, the same PDF bytes
as the command line), make maps at one click, check a drawing as it is drawn (``--watch``),
play the computer or a friend, replay records. It is a front door like the command line
(``cli/``): it holds no logic, and calls the same functions below it.

Run it with ``coinprint studio``; in Python, :func:`coinprint.studio.app.create_app` is the
ASGI application (Starlette), behind the token and origin checks of
:mod:`coinprint.studio.security`. The web stack is the ``studio`` extra.
"""
