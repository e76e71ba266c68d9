"""The ``ragscore`` command line: thin wiring around the package's functions.

It behaves like a Unix tool: results on standard output, one line per problem on standard
error, exit code 0 on success, 2 on bad input (with one line naming the problem, never a
traceback), 141 when the reader of its output went away (``ragscore report DIR | head``),
130 on Ctrl-C, and 3 with a request for a bug report on an unexpected internal error
(``--debug`` shows the traceback). The commands live in :mod:`ragscore.cli.report`,
:mod:`ragscore.cli.import_export` and :mod:`ragscore.cli.release`; what they share in
:mod:`ragscore.cli.options`.
"""
import argparse
import functools
import os
import sys

from .options import BAD_INPUT, BROKEN_PIPE, INTERNAL, INTERRUPTED, OK, terminal_safe
from .output import write_result
from ..core.rules import InvalidInputError, show
from ..render.width import check_width, output_width

__all__ = ["build_parser", "capture", "main", "terminal_safe"]


#: An argument error longer than this is cut (argparse repeats a bad value in full).
LONGEST_ERROR = 400


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line: the problem, cut if very long, and where
    to read more (instead of the usage block and the problem)."""

    def error(self, message):
        message = message if message.isprintable() else show(message, limit=LONGEST_ERROR)
        if len(message) > LONGEST_ERROR:
            message = (f"{message[:LONGEST_ERROR]}... (cut; the message had "
                       f"{len(message):,} characters)")
        self.exit(BAD_INPUT, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


#: The commands in the order a user meets them (``ragscore --help`` lists them so).
ORDER = ("demo", "import", "export", "eval", "measures", "report", "compare", "gate",
         "baseline", "html", "review", "plan", "claims", "audit", "sweep", "labels", "rechunk",
         "record", "manifest", "validate", "upgrade")


def command_groups():
    """The command modules, each with ``COMMANDS``: ``{name: add(commands)}``."""
    from . import audit, compare, eval, html, import_export, measures, plan, record, \
        release, report, review, spans

    return (report, import_export, eval, measures, compare, release, html, review, plan, audit,
            spans, record)


def build_parser():
    """The argument parser, with one sub-command per job, in :data:`ORDER`."""
    parser = _Parser(
        prog="ragscore",
        description="Score recorded RAG runs against a grounded test set. "
                    "Start with 'ragscore demo' to see the course table; then import (or "
                    "eval), report, compare, gate.")
    parser.add_argument("--debug", action="store_true",
                        help="show the full traceback of an unexpected error")
    parser.add_argument("--version", action="store_true",
                        help="print the installed ragscore's version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    adders = {name: add for group in command_groups() for name, add in group.COMMANDS.items()}
    if set(adders) != set(ORDER):  # a command module's name missing from ORDER, or the reverse
        raise RuntimeError(f"commands and ORDER differ: {sorted(set(adders) ^ set(ORDER))}")
    for name in ORDER:
        adders[name](commands)
    _add_width_option(parser, top=True)
    return parser


def _width(text):
    try:
        check_width(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _add_width_option(parser, *, top):
    """``--width COLUMNS`` on ``parser`` and on every command under it (after the command
    too, as ``ragscore report DIR --width 80``); given once, it counts everywhere."""
    parser.add_argument("--width", type=_width, metavar="COLUMNS",
                        default=None if top else argparse.SUPPRESS,
                        help="wrap text output at this many columns, a long line continuing "
                             "indented under itself (default: $COLUMNS, else the terminal's "
                             "width when writing to one, else no wrapping); 0: never wrap")
    for action in parser._actions:  # noqa: SLF001 (argparse keeps its sub-commands here)
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for command in action.choices.values():
                _add_width_option(command, top=False)


def _quiet_stdout():
    """After a closed pipe: point stdout at /dev/null so the interpreter's final flush is
    silent too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def capture(argv):
    """Run the command line on ``argv`` in this process; return ``(exit code, standard
    output, standard error)`` as text (for notebooks and tests). The parser is built on
    the first call and kept: building every command's options took longer than most
    commands a chapter runs, and a chapter runs several (argparse keeps no state between
    two parses)."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = main(list(argv), out=out, parser=_kept_parser())
        except SystemExit as error:  # argparse's own usage errors
            code = error.code
    return code, out.getvalue(), err.getvalue()


@functools.lru_cache(maxsize=1)
def _kept_parser():
    return build_parser()


def main(argv=None, *, out=None, parser=None):
    """Run the command line; return the exit code (see the module docstring). ``parser``:
    one :func:`build_parser` made before (default: a new one)."""
    out = sys.stdout if out is None else out
    args = None
    try:  # Ctrl-C from the first moment: one line, exit 130, never a traceback
        parser = build_parser() if parser is None else parser
        args = parser.parse_args(argv)
        if args.version:
            from ..recording.provenance import package_version

            out.write(f"ragscore {package_version()}\n")
            return OK
        if args.command is None:
            parser.error("the following arguments are required: COMMAND")
        width = output_width(args.width, out)  # the columns a renderer may lay out in
        options = dict(fmt=getattr(args, "format", None), out=out, width=width,
                       digits=getattr(args, "digits", None))
        if getattr(args, "no_verify", False):  # every output says so
            from ..io.content import NO_VERIFY_NOTE, unverified

            with unverified():
                result = args.handler(args)
            return write_result(result, first_note=NO_VERIFY_NOTE, **options)
        return write_result(args.handler(args), **options)
    except InvalidInputError as error:
        print(f"ragscore: error: {error}", file=sys.stderr)
        return BAD_INPUT
    except BrokenPipeError:
        _quiet_stdout()
        return BROKEN_PIPE
    except KeyboardInterrupt:
        print("ragscore: interrupted", file=sys.stderr)
        return INTERRUPTED
    except OSError as error:  # the machine, not the data: a full disk, a missing permission
        target = f"{show(error.filename)}: " if error.filename else ""
        print(f"ragscore: error: {target}{error.strerror or error}", file=sys.stderr)
        return BAD_INPUT
    except Exception as error:  # noqa: BLE001 (the last line of defence: one line, no trace)
        if args is not None and args.debug:
            raise
        from ..recording.provenance import report_address

        print(f"ragscore: internal error ({type(error).__name__}): {show(str(error))}; "
              f"this is a bug, please {report_address()} (run the command again with "
              "--debug for the details)", file=sys.stderr)
        return INTERNAL
