"""Readers and writers of board formats (FORMATS.md); see :func:`minegraph.formats.read_board`."""
