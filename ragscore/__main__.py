"""``python -m ragscore`` and the ``ragscore`` command: the command line (see
:mod:`ragscore.cli`), with Ctrl-C answered by one line and exit 130 at any moment.

Nothing of the package runs before :func:`run`'s handler is in place: ``import ragscore``
loads no module (its names load on first use), so the command line's own modules, and the
heavy libraries they load, are all imported under it. Once the command has ended, Ctrl-C
takes back its default action: the interpreter's shutdown (joining threads, ``atexit``) is
ended by the signal itself, which a shell reports as 130, instead of a ``KeyboardInterrupt``
raised, and printed, inside it.
"""
import signal
import sys

INTERRUPTED = 130


def run():
    """Load and run the command line; return its exit code."""
    try:
        from .cli import main

        code = main()
        _default_action()
    except KeyboardInterrupt:  # before main took over (its modules being imported), or after
        _default_action()
        print("ragscore: interrupted", file=sys.stderr)
        code = INTERRUPTED
    return code


def _default_action():
    """Ctrl-C from now on ends the process by the signal (no Python code left to run);
    left alone where it is not Python's own handler (ignored under ``nohup``, say)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.SIG_DFL)


if __name__ == "__main__":
    sys.exit(run())
