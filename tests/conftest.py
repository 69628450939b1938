"""Hypothesis profiles: ``dev`` (the default) and ``ci`` (``.ci/run`` sets
``HYPOTHESIS_PROFILE=ci``). Example counts scale with :func:`strategies.examples`."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from strategies import PROFILE

# No clock decides a test: no deadline, and no health check that times data generation
# (a busy machine would fail it). Nor luck: a test that filters its examples by design
# (``assume``) may meet a run of rejected draws; Hypothesis still fails it as unsatisfiable
# when no example gets through.
_QUIET = [HealthCheck.too_slow, HealthCheck.filter_too_much]
settings.register_profile("dev", deadline=None, suppress_health_check=_QUIET)
settings.register_profile("ci", deadline=None, print_blob=True, suppress_health_check=_QUIET)
settings.load_profile(PROFILE if PROFILE in ("dev", "ci") else "dev")


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    """Leave the checks marked ``slow`` out unless asked for with ``-m slow`` (the marker's
    promise in pyproject.toml; ``make test`` and CI run the rest)."""
    import pytest

    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
