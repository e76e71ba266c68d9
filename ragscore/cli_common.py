"""What the commands of ``ragscore`` share: exit codes, the options every scoring command
takes (each with one meaning across commands), the reading of a dataset folder through the
engine, and text made safe for a terminal."""
import argparse

from .core.metrics import REGISTRY
from .core.rules import COURSE, InvalidInputError, check_k, show
from .engine import DEFAULT_ENGINE, ENGINES
from .io.course import COURSE_PATH


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


def cutoff(text, rules):
    """The cutoff ``text`` as an int within ``rules``, else a clear error."""
    try:
        return check_k(int(text), rules=rules)
    except (ValueError, InvalidInputError):
        raise InvalidInputError(f"k must be a whole number from 1 to {rules.max_k}; "
                                f"got {show(text)}") from None


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
    :mod:`ragscore.io.content`; :func:`ragscore.cli.main` says so in the output)."""
    parser.add_argument("--no-verify", action="store_true",
                        help="read the folder's data files without comparing their content "
                             "with the hash their names carry (a file you changed on "
                             "purpose); every output then says so")


def scoring_options(parser, *, k=True):
    if k:
        parser.add_argument("--k", type=k_text, default="2",
                            help="retrieval cutoff: 1 to 100 (course IDs) or 10000 (open IDs); "
                                 "default 2")
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
    from .io.outputs import check_output_file

    return check_output_file(value, flag=flag, inputs=inputs)


def no_runs(folder):
    """The error for a dataset whose runs file holds no run: there is nothing to score."""
    from .io.jsonl import where

    return InvalidInputError(f"{where(folder)}: its runs file holds no runs; nothing to score "
                             "(add one line per case and system, see docs/dataset-format.md)")


def read_counted(args):
    """The counted runs of ``args.dataset``, read and checked by the chosen engine."""
    from .engine import count_folder
    from .render.progress import Progress

    with Progress("reading and counting the runs") as progress:  # only on a terminal
        counted = count_folder(args.dataset, engine=args.engine, unit=args.unit,
                               dedupe=args.dedupe, progress=progress,
                               drafts=getattr(args, "drafts", False))
    if not counted.keys:
        raise no_runs(args.dataset)
    if getattr(args, "split", None) is not None:
        from .tables.summary import restrict, slice_members

        members = slice_members(counted, "split")
        if args.split not in members:
            raise InvalidInputError(f"--split must be one of the dataset's splits "
                                    f"({', '.join(members)}); got {show(args.split)}")
        counted = restrict(counted, members[args.split])
    return counted


def read_pair(args):
    """The :class:`~ragscore.engine.pairs.FolderPair` of ``--baseline DIR:SYSTEM
    --candidate DIR:SYSTEM`` (two chunkings of one span test set), restricted to
    ``--split`` when given; ``args.baseline`` and ``args.candidate`` name its systems."""
    from .engine.pairs import pair_folders
    from .render.progress import Progress

    with Progress("reading and counting the two folders"):
        pair = pair_folders(args.baseline, args.candidate, engine=args.engine,
                            unit=getattr(args, "unit", "chunk"),
                            dedupe=getattr(args, "dedupe", False))
    if getattr(args, "split", None) is not None:
        from .tables.summary import restrict, slice_members

        members = slice_members(pair.counted, "split")
        if args.split not in members:
            raise InvalidInputError(f"--split must be one of the dataset's splits "
                                    f"({', '.join(members)}); got {show(args.split)}")
        pair = pair._replace(counted=restrict(pair.counted, members[args.split]))
    return pair


def what_was_removed(counted):
    """``(case, system, dropped, collapsed)`` for every run a dedupe or projection changed."""
    return [(case, system, dropped, collapsed) for (case, system), dropped, collapsed
            in zip(counted.keys, counted.field("dropped"), counted.field("collapsed"))
            if dropped or collapsed]


_PRINTABLE_ASCII = bytes(range(32, 127)) + b"\n"  # in ASCII, what str.isprintable passes, and \n


def terminal_safe(text):
    """``text`` with every unprintable character but the line break escaped (``\\x1b``,
    ``\\u202e``), so what a data file holds cannot move the cursor or forge a line.

    >>> terminal_safe("ok\\n\\x1b[2J")
    'ok\\n\\\\x1b[2J'
    """
    if text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_ASCII):
        return text  # the common case, checked at C speed
    lines = text.split("\n")
    if all(map(str.isprintable, lines)):
        return text
    return "\n".join(line if line.isprintable() else
                     "".join(char if char.isprintable() else repr(char)[1:-1] for char in line)
                     for line in lines)


class Escaping:
    """A text stream that writes through :func:`terminal_safe`."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text):
        return self.stream.write(terminal_safe(text))

    def flush(self):
        self.stream.flush()


#: A dataset's note longer than this is cut when shown.
LONGEST_NOTE = 1000


def shortened_note(text):
    return text if len(text) <= LONGEST_NOTE else (
        f"{text[:LONGEST_NOTE]}... (cut; the note has {len(text):,} characters)")


def notes_out(counted, out_of_band):
    """Say on ``out_of_band`` what a projection or dedupe removed, per system."""
    totals = {}
    for _, system, dropped, collapsed in what_was_removed(counted):
        before = totals.get(system, (0, 0))
        totals[system] = (before[0] + dropped, before[1] + collapsed)
    for system, (dropped, collapsed) in totals.items():
        if dropped:
            out_of_band.write(f"ragscore: note: system {system}: {dropped} repeated IDs "
                              "dropped from its rankings (--dedupe)\n")
        if collapsed:
            out_of_band.write(f"ragscore: note: system {system}: {collapsed} chunks collapsed "
                              "into their documents (--unit document)\n")


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
