"""``python -m ragscore``: the command line (see :mod:`ragscore.cli`)."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
