"""Importers from the formats test sets and runs already come in, and exporters back out:
each declared once, in :data:`~ragscore.importers.registry.IMPORTERS` (trec, beir, ragas,
llamaindex, log, openinference, llamaindex-rag, nuggets, alce, spans) and
:data:`~ragscore.importers.exporters.EXPORTERS` (trec, nuggets, alce), from which the
command line builds ``ragscore import`` and ``ragscore export``.

Each importer reads its files (regular files only, size-limited, streamed where the format
allows) and returns ``(dataset, notes)``: a :class:`~ragscore.io.dataset.Dataset` under open
ID rules, which the caller saves with :func:`~ragscore.io.dataset.save_dataset`, and a dict
saying what was dropped or filled in. Every problem in a file raises
:class:`~ragscore.io.jsonl.DatasetFileError` naming the file and the line (or the key path
of a single JSON document); a bad option raises
:class:`~ragscore.core.rules.InvalidInputError`. See ``docs/import.md``.
"""
from .alce import export_alce, import_alce
from .beir import import_beir
from .export import export_trec
from .llamaindex import import_llamaindex, import_llamaindex_results
from .llamaindex_rag import import_llamaindex_rag
from .log import import_log
from .nuggetizer import import_nuggets
from .nuggetizer_export import export_nuggets
from .openinference import import_openinference
from .ragas import import_ragas
from .spans import import_spans
from .trec import import_trec

__all__ = ["export_alce", "export_nuggets", "export_trec", "import_alce", "import_beir",
           "import_llamaindex", "import_llamaindex_rag", "import_llamaindex_results",
           "import_log", "import_nuggets", "import_openinference", "import_ragas",
           "import_spans", "import_trec"]
