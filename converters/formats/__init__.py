"""One module per file format; each registers itself with converters.registry at its bottom."""
