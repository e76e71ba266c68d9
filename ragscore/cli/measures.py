"""``ragscore measures``: every measure's names (ragscore's, ir_measures', trec_eval's),
parameters, definition and n/a case (:func:`ragscore.usecases.measures.list_measures`)."""
from ..usecases.measures import WRITERS, list_measures
from .options import format_option

__all__ = ["COMMANDS"]


def add_measures(commands):
    """Add ``measures`` to the sub-command parser."""
    parser = commands.add_parser(
        "measures", help="list every measure with its names and definition",
        description="Every measure ragscore computes: its label, its registry name, "
                    "ir_measures' names (for --measures of report, compare and eval, and "
                    "a gate rule's metric), trec_eval's (for eval -m and --trec-eval), its "
                    "parameters, its definition and when it is n/a.")
    format_option(parser, WRITERS)
    parser.set_defaults(handler=lambda args: list_measures())


COMMANDS = {"measures": add_measures}
