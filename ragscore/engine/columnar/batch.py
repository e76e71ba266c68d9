"""A test set in columns: what the columnar engine counts (:mod:`ragscore.engine.columnar`).

IDs are encoded to integers (their position in :attr:`Batch.ids`); every list is a flat
array with offsets (the items of row ``r`` are ``values[offsets[r]:offsets[r + 1]]``). Rows
are the recorded runs, a question's repeated trials each a row of its own, in the order the
reference engine counts them; ``question`` maps a row to its (case, system) question.

:func:`encode` builds a batch from validated records, applying every rule through
:meth:`ragscore.core.scoring.Counter.prepare`, the very checks the reference engine applies:
so both engines refuse the same input with the same message.
"""
from collections import namedtuple

from ...core.counts import COUNT_FIELDS
from ...core.graded import pool_unjudged
from ...core.citations import CitationCounts
from ...core.nuggets import case_nuggets
from ...core.reference_answers import answer_match
from ...core.rules import COURSE
from ...core.scoring import OPS_KEYS, Counter, case_attributes, iter_prepared
from ...core.trials import trial_runs
from ...core.validation import validate_corpus
from .layout import PASSED, columns_of, enter

#: The counts a batch carries per row as they are (counted as it is built).
_PASSED_COUNTS = tuple(field for field in COUNT_FIELDS if field.batch)
#: The batch column of each field of :class:`~ragscore.core.citations.CitationCounts`, as
#: the count ``citations`` declares them.
CITATION_COLUMNS = dict(zip(CitationCounts._fields, columns_of("citations")))
#: A reviewer's nugget assignment as a code: 0 not_support, 1 partial_support, 2 support.
ASSIGNMENT_CODES = {"not_support": 0, "partial_support": 1, "support": 2}

__all__ = ["Batch", "encode", "encode_runs", "has_repeats", "member", "regrouped",
           "repeated_pairs", "repeating_lists", "sorted_set"]


class Batch(namedtuple("Batch", [
        "ids", "cases", "keys", "question", "rules", "notes", "attributes", "ops", "features",
        # per case
        "n_relevant", "labelled", "n_expected", "graded", "answerability", "complete",
        "n_judged", "relevant_case", "relevant_doc", "judged_case", "judged_doc",
        "positive_case", "positive_doc", "positive_grade",
        "label_case", "labelled_label", "labelled_doc",
        "restricted_case", "restricted_doc", "loser_case", "loser_doc", "superseded_doc",
        "nugget_case", "nugget_label", "nugget_vital",
        # per row
        "row_case", "assessed",
        "retrieved_offsets", "retrieved_doc",
        "claim_offsets", "claim_label", "claim_vouched", "claim_partial", "citation_offsets",
        "citation_doc", "recorded", "delivered_offsets", "delivered_doc",
        "explicit", "assigned_row", "assigned_nugget", "assigned_code",
        "cited", *CITATION_COLUMNS.values(),
        # per row, counted as the batch is built (core.counts.COUNT_FIELDS, batch=True)
        *PASSED])):
    """The columns of a test set's labels and runs (see the module docstring).

    Per case ``c``: ``n_relevant[c]``, ``labelled[c]`` (it carries answer labels),
    ``n_expected[c]``, ``graded[c]``, ``answerability[c]`` (1, 0 or -1 not labelled yet),
    ``complete[c]`` (every passage judged: course rules) else ``n_judged[c]`` and pairs
    ``(judged_case, judged_doc)`` (relevance judged at any grade); pairs
    ``(relevant_case, relevant_doc)`` (judged relevant), ``(loser_case, loser_doc)`` (the
    losing side of a conflict), ``(positive_case, positive_doc, positive_grade)`` (graded
    above 0; graded cases only), ``label_case[l]`` for each expected claim ``l`` and pairs
    ``(labelled_label, labelled_doc)`` (its sources, those on the losing side of a conflict
    left out), ``(restricted_case, restricted_doc)`` (chunks the case's caller may not see);
    ``superseded_doc[d]`` per ID (``ids``: a list or a pyarrow string array); each case's
    nuggets (:func:`ragscore.core.nuggets.case_nuggets`) as ``(nugget_case, nugget_label,
    nugget_vital)``, ``nugget_label`` the expected claim's label or -1 (a nugget without
    sources). Per row ``r``: ``row_case[r]``, ``question[r]`` (its position in ``keys``),
    ``assessed[r]``, the ranking, the claims (``claim_label``: the expected claim it names,
    or -1; ``claim_vouched``: a reviewer judged it supported by its citations;
    ``claim_partial``: the expected claim it states only in part, or -1; a claim whose
    citations miss every evidence span keeps its label here) and their citations, and
    the delivered context when ``recorded[r]``; ``explicit[r]``: its nuggets are not just
    its case's expected claims assigned by the strict rule (the case lists nuggets, or
    reviewers assigned some: triples ``(assigned_row, assigned_nugget, assigned_code)``,
    :data:`ASSIGNMENT_CODES`, or a claim states one in part); where ``cited[r]``, the
    :class:`~ragscore.core.citations.CitationCounts` of its graded citations
    (:data:`CITATION_COLUMNS`); then the counts counted as the batch is built, in the
    columns they declare (:data:`~ragscore.core.counts.COUNT_FIELDS` with ``batch``):
    ``dropped[r]``, ``collapsed[r]``, and where ``referenced[r]`` (answer text and a
    reference answer) the :class:`~ragscore.core.reference_answers.AnswerMatch` as
    ``exact``, ``common_tokens``, ``answer_tokens`` and ``reference_tokens``.
    """

    __slots__ = ()

    @property
    def rows(self):
        """The number of rows (runs; trials each a row)."""
        return len(self.row_case)


class _Codes(dict):
    """IDs to their codes, a new ID taking the next code."""

    def code(self, value):
        found = self.get(value)
        if found is None:
            found = self[value] = len(self)
        return found


class _Builder:
    """Collects rows of validated records and the labels of their cases."""

    def __init__(self, counter):
        self.counter = counter
        self.codes = _Codes()
        self.case_index = {}
        self.columns = {name: [] for name in Batch._fields if name not in (
            "ids", "cases", "keys", "question", "rules", "notes", "attributes", "ops",
            "features")}
        self.retrieved_offsets, self.claim_offsets = [0], [0]
        self.citation_offsets, self.delivered_offsets = [0], [0]
        self.keys, self.question, self.ops = [], [], {}
        self.found = set()

    def case(self, name, labels):
        """Enter a case's validated labels; return its index."""
        index = self.case_index.get(name)
        if index is not None:
            return index
        index = self.case_index[name] = len(self.case_index)
        code, columns = self.codes.code, self.columns
        columns["n_relevant"].append(len(labels.relevant))
        columns["labelled"].append(labels.support is not None)
        columns["n_expected"].append(len(labels.support or ()))
        columns["graded"].append(labels.grades is not None)
        columns["answerability"].append(
            labels.answerability if labels.answerability is not None
            else int(bool(labels.relevant or labels.support)))
        columns["complete"].append(labels.judged is None)
        self.grades = getattr(self, "grades", {})
        self.grades[index] = labels.grades
        columns["n_judged"].append(len(labels.judged or ()))
        self.references[index] = labels.reference
        for doc in labels.relevant:
            columns["relevant_case"].append(index)
            columns["relevant_doc"].append(code(doc))
        for doc in labels.judged or ():
            columns["judged_case"].append(index)
            columns["judged_doc"].append(code(doc))
        for doc in labels.losers:
            columns["loser_case"].append(index)
            columns["loser_doc"].append(code(doc))
        for doc, grade in (labels.grades or {}).items():
            if grade > 0:
                columns["positive_case"].append(index)
                columns["positive_doc"].append(code(doc))
                columns["positive_grade"].append(grade)
        labels_of = {}
        for claim, sources in (labels.support or {}).items():
            label = labels_of[claim] = len(columns["label_case"])
            columns["label_case"].append(index)
            for doc in sources - labels.losers if labels.losers else sources:
                columns["labelled_label"].append(label)
                columns["labelled_doc"].append(code(doc))
        self.claim_labels = getattr(self, "claim_labels", {})
        self.claim_labels[index] = labels_of
        if labels.nuggets is not None:  # listed: every row's nuggets are explicit
            self.listed[index] = labels.nuggets
            self.nuggets(index)
        if labels.losers or labels.callers:
            self.found.add("context")
        return index

    def nuggets(self, case):
        """``{nugget ID: its index}`` of a case, its nuggets entered the first time asked
        (a case whose rows all read their expected claims as vital nuggets never is)."""
        found = self.nuggets_of.get(case)
        if found is None:
            columns, labels_of, found = self.columns, self.claim_labels[case], {}
            for nugget in self.listed.get(case) or case_nuggets((), labels_of):
                found[nugget.id] = len(columns["nugget_case"])
                columns["nugget_case"].append(case)
                columns["nugget_label"].append(labels_of[nugget.id] if nugget.expected else -1)
                columns["nugget_vital"].append(nugget.vital)
            self.nuggets_of[case] = found
        return found

    def row(self, case, key, prepared, run):
        """Enter one validated run (one trial) of ``case`` (its index)."""
        code, columns = self.codes.code, self.columns
        if key not in self.question_of:
            self.question_of[key] = len(self.keys)
            self.keys.append(key)
        self.question.append(self.question_of[key])
        columns["row_case"].append(case)
        columns["retrieved_doc"].extend(map(code, prepared.retrieved))
        self.retrieved_offsets.append(len(columns["retrieved_doc"]))
        claims = prepared.claims
        columns["assessed"].append(claims is not None)
        labels_of = self.claim_labels[case]
        vouched, partial, uncovered = prepared.vouched, prepared.partial, prepared.uncovered
        for claim, citations in claims or ():
            label = labels_of.get(claim, -1)
            if partial and claim in partial:
                self.partial.append((len(columns["claim_label"]), label))
            columns["claim_label"].append(-1 if claim in uncovered else label)
            columns["claim_vouched"].append(claim in vouched)
            columns["citation_doc"].extend(map(code, citations))
            self.citation_offsets.append(len(columns["citation_doc"]))
        self.claim_offsets.append(len(columns["claim_label"]))
        delivered = prepared.delivered
        columns["recorded"].append(delivered is not None)
        columns["delivered_doc"].extend(map(code, delivered or ()))
        self.delivered_offsets.append(len(columns["delivered_doc"]))
        for doc in prepared.restricted or ():
            self.restricted.setdefault(case, set()).add(code(doc))
        references = self.references[case]
        characters = prepared.characters
        counted = {"dropped": prepared.dropped, "collapsed": prepared.collapsed,
                   "answer_match": None if prepared.answer is None or references is None
                   else answer_match(prepared.answer, references),
                   "span_characters": None if characters is None else characters[0],
                   "span_reads": None if characters is None else characters[1]}
        counted["pool_unjudged"], counted["n_pool_unjudged"] = pool_unjudged(
            self.grades[case], prepared.retrieved)
        row_number = len(columns["row_case"]) - 1
        for field in _PASSED_COUNTS:
            enter(columns, field, counted[field.name], row=row_number)
        assigned = prepared.assigned
        if assigned or partial or case in self.listed:
            self.explicit.append(row_number)
            found = self.nuggets(case)
            for nugget, decision in (assigned or {}).items():
                columns["assigned_row"].append(row_number)
                columns["assigned_nugget"].append(found[nugget])
                columns["assigned_code"].append(ASSIGNMENT_CODES[decision])
        if prepared.cited is not None:
            self.cited.append((row_number, prepared.cited))
        recorded = {name: run[name] for name in OPS_KEYS if name in run}
        if recorded:
            self.ops.setdefault(key, []).append(recorded)

    def batch(self, *, rules, notes, attributes, features):
        """The :class:`Batch` of everything entered (numpy arrays)."""
        import numpy as np

        columns = self.columns
        for case, docs in self.restricted.items():
            for doc in sorted(docs):
                columns["restricted_case"].append(case)
                columns["restricted_doc"].append(doc)
        ids = list(self.codes)
        superseded = self.counter.superseded
        columns["superseded_doc"] = [doc in superseded for doc in ids]
        kinds = {"labelled": bool, "graded": bool, "assessed": bool, "recorded": bool,
                 "superseded_doc": bool, "complete": bool, "claim_vouched": bool,
                 "nugget_vital": bool, **PASSED}
        arrays = {name: np.array(values, dtype=kinds.get(name, np.int64))
                  for name, values in columns.items() if name not in SPARSE}
        arrays.update(_sparse(self, np))
        offsets = {"retrieved_offsets": self.retrieved_offsets,
                   "claim_offsets": self.claim_offsets,
                   "citation_offsets": self.citation_offsets,
                   "delivered_offsets": self.delivered_offsets}
        arrays.update({name: np.array(values, dtype=np.int64) for name, values in offsets.items()})
        return Batch(ids=ids, cases=list(self.case_index), keys=self.keys,
                     question=np.array(self.question, dtype=np.int64), rules=rules,
                     notes=tuple(notes), attributes=attributes, ops=self.ops or None,
                     features=features, **arrays)


#: The columns a builder collects sparsely (few rows or claims hold anything) and lays out
#: whole when the batch is made.
SPARSE = ("explicit", "claim_partial", "cited", *CITATION_COLUMNS.values())


def _sparse(builder, np):
    """The :data:`SPARSE` columns of everything a builder entered, as arrays."""
    rows, claims = len(builder.columns["row_case"]), len(builder.columns["claim_label"])
    found = {"explicit": np.zeros(rows, dtype=bool),
             "claim_partial": np.full(claims, -1, dtype=np.int64),
             "cited": np.zeros(rows, dtype=bool)}
    found["explicit"][builder.explicit] = True
    for claim, label in builder.partial:
        found["claim_partial"][claim] = label
    cited = np.zeros((rows, len(CITATION_COLUMNS)), dtype=np.int64)
    for row, counts in builder.cited:
        found["cited"][row] = True
        cited[row] = counts
    found.update((name, cited[:, place].copy())
                 for place, name in enumerate(CITATION_COLUMNS.values()))
    return found


def _builder(counter):
    builder = _Builder(counter)
    builder.question_of, builder.restricted, builder.references = {}, {}, {}
    builder.nuggets_of, builder.listed = {}, {}
    builder.explicit, builder.partial, builder.cited = [], [], []
    return builder


def _features(builder, counter):
    found = set()
    columns = builder.columns
    if any(columns["assessed"]):
        found.add("answers")
    if any(columns["recorded"]):
        found.add("delivered")
    if any(columns["referenced"]):
        found.add("references")
    if builder.explicit:
        found.add("nuggets")
    if builder.cited:
        found.add("citations")
    if len(columns["row_case"]) != len(builder.keys):
        found.add("trials")
    if counter.groups:
        found.add("groups")
    if counter.superseded:
        found.add("superseded")
    return frozenset(found)


def encode_runs(corpus, cases, runs, *, rules=COURSE, progress=None, **options):
    """The :class:`Batch` of ``runs[case][system]`` against ``cases`` and ``corpus``, each
    validated exactly as the reference engine validates it
    (:func:`ragscore.core.scoring.iter_prepared`: the corpus once, each case once, each run;
    an error names the case and the system). ``options`` are those of
    :class:`~ragscore.core.scoring.Counter`."""
    builder = counter = None
    for case_name, system, run, counter, labels, prepared in iter_prepared(
            corpus, cases, runs, rules=rules, progress=progress, **options):
        if builder is None:
            builder = _builder(counter)
        index = builder.case(case_name, labels)
        for one, trial in zip(prepared if type(prepared) is list else [prepared],
                              trial_runs(run)):
            builder.row(index, (case_name, system), one, trial)
    if builder is None:  # no run at all: the counter still checked the corpus and options
        counter = Counter(validate_corpus(corpus, rules=rules), rules=rules, **options)
        builder = _builder(counter)
    return builder.batch(rules=rules, notes=(), attributes=case_attributes(cases),
                         features=_features(builder, counter))


def encode(path, *, unit="chunk", dedupe=False, max_bytes, progress=None):
    """The :class:`Batch` of the dataset folder at ``path``, read record by record with the
    reference reader (:func:`~ragscore.io.read.read_prepared`), every rule applied as it
    reads."""
    from ...io.read import read_prepared
    from ..parquet import CODEC

    index, counter, cases, labels, grouped = read_prepared(path, unit=unit, dedupe=dedupe,
                                                          max_bytes=max_bytes, codec=CODEC)
    builder = _builder(counter)
    for case_name, per_case in grouped.items():
        case = builder.case(case_name, labels[case_name])
        for system, trials in per_case.items():
            for _, prepared, run in trials:
                builder.row(case, (case_name, system), prepared, run)
    if progress is not None:
        progress(len(builder.keys), len(builder.keys))
    return builder.batch(rules=counter.rules, notes=index.get("notes", ()),
                         attributes=case_attributes(cases), features=_features(builder, counter))


def has_repeats(codes, lengths):
    """True when some list (consecutive ``lengths`` of ``codes``) holds a code twice.

    Lists of one length are laid out as the rows of a matrix and sorted row by row (numpy
    sorts short rows fast), then neighbours compared.

    >>> has_repeats([3, 1, 2, 2, 5, 7], [3, 3]), has_repeats([3, 1, 2, 5, 5, 7], [2, 4])
    (False, True)
    """
    return bool(repeating_lists(codes, lengths, first=True).any())


def repeating_lists(codes, lengths, *, first=False):
    """For each list (consecutive ``lengths`` of ``codes``): True when it holds a code twice
    (with ``first``, the search stops at the first length of list holding one).

    >>> repeating_lists([3, 1, 2, 2, 5, 7, 4, 4], [3, 3, 2]).tolist()
    [False, False, True]
    """
    import numpy as np

    lengths = np.asarray(lengths)
    codes = np.asarray(codes)
    found = np.zeros(len(lengths), dtype=bool)
    # int32 where the codes allow: half the bytes to move and sort
    narrow = np.int32 if len(codes) and codes.dtype.kind in "iu" and 0 <= codes.min() and \
        codes.max() < 2 ** 31 else None
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64) if len(lengths) \
        else lengths
    for length in sorted_set(lengths).tolist():
        if length < 2:
            continue
        rows = lengths == length
        if rows.all():  # every list this long: the flat codes are the matrix (a copy to sort)
            block = codes.astype(narrow or codes.dtype).reshape(len(lengths), length)
        else:
            block = codes[starts[rows][:, None] + np.arange(length)]
        block.sort(axis=1)
        twice = (block[:, 1:] == block[:, :-1]).any(axis=1)
        found[np.flatnonzero(rows)[twice]] = True
        if first and twice.any():
            break
    return found


def repeated_pairs(keys, lengths):
    """``(first, second)``: positions in ``keys`` of every two equal keys in one list
    (consecutive ``lengths`` of ``keys``), each after the other in the list's sorted order.

    >>> [part.tolist() for part in repeated_pairs([3, 1, 3, 5, 5, 5], [3, 3])]
    [[0, 3, 4], [2, 4, 5]]
    """
    import numpy as np

    keys, lengths = np.asarray(keys), np.asarray(lengths, dtype=np.int64)
    lists = np.repeat(np.arange(len(lengths)), lengths)
    order = np.lexsort((keys, lists))
    ordered = keys[order]
    equal = np.flatnonzero((ordered[1:] == ordered[:-1]) & (lists[order][1:] ==
                                                            lists[order][:-1]))
    return order[equal], order[equal + 1]


def regrouped(values, lengths, order):
    """``(values, lengths)`` of lists laid out flat (consecutive ``lengths`` of ``values``),
    the lists taken in ``order``."""
    import numpy as np

    lengths = np.asarray(lengths, dtype=np.int64)
    order = np.asarray(order, dtype=np.int64)
    if len(order) == len(lengths) and (order == np.arange(len(order))).all():
        return values, lengths
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    sizes = lengths[order]
    total = int(sizes.sum())
    new_starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    picked = np.repeat(starts[order] - new_starts, sizes) + np.arange(total)
    return np.asarray(values)[picked], sizes


def sorted_set(keys):
    """The distinct values of an integer array, sorted (a sort and a comparison of
    neighbours: here faster than ``numpy.unique``, which hashes)."""
    import numpy as np

    ordered = np.sort(np.asarray(keys))
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def member(keys, members):
    """For each of ``keys``: its position in the sorted, unique ``members``, or -1."""
    import numpy as np

    if not len(members) or not len(keys):
        return np.full(len(keys), -1, dtype=np.int64)
    found = np.searchsorted(members, keys)
    found[found == len(members)] = 0
    return np.where(members[found] == keys, found, -1)
