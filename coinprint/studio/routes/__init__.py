"""The studio's routes, one module per page: :mod:`.site` (the pages themselves, their files
and the games' catalogue), :mod:`.print` (boards, kits and rule sheets), :mod:`.maps` (the
fair-map search), :mod:`.check` (drawings checked and watched), :mod:`.play` and
:mod:`.replay`; :mod:`.answers` holds what they share (reading a request, answering it).

Each module lists its routes in ``ROUTES``; the handlers are module-level functions that find
the studio at ``request.app.state.studio``, and hold no logic of their own.
"""
