"""The acceptance rules a record must meet, by name: what the record-by-record readers apply
(the specification) and what the columnar screens mirror.

A rule is applied once, by the record readers: a dataset folder's by
:mod:`ragscore.io.read` with :mod:`ragscore.core.validation`, TREC files' by the line
readers of :mod:`ragscore.importers.trec`; each names the file, the line and the field of
the first record that breaks it. The columnar wing (:mod:`ragscore.engine.columnar.screens`
and :mod:`ragscore.engine.columnar.trec`) only screens whole columns for a record that might
break a rule, each screen under the name of the rule it mirrors; any screen that fails sends
the input to the record reader, which says what is wrong. A screen may be stricter than its
rule (it then only costs a second reading), never more lenient.
``tests/engine/columnar/test_screens.py`` breaks each rule below and checks that the record
reader refuses the input and that the screen of that name is the one that sends it there.
"""

__all__ = ["FOLDER_RULES", "RECORD_RULES", "TREC_RULES"]

#: The rules of a dataset folder's records (format versions 1 and 2 as the bulk reader reads
#: them; the keys of version 3 and later are read record by record only).
FOLDER_RULES = {
    "record.shape": "a line is one JSON object holding only the keys its file and version "
                    "allow, each once and with a value of the type the format names",
    "corpus.not_empty": "a corpus holds at least one document",
    "corpus.id": "a document's id is an ID under the folder's rules",
    "corpus.unique": "each document id once",
    "corpus.text": "a document's text is not blank (and under the course rules, present)",
    "corpus.source": "a document's source is an ID or a name",
    "corpus.version": "a document's version is not blank",
    "cases.not_empty": "the cases file holds at least one case",
    "case.id": "a case's id is a name (the course rules) or an ID (the open rules)",
    "case.unique": "each case id once",
    "case.relevant": "relevant is a list of IDs or, under the open rules, a map of ID to "
                     "grade",
    "case.grade": "a grade is an integer of 64 bits",
    "case.support": "support maps claim IDs to sources; required under the course rules",
    "case.consistent": "relevant names an ID judged relevant exactly when support names a "
                       "claim",
    "support.judged": "a claim's sources are among the IDs the case judges relevant",
    "support.sources": "a claim has at least one source",
    "run.case": "a run's case is in the cases file",
    "run.system": "a run's system is a name (the course rules) or an ID (the open rules)",
    "run.unique": "one run per case and system",
    "run.claims": "a run records its claims under the course rules",
    "claims.id": "a claim is a claim ID under the folder's rules",
    "claims.unique": "a run names each claim once",
    "claims.limit": "an answer or a case holds at most the rules' number of claims",
    "ids.valid": "each member of an ID list (judged, sources, retrieved, citations) is an ID",
    "ids.unique": "an ID list holds each ID once",
    "ids.limit": "an ID list holds at most the rules' number of IDs",
    "ids.in_corpus": "judged IDs, sources and retrieved IDs are documents of the corpus",
}

#: The rules of TREC qrels and run lines (:mod:`ragscore.importers.trec`).
TREC_RULES = {
    "trec.id": "a qid, docno or tag is an ID under the open rules",
    "trec.grade": "a qrels grade is a whole number of 64 bits",
    "trec.judged_once": "a question judges each document once",
    "trec.judged_limit": "a question judges at most the open rules' number of documents",
    "trec.score": "a score is a number C's strtod reads whole, and not nan",
    "trec.tag_once": "each system's run is in one file",
    "trec.ranked_once": "a system ranks each document once for a question",
    "trec.ranking_limit": "a ranking holds at most the open rules' number of documents",
    "trec.known_corpus": "with a known corpus, every docno of a judged question is in it",
}

#: Every rule by name: the names the screens take.
RECORD_RULES = {**FOLDER_RULES, **TREC_RULES}
