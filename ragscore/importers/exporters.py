"""The exporters, each declared once beside the importers (:mod:`ragscore.importers.registry`):
its name (``ragscore export NAME``), what it writes, its options and the function that
writes a dataset.

The command line builds ``ragscore export`` from :data:`EXPORTERS`; a new format is one
module and one row here. ``write(dataset, options)`` checks its output files before it
writes (never an input, never inside a dataset folder: :mod:`ragscore.io.outputs`), writes
each atomically and returns one line per file written.
"""
from collections import namedtuple

from ..core.rules import InvalidInputError
from .registry import Option

__all__ = ["EXPORTERS", "Exporter"]


class Exporter(namedtuple("Exporter", "name summary description options write")):
    """One exporter: ``write(dataset, options)`` takes a loaded dataset, the parsed options
    (a dict keyed by option destination, ``dataset`` the folder's path) and returns the
    lines saying what it wrote."""

    __slots__ = ()


def _trec(dataset, options):
    from ..io.outputs import check_output_file
    from .export import export_trec

    # the prefix's own name checked as a file would be: its folder, inputs, dataset folders
    check_output_file(f"{options['out_prefix']}.qrels", flag="--out-prefix",
                      inputs=(options["dataset"],), make_folder=True)
    return [f"wrote {path}" for path in export_trec(dataset, options["out_prefix"])]


def _nuggets(dataset, options):
    from ..io.outputs import check_output_file
    from .nuggetizer_export import export_nuggets

    targets = {flag: check_output_file(value, flag=f"--{flag}", inputs=(options["dataset"],))
               for flag, value in (("nuggets", options["nuggets"]),
                                   ("assignments", options["assignments"]),
                                   ("answers", options["answers"])) if value is not None}
    if not targets:
        raise InvalidInputError("export nuggets writes --nuggets, --assignments or --answers "
                                "(at least one)")
    if len({path.resolve() for path in targets.values()}) < len(targets):
        raise InvalidInputError("export nuggets writes each file once: give --nuggets, "
                                "--assignments and --answers different paths")
    written = export_nuggets(dataset, drafts=options["drafts"], **targets)
    lines = []
    for flag, path in targets.items():
        line = f"wrote {path}: {written[flag]:,} lines"
        if flag == "assignments" and written["skipped"]:
            line += (f" ({written['skipped']:,} answers left out: some nugget not assigned"
                     f"{'' if options['drafts'] else ' by a person (--drafts adds machine drafts)'})")
        lines.append(line)
    return lines


def _alce(dataset, options):
    from ..io.outputs import check_output_file
    from .alce import export_alce

    target = check_output_file(options["out"], flag="--out", inputs=(options["dataset"],))
    count = export_alce(dataset, target, system=options["system"])
    return [f"wrote {target}: {count:,} answers of system {options['system']}"]


def _file(flag, meaning):
    return Option((f"--{flag}",), {"default": None, "metavar": "FILE",
                                   "help": f"write {meaning} here (JSON Lines)"})


EXPORTERS = {exporter.name: exporter for exporter in (
    Exporter(
        name="trec", summary="TREC qrels and runs",
        description="qrels plus one run per system, with strictly decreasing scores so every "
                    "tool sees ragscore's order.",
        options=(Option(("--out-prefix",), {"required": True,
                                             "help": "files are written as PREFIX.qrels and "
                                                     "PREFIX.SYSTEM.run"}),),
        write=_trec),
    Exporter(
        name="nuggets",
        summary="nuggets, nugget assignments and TREC RAG answers (nuggetizer's layouts)",
        description="Write the test set's nuggets, the nugget assignments of each answer "
                    "(people's; --drafts adds machine drafts) and the answers recorded as "
                    "sentences, as castorini/nuggetizer and ragnarok write them. See "
                    "docs/nuggets.md.",
        options=(_file("nuggets", "the nuggets"), _file("assignments", "the assignments"),
                 _file("answers", "the TREC RAG answers"),
                 Option(("--drafts",), {"action": "store_true",
                                        "help": "write machines' draft assignments where no "
                                                "person judged"})),
        write=_nuggets),
    Exporter(
        name="alce", summary="one system's answers as an ALCE result file",
        description="Questions, passages and answers of one system in ALCE's result layout "
                    "(data only).",
        options=(Option(("--system",), {"required": True, "help": "the system to write"}),
                 Option(("--out",), {"required": True, "help": "the JSON file to write"})),
        write=_alce),
)}
