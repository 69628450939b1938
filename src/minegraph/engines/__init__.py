"""Solving engines behind one interface; see :func:`minegraph.engines.get_engine`."""

from minegraph.engines.base import ENGINES, Engine, EngineResult, get_engine

__all__ = ["ENGINES", "Engine", "EngineResult", "get_engine"]
