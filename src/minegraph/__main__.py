"""``python -m minegraph`` runs the command line."""

try:
    from minegraph.cli import main
except KeyboardInterrupt:  # Ctrl-C while starting up ends as it would in the command
    raise SystemExit(130) from None

raise SystemExit(main())
