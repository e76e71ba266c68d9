"""``ragscore import`` and ``ragscore export``: built from the importer and exporter
registries (:data:`ragscore.importers.registry.IMPORTERS`,
:data:`ragscore.importers.exporters.EXPORTERS`), so each format is declared once; the use
cases are :mod:`ragscore.usecases.transfer`'s."""
from ..importers.exporters import EXPORTERS
from ..importers.registry import IMPORTERS
from ..usecases.transfer import export_dataset, import_dataset
from .options import dataset_argument

#: What ``import``'s own options are called in ``args`` (the rest are its importer's).
_OWN = ("command", "kind", "handler", "out", "overwrite", "review_out", "overwrite_decisions",
        "width", "debug", "version")


def _import(args):
    options = {name: value for name, value in vars(args).items() if name not in _OWN}
    return import_dataset(args.kind, out=args.out, overwrite=args.overwrite,
                          review_out=args.review_out,
                          overwrite_decisions=args.overwrite_decisions, **options)


def _export(args):
    options = {name: value for name, value in vars(args).items()
               if name not in ("command", "kind", "handler", "dataset", "width", "debug",
                               "version", "no_verify")}
    return export_dataset(args.kind, args.dataset, **options)


def add_import(commands):
    """Add ``import FORMAT``, one sub-command per registered importer."""
    importing = commands.add_parser(
        "import", help=f"turn a test set in another format ({', '.join(IMPORTERS)}) into a "
                       "dataset folder",
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


def add_export(commands):
    """Add ``export FORMAT``, one sub-command per registered exporter."""
    exporting = commands.add_parser(
        "export", help=f"write a dataset in another format ({', '.join(EXPORTERS)})",
        description="; ".join(f"{exporter.name}: {exporter.description}"
                              for exporter in EXPORTERS.values()))
    formats = exporting.add_subparsers(dest="kind", required=True, metavar="FORMAT")
    for exporter in EXPORTERS.values():
        parser = formats.add_parser(exporter.name, help=exporter.summary,
                                    description=exporter.description)
        dataset_argument(parser)
        for option in exporter.options:
            parser.add_argument(*option.flags, **option.settings)
        parser.set_defaults(handler=_export)


COMMANDS = {"import": add_import, "export": add_export}
