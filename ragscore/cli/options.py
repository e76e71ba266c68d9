"""The options several commands of ``ragscore`` share, each with one meaning across
commands (the dataset argument, the cutoff, the metrics, the engine, ``--format`` from a
result's writers, output files), and the exit codes."""
import argparse

from ..render.escape import terminal_safe  # noqa: F401 (the command line's own name for it)

from ..core.metrics import REGISTRY
from ..core.rules import COURSE, InvalidInputError, check_k, show
from ..engine import DEFAULT_ENGINE, ENGINES
from ..io.course import COURSE_PATH


#: Exit codes.
OK, FAILED, BAD_INPUT, INTERNAL, BROKEN_PIPE, INTERRUPTED = 0, 1, 2, 3, 141, 130


def course_k(text):
    """A cutoff for the course table (the course rules: 1 to 100)."""
    try:
        return check_k(int(text))
    except (ValueError, InvalidInputError):
        raise argparse.ArgumentTypeError(
            f"k must be a whole number from 1 to {COURSE.max_k}; got {show(text)}") from None


def k_text(text):
    """A cutoff as typed; checked once the dataset's ID rules (which bound k) are known."""
    return text


def metric_names(text):
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [name for name in names if name not in REGISTRY]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"--metrics must be registry names separated by commas ({', '.join(REGISTRY)}); "
            f"got {show(text)}")
    return names


def dataset_argument(parser, *, optional=False, pair=False):
    if pair:  # compare, gate, html: or two folders cut from one span test set
        parser.add_argument("dataset", nargs="?", default=None,
                            help="dataset folder (see docs/dataset-format.md); leave it out "
                                 "to compare two chunkings of one span test set: --baseline "
                                 "DIR:SYSTEM --candidate DIR:SYSTEM (docs/spans.md)")
    elif optional:
        parser.add_argument("dataset", nargs="?", default=str(COURSE_PATH),
                            help="dataset folder (default: the course dataset)")
    else:
        parser.add_argument("dataset", help="dataset folder (see docs/dataset-format.md)")
    no_verify_option(parser)


def queue_overwrite_options(parser, flag):
    """``--overwrite`` and ``--overwrite-decisions`` for a command writing a review queue
    to ``flag`` (:func:`ragscore.io.queue_file.check_queue_output`)."""
    parser.add_argument("--overwrite", action="store_true",
                        help=f"replace {flag} if it exists and holds no decision")
    parser.add_argument("--overwrite-decisions", action="store_true",
                        help=f"replace {flag} even if it holds a reviewer's decisions (they "
                             "are lost)")


def no_verify_option(parser):
    """``--no-verify``, on every command that reads a dataset folder (see
    :mod:`ragscore.io.content`; :func:`ragscore.cli.main.main` says so in the output)."""
    parser.add_argument("--no-verify", action="store_true",
                        help="read the folder's data files without comparing their content "
                             "with the hash their names carry (a file you changed on "
                             "purpose); every output then says so")


def scoring_options(parser, *, k=True):
    if k:
        parser.add_argument("--k", type=k_text, default=None,
                            help="retrieval cutoff: 1 to 100 (course IDs) or 10000 (open IDs); "
                                 "default 2 (with --measures: the cutoff of a measure named "
                                 "without one, such as support)")
    parser.add_argument("--metrics", type=metric_names, default=None,
                        help="metrics to show, registry names separated by commas "
                             f"({', '.join(REGISTRY)}); default: the contract's six, less "
                             "the answer metrics when no run recorded an answer")
    parser.add_argument("--unit", choices=("chunk", "document"), default="chunk",
                        help="score rankings as recorded (chunk, the default) or projected "
                             "onto their documents (labels then name documents)")
    parser.add_argument("--dedupe", action="store_true",
                        help="drop repeated IDs from a recorded ranking (counted per "
                             "question) instead of refusing the run")
    parser.add_argument("--split", default=None, metavar="NAME",
                        help="score only the questions of one split (dev or heldout)")
    engine_option(parser)


def engine_option(parser):
    parser.add_argument("--engine", choices=ENGINES, default=DEFAULT_ENGINE,
                        help="the scoring engine: reference (the plain per-record counter, "
                             f"the specification) or columnar (arrays; default "
                             f"{DEFAULT_ENGINE}); both give the same numbers")


def output_file(flag, value, *, inputs=()):
    """The :class:`~pathlib.Path` of an output file given as ``flag`` (``--out``), checked
    before any work (:func:`ragscore.io.outputs.check_output_file`: its folder exists, it is
    none of ``inputs``, not inside a dataset folder, a regular file if it exists)."""
    from ..io.outputs import check_output_file

    return check_output_file(value, flag=flag, inputs=inputs)


def confidence(text):
    """A confidence level strictly between 0 and 1, such as 0.95."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"--confidence must be a number strictly between 0 and 1, such as 0.95; "
            f"got {text!r}")
    return value


def random_seed(text):
    """A random seed: a whole number 0 or above."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"--seed must be a whole number 0 or above; "
                                         f"got {text!r}")
    return value


#: ``format_option``'s default: the first writer of the table.
FIRST = "first writer"


def format_option(parser, writers, *, default=FIRST, help=None):
    """``--format``, its choices the names of a result type's ``writers`` (the first is
    the default unless ``default`` is given; ``None``: the command chooses)."""
    names = tuple(writers)
    default = names[0] if default == FIRST else default
    parser.add_argument("--format", choices=names, default=default,
                        help=help or f"output format (default {default})")


def digits_option(text):
    """``--digits``: 0 to 17 decimals."""
    if not (text.isascii() and text.isdigit() and int(text) <= 17):
        raise argparse.ArgumentTypeError(f"--digits must be a whole number from 0 to 17; "
                                         f"got {show(text)}")
    return int(text)


def measures_option(text):
    """``--measures``: parsed as the command line is read, so a typo fails at once."""
    from ..core.measures import parse_measures

    try:
        parse_measures(text)
    except InvalidInputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


#: The cutoff of a command whose --k was not given.
DEFAULT_K = "2"


def scoring(args):
    """The options of :func:`scoring_options` as a use case's keywords."""
    return {"engine": args.engine, "unit": args.unit, "dedupe": args.dedupe,
            "split": args.split}


def given_k(args):
    """``--k`` as given, else :data:`DEFAULT_K`."""
    return DEFAULT_K if args.k is None else args.k
