"""python -m converters."""
import sys

from .cli import main

sys.exit(main())
