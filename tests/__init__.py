"""The tests: shared ones here, each game's own under ``tests/games/<game>/``."""

from hypothesis import HealthCheck, settings

# Property tests check what the code does, not how fast: no per-example deadline (200 ms by
# default) and no "too slow" health check, either of which a busy machine can trip. Here, not
# in conftest.py, so it holds for every test module however it is imported (all are in this package).
settings.register_profile("coinprint", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("coinprint")
