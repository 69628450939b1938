"""``python -m minegraph`` runs the command line."""

from minegraph.cli import main

raise SystemExit(main())
