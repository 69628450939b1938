"""The machine description every benchmark records beside its figures."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import minegraph.kernel

ROOT = Path(__file__).resolve().parent.parent


def _first(path: str, prefix: str) -> str | None:
    try:
        for line in Path(path).read_text().splitlines():
            if line.lower().startswith(prefix.lower()):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _git_commit() -> str | None:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, timeout=10).stdout.strip() or None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{commit} (uncommitted changes)" if commit and dirty else commit


def describe(**versions: Any) -> dict[str, Any]:
    """Platform, CPU model, cores, memory, Python, git commit, plus the given library versions."""
    import minegraph
    memory = _first("/proc/meminfo", "MemTotal:")
    try:
        usable: int | None = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        usable = os.cpu_count()
    return {"platform": platform.platform(), "machine": platform.machine(),
            "cpu": _first("/proc/cpuinfo", "model name") or platform.processor() or platform.machine(),
            "cores": os.cpu_count(), "usable_cores": usable,
            "memory": f"{int(memory.split()[0]) / 2**20:.1f} GiB" if memory else None,
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "minegraph": minegraph.__version__, "minegraph_path": minegraph.kernel.status(),
            **versions, "git": _git_commit()}


def write_result(path: Path, result: dict[str, Any]) -> None:
    """Write a benchmark's ``result`` to ``path`` as JSON, with this machine (:func:`describe`)
    and the command that made it."""
    result["machine"] = describe()
    result["command"] = "python " + " ".join(sys.argv)
    path.write_text(json.dumps(result, indent=1) + "\n")
