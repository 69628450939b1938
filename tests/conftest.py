"""Hypothesis profiles: ``dev`` (the default) and ``ci`` (``.ci/run`` sets
``HYPOTHESIS_PROFILE=ci``). Example counts scale with :func:`strategies.examples`."""

from __future__ import annotations

from hypothesis import settings

from strategies import PROFILE

settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile(PROFILE if PROFILE in ("dev", "ci") else "dev")
