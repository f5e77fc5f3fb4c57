"""One module per CLI subcommand; each defines register(subparsers) (and is found automatically)."""
