"""The ``ragscore`` command line: one module per command group, each parsing its options,
calling a use case and handing the result to a writer. :mod:`ragscore.cli.main` builds the
parser and turns errors into exit codes; :mod:`ragscore.cli.options` holds the options
several commands share."""
from .main import build_parser, capture, main, terminal_safe

__all__ = ["build_parser", "capture", "main", "terminal_safe"]
