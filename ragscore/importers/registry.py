"""The importers, each declared once: its name (``ragscore import NAME``), what it reads,
its options and the function that reads them.

The command line builds ``ragscore import`` from :data:`IMPORTERS` and dispatches on it; a
new format is one module and one line here.
"""
from collections import namedtuple

from ..io.jsonl import MAX_FILE_BYTES as MAX_BYTES

__all__ = ["IMPORTERS", "Importer", "Option"]


class Option(namedtuple("Option", "flags settings reads", defaults=(False,))):
    """One command-line option of an importer: its flags, the keyword arguments of
    ``argparse``'s ``add_argument`` (help text, default, ...) and whether it names a file or
    folder the import ``reads`` (no output may be written there)."""

    __slots__ = ()


class Importer(namedtuple("Importer", "name summary description options read")):
    """One importer: ``read(options)`` takes the parsed options (a dict keyed by option
    destination) and returns ``(dataset, notes)``."""

    __slots__ = ()


MISSING_RUN = Option(("--missing-run",), {
    "choices": ("zero", "skip"), "default": "zero",
    "help": "a judged question a run lacks: an empty ranking (zero, trec_eval -c; the "
            "default) or left out (skip)"})
MIN_RELEVANCE = Option(("--min-relevance",), {
    "type": int, "default": 1, "help": "lowest grade judged relevant (trec_eval -l; default 1)"})
RUNS = Option(("--run",), {"action": "append", "metavar": "TREC_RUN", "default": None,
                           "help": "a TREC run file (qid Q0 docno rank score tag); repeatable"},
              reads=True)
ENGINE = Option(("--engine",), {
    "choices": ("reference", "columnar"), "default": "columnar",
    "help": "read run files in columns where they are laid out plainly (columnar, the "
            "default) or line by line (reference); both give the same dataset"})


def at_least_1(flag):
    """An ``argparse`` type for ``flag``: a whole number from 1 to the largest signed 64-bit
    integer (what the array kernels hold), else a message naming the flag.

    >>> at_least_1("--max-depth")("3")
    3
    """
    import argparse

    from ..core.rules import MAX_WHOLE, show

    def parsed(text):
        try:
            value = int(text)
        except ValueError:
            value = 0
        if not 1 <= value <= MAX_WHOLE:
            raise argparse.ArgumentTypeError(f"{flag} must be a whole number of at least 1 "
                                             f"and at most {MAX_WHOLE:,}; got {show(text)}")
        return value

    return parsed


def date_option(text):
    """An ``argparse`` type for a ``--date``: ``YYYY-MM-DD`` in ASCII digits, a day of the
    calendar (:func:`ragscore.core.rules.check_date`, the one check of every date).

    >>> date_option("2026-12-04")
    '2026-12-04'
    """
    import argparse

    from ..core.rules import InvalidInputError, check_date

    try:
        return check_date(text, "--date")
    except InvalidInputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


#: A ranking depth (``--max-depth``, ``eval -M``): a whole number, 1 or more.
depth = at_least_1("--max-depth")


def _trec(options):
    from ..core.rules import InvalidInputError
    from .trec import import_trec, import_trec_columns

    if not options["run"]:
        raise InvalidInputError("import trec needs at least one --run file")
    if options["engine"] == "columnar" and options["order"] == "score":  # kept in columns
        return import_trec_columns(options["qrels"], options["run"],
                                   min_relevance=options["min_relevance"],
                                   missing_run=options["missing_run"], name=options["name"],
                                   max_depth=options["max_depth"])
    return import_trec(options["qrels"], options["run"], min_relevance=options["min_relevance"],
                       missing_run=options["missing_run"], name=options["name"],
                       max_depth=options["max_depth"], engine=options["engine"],
                       order=options["order"])


def _beir(options):
    from .beir import import_beir

    return import_beir(options["folder"], split=options["qrels_split"], runs=options["run"] or (),
                       min_relevance=options["min_relevance"],
                       missing_run=options["missing_run"], name=options["name"])


def _ragas(options):
    from ..core.rules import InvalidInputError
    from .ragas import import_ragas

    if len(options["file"]) != len(options["system"]):
        raise InvalidInputError(f"each --file needs its --system; got {len(options['file'])} "
                                f"files and {len(options['system'])} systems")
    return import_ragas(list(zip(options["file"], options["system"])), name=options["name"])


def _llamaindex(options):
    from ..core.rules import InvalidInputError
    from .llamaindex import import_llamaindex, import_llamaindex_results

    if options["results"] is not None:
        if options["file"] is not None or options["run"]:
            raise InvalidInputError("--results FILE goes alone (with --system); a question set "
                                    "is --file FILE with --run files")
        if options["system"] is None:
            raise InvalidInputError("--results FILE needs --system NAME: the system it records")
        return import_llamaindex_results(options["results"], system=options["system"],
                                         name=options["name"])
    if options["file"] is None:
        raise InvalidInputError("import llamaindex needs --file (a question set) or --results "
                                "(a RetrieverEvaluator results file)")
    if options["system"] is not None:
        raise InvalidInputError("--system names the system of a --results file; a question "
                                "set's systems are its --run files' tags")
    return import_llamaindex(options["file"], runs=options["run"] or (),
                             missing_run=options["missing_run"], name=options["name"])


def _log(options):
    from .log import FIELDS, import_log

    fields = {field: options[f"{field}_field"] for field in FIELDS}
    return import_log(options["file"], system=options["system"], fields=fields,
                      lists_of=options["lists_of"], name=options["name"])


def _openinference(options):
    from .openinference import import_openinference

    return import_openinference(options["file"], system=options["system"],
                                name=options["name"])


def _llamaindex_rag(options):
    from ..core.rules import InvalidInputError
    from .llamaindex_rag import import_llamaindex_rag

    files, systems = options["predictions"] or [], options["system"] or []
    if len(files) != len(systems):
        raise InvalidInputError(f"each --predictions needs its --system; got {len(files)} "
                                f"files and {len(systems)} systems")
    return import_llamaindex_rag(options["dataset"], list(zip(files, systems)),
                                 name=options["name"])


def _nuggets(options):
    from .nuggetizer import import_nuggets

    return import_nuggets(options["nuggets"], assignments=options["assignments"],
                          answers=options["answers"], qrels=options["qrels"],
                          origin=options["origin"], reviewer=options["reviewer"],
                          date=options["date"], failed_as=options["failed_as"],
                          name=options["name"])


def _alce(options):
    from .alce import import_alce

    return import_alce(options["file"], system=options["system"], name=options["name"])
def _spans(options):
    from .spans import import_spans

    return import_spans(options["documents"], options["questions"], options["chunks"],
                        runs=options["runs"], system=options["system"],
                        layout=options["chunks_format"], doc_field=options["doc_field"],
                        reviewer=options["reviewer"], date=options["date"],
                        origin=options["origin"], min_overlap=options["min_overlap"],
                        allow_overlap=options["allow_overlap"],
                        stable=options["stable_ids"], name=options["name"],
                        max_bytes=MAX_BYTES)


def _today():
    import datetime

    return datetime.date.today().isoformat()


#: The options every command that reads a chunking takes (import spans, rechunk).
CHUNKING_OPTIONS = (
    Option(("--chunks-format",), {
        "choices": ("auto", "ragscore", "llamaindex", "langchain"), "default": "auto",
        "help": "how CHUNKS is laid out: ragscore (id, doc, start, end), a LlamaIndex node "
                "dump (start_char_idx, end_char_idx; JSON Lines, a JSON array or a "
                "docstore.json) or LangChain documents (metadata.start_index); default: "
                "told from the first chunk"}),
    Option(("--doc-field",), {
        "default": "source", "metavar": "KEY",
        "help": "LangChain: the metadata key naming a chunk's document (default source)"}),
    Option(("--min-overlap",), {
        "type": at_least_1("--min-overlap"), "default": 1, "metavar": "N",
        "help": "characters of a relevant span a chunk must hold to take its grade (default "
                "1: any shared character; a shorter span must be held whole)"}),
    Option(("--allow-overlap",), {
        "action": "store_true",
        "help": "accept chunks that share characters (a chunker with a window overlap); "
                "refused by default"}),
    Option(("--stable-ids",), {
        "action": "store_true",
        "help": "name each LlamaIndex or LangChain chunk by its place, DOC@START-END, not by "
                "the ID its pipeline drew (LlamaIndex's are random, so no run would survive "
                "a rechunk); runs naming the pipeline's IDs are renamed with them"}))


def _field_option(field, meaning):
    from .log import FIELDS

    return Option((f"--{field}-field",), {
        "default": None, "metavar": "NAME",
        "help": f"the field holding {meaning} (default {FIELDS[field]!r})"})


IMPORTERS = {importer.name: importer for importer in (
    Importer(
        name="trec", summary="qrels plus TREC run files",
        description="Qrels 'qid iter docno rel'; runs 'qid Q0 docno rank score tag', the tag "
                    "naming the system, read and ordered as trec_eval reads and orders them "
                    "(scores as C floats, ties by docno descending; see docs/import.md).",
        options=(Option(("--qrels",), {"required": True, "help": "the qrels file"}, reads=True),
                 RUNS, MISSING_RUN, MIN_RELEVANCE,
                 Option(("--max-depth",), {"type": depth, "default": None, "metavar": "N",
                                           "help": "keep each ranking's best N documents "
                                                   "(trec_eval -M N)"}),
                 Option(("--order",), {"choices": ("score", "rank"), "default": "score",
                                       "help": "order each ranking by score, as trec_eval "
                                               "(the default), or by the rank column; the "
                                               "dataset's notes say which"}),
                 ENGINE),
        read=_trec),
    Importer(
        name="beir", summary="a BEIR folder plus TREC run files",
        description="corpus.jsonl, queries.jsonl and qrels/SPLIT.tsv, with TREC run files.",
        options=(Option(("--folder",), {"required": True, "help": "the BEIR dataset folder"},
                        reads=True),
                 Option(("--qrels-split",), {"default": "test", "metavar": "SPLIT",
                                             "help": "which qrels/SPLIT.tsv to read "
                                                     "(default test)"}),
                 RUNS, MISSING_RUN, MIN_RELEVANCE),
        read=_beir),
    Importer(
        name="ragas", summary="Ragas / Hugging Face evaluation files",
        description="JSON Lines or CSV with user_input, retrieved_context_ids, "
                    "reference_context_ids (or the text-only *_contexts) and response; one "
                    "--file and --system per system, same questions in each.",
        options=(Option(("--file",), {"action": "append", "required": True,
                                      "help": "a .jsonl or .csv file"}, reads=True),
                 Option(("--system",), {"action": "append", "required": True,
                                        "help": "the name of the system that --file records "
                                                "(in the order of --file)"})),
        read=_ragas),
    Importer(
        name="llamaindex", summary="a LlamaIndex question set or results file",
        description="An EmbeddingQAFinetuneDataset JSON (--file: queries, corpus, "
                    "relevant_docs) with TREC runs, or a RetrieverEvaluator results file "
                    "(--results: query, expected_ids, retrieved_ids) with --system naming "
                    "the system it records.",
        options=(Option(("--file",), {"default": None,
                                      "help": "an EmbeddingQAFinetuneDataset JSON file"},
                        reads=True),
                 Option(("--results",), {"default": None,
                                         "help": "a RetrieverEvaluator results JSON file"},
                        reads=True),
                 Option(("--system",), {"default": None,
                                        "help": "the name of the system that --results "
                                                "records"}),
                 RUNS, MISSING_RUN),
        read=_llamaindex),
    Importer(
        name="log", summary="your own log: JSON Lines or CSV, one answered question a line",
        description="One record per question a system answered: the question, its ranked "
                    "list, and optionally the delivered context, the answer text, reference "
                    "answers and relevant IDs. Flags name the fields when yours differ; the "
                    "ranking is the list's order. See docs/import.md.",
        options=(Option(("file",), {"help": "a .jsonl or .csv file"}, reads=True),
                 Option(("--system",), {"default": None,
                                        "help": "the system of records without a system "
                                                "field"}),
                 _field_option("question", "the question text"),
                 _field_option("id", "the question's ID (absent: a hash of the question)"),
                 _field_option("system", "the system's name"),
                 _field_option("retrieved", "the ranked list (IDs, or objects with id)"),
                 _field_option("context", "the context given to the answer stage"),
                 _field_option("answer", "the answer text"),
                 _field_option("reference", "reference answers (a string or a list)"),
                 _field_option("relevant", "the relevant IDs"),
                 _field_option("claims", "the claims with their citations"),
                 Option(("--lists-of",), {"choices": ("ids", "texts"), "default": "ids",
                                          "help": "whether list strings are IDs (the "
                                                  "default) or passage texts (each given "
                                                  "the ID ctx-HASH)"})),
        read=_log),
    Importer(
        name="openinference", summary="OpenInference / Arize Phoenix span exports",
        description="Spans as JSON Lines or a JSON array (Phoenix exports, OTLP JSON), "
                    "grouped by trace: the RETRIEVER span's retrieval.documents give the "
                    "ranking (index order), the root span the question and answer. One "
                    "system per file. See docs/import.md.",
        options=(Option(("file",), {"help": "a .jsonl or .json file of spans"}, reads=True),
                 Option(("--system",), {"required": True,
                                        "help": "the name of the system that was traced"})),
        read=_openinference),
    Importer(
        name="llamaindex-rag", summary="a LlamaIndex LabelledRagDataset and its responses",
        description="A LabelledRagDataset JSON (--dataset: query, reference_contexts, "
                    "reference_answer) and, per system, its responses (--predictions: a "
                    "RagPredictionDataset JSON, or Response dumps with source_nodes) in the "
                    "examples' order. Contexts are named by a hash of their text.",
        options=(Option(("--dataset",), {"required": True,
                                         "help": "a LabelledRagDataset JSON file"}, reads=True),
                 Option(("--predictions",), {"action": "append", "default": None,
                                             "help": "a system's responses; repeatable"},
                        reads=True),
                 Option(("--system",), {"action": "append", "default": None,
                                        "help": "the system of each --predictions, in order"})),
        read=_llamaindex_rag),
    Importer(
        name="nuggets", summary="nuggetizer nuggets and assignments, TREC RAG answers, qrels",
        description="Nuggets as castorini/nuggetizer writes them (query, qid, nuggets with "
                    "text and importance), its assignments (answer_text, run_id and each "
                    "nugget's support, partial_support or not_support) as judgements with "
                    "their provenance, TREC RAG 2024 or 2025 answers (run_id, topic_id or "
                    "metadata.narrative_id, references, answer sentences citing references "
                    "by index) as runs, and qrels. See docs/nuggets.md.",
        options=(Option(("--nuggets",), {"required": True,
                                         "help": "nuggets, one question a line (JSON Lines)"},
                        reads=True),
                 Option(("--assignments",), {"default": None,
                                             "help": "nugget assignments, one answer a line"},
                        reads=True),
                 Option(("--answers",), {"default": None,
                                         "help": "TREC RAG answers (ragnarok's layout), one a "
                                                 "line: the runs the assignments judge"},
                        reads=True),
                 Option(("--qrels",), {"default": None,
                                       "help": "TREC qrels grading the passages"}, reads=True),
                 Option(("--origin",), {"choices": ("llm-draft", "post-edited", "human"),
                                        "default": "llm-draft",
                                        "help": "who made the assignments: an LLM's drafts "
                                                "(the default: they do not score until a "
                                                "person reviews them, or report --drafts), "
                                                "a person editing them, or a person alone"}),
                 Option(("--reviewer",), {"default": None,
                                          "help": "who judged (default judge:nuggetizer for "
                                                  "llm-draft; required otherwise)"}),
                 Option(("--date",), {"default": None, "metavar": "YYYY-MM-DD",
                                      "type": date_option,
                                      "help": "when they were judged (default today)"}),
                 Option(("--failed-as",), {
                     "choices": ("not_assessed", "not_support"), "default": "not_assessed",
                     "help": "how to read an assignment or importance nuggetizer wrote as "
                             "\"failed\" (its LLM's reply could not be parsed): not "
                             "assessed (the default: that answer's nugget scores are n/a) "
                             "or as nuggetizer scores it (not_support; a failed importance "
                             "not vital)"})),
        read=_nuggets),
    Importer(
        name="alce", summary="an ALCE result file (princeton-nlp/ALCE run.py output)",
        description="One system's ALCE result JSON: each item's question, docs (the "
                    "passages it was given, in order) and output (the answer, citing "
                    "passages as [1], [2], ...). See docs/nuggets.md.",
        options=(Option(("file",), {"help": "a result/*.json file"}, reads=True),
                 Option(("--system",), {"required": True,
                                        "help": "the name of the system that answered"})),
        read=_alce),
    Importer(
        name="spans", summary="a span test set: documents, questions labelled with spans, "
                              "a chunking",
        description="Source documents, questions whose relevant passages and claim evidence "
                    "are spans of them (offsets in code points, end exclusive, checked "
                    "against a span's text when it gives one; or its text alone, placed "
                    "where it occurs once), one "
                    "chunking (ragscore, LlamaIndex or LangChain layout) and optionally runs "
                    "naming its chunks. The chunk labels are derived on every reading, so "
                    "the same test set judges any chunking (ragscore rechunk). See "
                    "docs/spans.md.",
        options=(Option(("--documents",), {"required": True, "metavar": "DOCS.jsonl",
                                           "help": "the source documents: id, text, "
                                                   "optionally version"}, reads=True),
                 Option(("--questions",), {"required": True, "metavar": "QUESTIONS.jsonl",
                                           "help": "the questions with their relevant and "
                                                   "evidence spans"}, reads=True),
                 Option(("--chunks",), {"required": True, "metavar": "CHUNKS",
                                        "help": "the chunking (see --chunks-format)"},
                        reads=True),
                 *CHUNKING_OPTIONS,
                 Option(("--runs",), {"default": None, "metavar": "RUNS.jsonl",
                                      "help": "runs naming the chunks, as import log reads "
                                              "them (with optional claims)"}, reads=True),
                 Option(("--system",), {"default": None,
                                        "help": "the system of run records without a system "
                                                "field"}),
                 Option(("--reviewer",), {"required": True, "metavar": "NAME",
                                          "help": "who labelled the spans (a span may name "
                                                  "its own reviewer)"}),
                 Option(("--date",), {"default": _today(), "metavar": "YYYY-MM-DD",
                                      "type": date_option,
                                      "help": "when they were labelled (default today)"}),
                 Option(("--origin",), {"choices": ("human", "llm-draft", "post-edited"),
                                        "default": "human",
                                        "help": "human (default), llm-draft (a machine's "
                                                "draft: kept, never scored) or post-edited"})),
        read=_spans),
)}
