"""``ragscore import`` and ``ragscore export``: built from the importer registry
(:data:`ragscore.importers.registry.IMPORTERS`), so each format is declared once."""
from .cli_common import OK, dataset_argument, output_file
from .core.rules import InvalidInputError
from .importers.registry import IMPORTERS
from .io.jsonl import where


def _import(args, out):
    """Read the files an importer names, then save the dataset at ``--out``; say what was
    written and what was dropped or filled in."""
    from pathlib import Path

    from .folders import save_dataset
    from .io.format import NAME_PATTERN
    from .io.outputs import check_output_folder

    importer = IMPORTERS[args.kind]
    inputs = _inputs(importer, args)
    # every output checked before any work: never an input, never inside a dataset folder
    check_output_folder(args.out, flag="--out", inputs=inputs, overwrite=args.overwrite)
    if args.review_out:
        from .io.queue_file import check_queue_output

        check_queue_output(args.review_out, flag="--review-out", inputs=inputs,
                           overwrite=args.overwrite, decisions=args.overwrite_decisions)
    options = {name: value for name, value in vars(args).items()
               if name not in ("handler", "review_out", "overwrite_decisions")}
    folder_name = Path(args.out).resolve().name
    if options["name"] is None and NAME_PATTERN.fullmatch(folder_name):
        options["name"] = folder_name  # as --help says
    from .io.input_bytes import bytes_reported, input_bytes
    from .render.progress import Progress

    total = input_bytes(inputs)  # what the import reads, and only that
    # only on a terminal, after two seconds: the share of the input files' bytes read
    with Progress(f"importing ({args.kind})", unit="bytes") as progress:

        def report(done):
            if total:
                progress(min(done, total), total)

        with bytes_reported(report):
            dataset, notes = importer.read(options)
    sentences = []
    for what, value in notes.items():
        if type(value) is dict:
            counted = ", ".join(f"{system} {count:,}" for system, count in value.items())
            sentences.append(f"{what}: {counted or 'none'}")
        elif what == "missing_run":
            sentences.append("a judged question missing from a run was given an empty ranking "
                             "(--missing-run zero, as trec_eval -c)" if value == "zero" else
                             "a judged question missing from a run was left out of that "
                             "system's results (--missing-run skip)")
        elif what == "max_depth":
            sentences.append(f"each ranking cut to its best {value:,} (--max-depth, as "
                             "trec_eval -M)")
        else:
            sentences.append(f"{what}: {value}")
    if not dataset.corpus:  # nothing to check a ranking against: say where, not "{}"
        raise InvalidInputError(f"{', '.join(map(where, inputs))}: no document is named in "
                                "any ranking, context or label (every ranking is empty?); a "
                                "dataset needs at least one document")
    dataset = dataset._replace(notes=(f"imported with 'ragscore import {args.kind}'",
                                      *sentences))
    with Progress("writing the dataset"):
        folder = save_dataset(dataset, args.out, overwrite=args.overwrite)
    runs = sum(len(per_case) for per_case in dataset.runs.values())
    names = dataset.systems
    systems = len(names)
    corpus = (f"{len(dataset.corpus):,} chunks of {len(dataset.documents):,} documents"
              if dataset.documents else f"{len(dataset.corpus):,} documents")
    lines = [f"wrote {folder}: {corpus}, {len(dataset.cases):,} questions, {runs:,} runs of "
             f"{systems} system{'s' * (systems != 1)} ({', '.join(names) or 'none'})"]
    lines += [f"  {sentence}" for sentence in sentences]
    if args.review_out:
        lines.append(_write_review_queue(dataset, args.review_out))
    out.write("\n".join(lines) + "\n")
    return OK


def _inputs(importer, args):
    """The files and folders an import reads (the options its importer marks ``reads``)."""
    found = []
    for option in importer.options:
        if option.reads:
            value = getattr(args, option.settings.get("dest") or
                            option.flags[0].lstrip("-").replace("-", "_"))
            found += value if isinstance(value, list) else [value]
    return [value for value in found if value]


def _write_review_queue(dataset, path):
    """Write the review queue of a just-imported ``dataset`` at ``path``; say so."""
    from .cli_answers import queue_summary, queue_text
    from .io.store import write_file_atomically

    from pathlib import Path

    rows, text = queue_text(dataset, path=path)
    write_file_atomically(Path(path), [text])
    return f"wrote {path}: {queue_summary(rows)}"


def _export_trec(args, out):
    from .folders import load_dataset
    from .importers import export_trec
    from .io.outputs import check_output_file

    # the prefix's own name checked as a file would be: its folder, inputs, dataset folders
    check_output_file(f"{args.out_prefix}.qrels", flag="--out-prefix", inputs=(args.dataset,),
                      make_folder=True)
    written = export_trec(load_dataset(args.dataset), args.out_prefix)
    out.write("".join(f"wrote {path}\n" for path in written))
    return OK


def _export_nuggets(args, out):
    from .folders import load_dataset
    from .importers.nuggetizer import export_nuggets

    targets = {flag: output_file(f"--{flag}", value, inputs=(args.dataset,))
               for flag, value in (("nuggets", args.nuggets), ("assignments", args.assignments),
                                   ("answers", args.answers)) if value is not None}
    if not targets:
        raise InvalidInputError("export nuggets writes --nuggets, --assignments or --answers "
                                "(at least one)")
    if len({path.resolve() for path in targets.values()}) < len(targets):
        raise InvalidInputError("export nuggets writes each file once: give --nuggets, "
                                "--assignments and --answers different paths")
    written = export_nuggets(load_dataset(args.dataset), drafts=args.drafts, **targets)
    for flag, path in targets.items():
        line = f"wrote {path}: {written[flag]:,} lines"
        if flag == "assignments" and written["skipped"]:
            line += (f" ({written['skipped']:,} answers left out: some nugget not assigned"
                     f"{'' if args.drafts else ' by a person (--drafts adds machine drafts)'})")
        out.write(line + "\n")
    return OK


def _export_alce(args, out):
    from .folders import load_dataset
    from .importers.alce import export_alce

    target = output_file("--out", args.out, inputs=(args.dataset,))
    count = export_alce(load_dataset(args.dataset), target, system=args.system)
    out.write(f"wrote {target}: {count:,} answers of system {args.system}\n")
    return OK


def add_import_commands(commands):
    """Add ``import FORMAT`` (one sub-command per registered importer) and ``export trec``."""
    importing = commands.add_parser(
        "import", help="turn TREC, BEIR, Ragas, LlamaIndex, OpenInference files or your own "
                       "log into a dataset folder",
        description="Read a test set in a format it already lives in and write it as a "
                    "ragscore dataset folder (open ID rules). A bad line stops the import "
                    "with its file and line, and nothing is written. See docs/import.md.")
    kinds = importing.add_subparsers(dest="kind", required=True, metavar="FORMAT")
    for importer in IMPORTERS.values():
        parser = kinds.add_parser(importer.name, help=importer.summary,
                                  description=importer.description)
        for option in importer.options:
            parser.add_argument(*option.flags, **option.settings)
        parser.add_argument("--out", required=True, help="the dataset folder to write")
        parser.add_argument("--overwrite", action="store_true",
                            help="replace --out if it is a ragscore dataset already, and "
                                 "--review-out if it holds no decision")
        parser.add_argument("--overwrite-decisions", action="store_true",
                            help="replace --review-out even if it holds a reviewer's "
                                 "decisions (they are lost)")
        parser.add_argument("--name", default=None,
                            help="the dataset's name (default: the --out folder's name; "
                                 "the input's file or folder name if that is not a valid "
                                 "name: letters, digits, '.', '_', '-')")
        parser.add_argument("--review-out", default=None, metavar="FILE",
                            help="also write the claims of answer-only runs awaiting review "
                                 "(.csv, else JSON Lines; fill it in, then 'ragscore review "
                                 "import': docs/answers.md)")
        parser.set_defaults(handler=_import)

    exporting = commands.add_parser(
        "export", help="write a dataset as TREC qrels and runs, nuggetizer files or ALCE results",
        description="trec: qrels plus one run per system, with strictly decreasing scores so "
                    "every tool sees ragscore's order; nuggets: nuggetizer's and TREC RAG's "
                    "layouts; alce: ALCE's result file.")
    formats = exporting.add_subparsers(dest="kind", required=True, metavar="FORMAT")
    trec_out = formats.add_parser("trec", help="TREC qrels and runs")
    dataset_argument(trec_out)
    trec_out.add_argument("--out-prefix", required=True,
                          help="files are written as PREFIX.qrels and PREFIX.SYSTEM.run")
    trec_out.set_defaults(handler=_export_trec)
    nuggets_out = formats.add_parser(
        "nuggets", help="nuggets, nugget assignments and TREC RAG answers (nuggetizer's layouts)",
        description="Write the test set's nuggets, the nugget assignments of each answer "
                    "(people's; --drafts adds machine drafts) and the answers recorded as "
                    "sentences, as castorini/nuggetizer and ragnarok write them. See "
                    "docs/nuggets.md.")
    dataset_argument(nuggets_out)
    for flag, meaning in (("nuggets", "the nuggets"), ("assignments", "the assignments"),
                          ("answers", "the TREC RAG answers")):
        nuggets_out.add_argument(f"--{flag}", default=None, metavar="FILE",
                                 help=f"write {meaning} here (JSON Lines)")
    nuggets_out.add_argument("--drafts", action="store_true",
                             help="write machines' draft assignments where no person judged")
    nuggets_out.set_defaults(handler=_export_nuggets)
    alce_out = formats.add_parser("alce", help="one system's answers as an ALCE result file",
                                  description="Questions, passages and answers of one system "
                                              "in ALCE's result layout (data only).")
    dataset_argument(alce_out)
    alce_out.add_argument("--system", required=True, help="the system to write")
    alce_out.add_argument("--out", required=True, help="the JSON file to write")
    alce_out.set_defaults(handler=_export_alce)
