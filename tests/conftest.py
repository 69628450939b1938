"""Hypothesis profiles: ``dev`` (the default) and ``ci`` (``.ci/run`` sets
``HYPOTHESIS_PROFILE=ci``). Example counts scale with :func:`strategies.examples`."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from strategies import PROFILE

# No clock decides a test: no deadline, and no health check that times data generation
# (a busy machine would fail it).
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(PROFILE if PROFILE in ("dev", "ci") else "dev")
