"""``python -m ragscore`` and the ``ragscore`` command: the command line (see
:mod:`ragscore.cli`), with Ctrl-C answered by one line and exit 130 even while the command
line is still being loaded."""
import sys


def run():
    """Load and run the command line; return its exit code."""
    try:
        from .cli import main

        return main()
    except KeyboardInterrupt:  # before main took over: while its modules were imported
        print("ragscore: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(run())
