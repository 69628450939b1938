"""The package version, in one place (read by setup.py, the native kernel's check and the CLI)."""

__version__ = "0.3.0"
