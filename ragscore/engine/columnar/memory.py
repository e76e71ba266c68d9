"""In-memory runs read in columns: ``runs[case][system]`` dicts made a
:class:`~ragscore.engine.columnar.batch.Batch` in one pass, every rule screened on whole
columns.

The record path (:func:`~ragscore.engine.columnar.batch.encode_runs`) checks each case and
run in Python, one at a time. Here every list is gathered once (``map`` and
``itertools.chain``, no Python loop per item), every ID list converted to Arrow in one call
and looked up in the corpus at once (``pyarrow.compute.index_in``), and each rule a case or
a run must meet screened over the whole column, under the name of
the record rule it mirrors (:data:`~ragscore.core.record_rules.FOLDER_RULES`) and with the
rule objects the record path uses (:mod:`ragscore.core.rules`: the ID pattern, the claim
pattern, the list limits). Types are checked before any value is hashed.

Where a screen fails, or the input holds what only the record path reads (repeated trials,
delivered contexts, answer text, operations, reviews, conflicts, access groups, reference
answers, a reviewer's answerability, options other than the defaults),
:class:`~.screens.Unclean` is raised: the caller then reads record by record, which names
the case, the system and the field. A screen may be stricter than its rule, never more lenient.
"""
from itertools import chain, compress, repeat
from operator import is_, is_not, itemgetter

import numpy as np

from ...core.scoring import case_attributes
from .arrow import flags, numbers
from .batch import CITATION_COLUMNS, Batch, has_repeats, member, sorted_set
from .layout import passed_defaults
from .screens import Unclean, screen

__all__ = ["encode_memory"]

_STR, _TUPLE, _DICT, _INT = (frozenset({kind}) for kind in (str, tuple, dict, int))
#: What a record holds where it has no value for a key.
_MISSING = object()
#: The case keys this reader takes (labels, and what counting does not read); a case with
#: any other key (reviews, answerability, spans, nuggets, a key added later) is read by the
#: record path, so no label is ever left unread here.
_CASE_KEYS = frozenset({"relevant", "support", "question", "tags", "split"})
#: The run keys this reader takes; any other (trials, delivered context, answer text,
#: operations, sentences) sends the runs to the record path.
_RUN_KEYS = frozenset({"retrieved", "claims"})


def _only(types, values):
    """True when the type of every one of ``values`` is exactly one of ``types``."""
    return types.issuperset(map(type, values))


def _lengths(lists):
    return np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))


def _within(lengths, limit):
    return not len(lengths) or int(lengths.max()) <= limit


def _coded(code, values):
    """Each of ``values`` (exact ``str``) as its code in ``code``, -1 where it has none."""
    return np.fromiter(map(code.get, values, repeat(-1)), dtype=np.int64, count=len(values))


def _arrow(values, count):
    """The ``count`` IDs ``values`` (an iterable of ``str``, their types checked already) as
    a pyarrow string array, made in one pass: each followed by a line end, all encoded as
    UTF-8 at once, cut at the line ends (an ID that cannot be UTF-8, such as a lone
    surrogate, or one holding a line end, which no ID rule allows, is left to the record
    path)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        data = ("\n".join(values) + "\n").encode("utf-8") if count else b""
    except UnicodeEncodeError:
        raise Unclean("ids.valid") from None
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
    screen(len(ends) == count and len(data) < (1 << 31), "ids.valid")
    offsets = np.zeros(count + 1, dtype=np.int32)
    offsets[1:] = ends + 1
    lines = pa.Array.from_buffers(pa.string(), count, [None, pa.py_buffer(offsets),
                                                       pa.py_buffer(data)])
    return pc.utf8_slice_codeunits(lines, 0, -1)  # each without its line end


def _plain_options(*, min_relevance=1, unit="chunk", dedupe=False, sources=None, groups=None,
                   superseded=frozenset()):
    """True for the dataset options this reader takes: the defaults, any valid
    ``min_relevance`` and any ``sources`` map (which scoring by chunk does not read)."""
    return (type(min_relevance) is int and min_relevance >= 1 and type(unit) is str
            and unit == "chunk" and dedupe is False
            and (sources is None or type(sources) is dict)
            and (groups is None or type(groups) is dict and not groups)
            and type(superseded) in (frozenset, set) and not superseded)


def _id_lists(lists, rules):
    """The length of each of ``lists``, ID lists that must be tuples of at most
    ``rules.max_ids`` IDs (each a ``str``: checked before any is hashed)."""
    screen(_only(_TUPLE, lists), "record.shape")
    screen(_only(_STR, chain.from_iterable(lists)), "ids.valid")
    lengths = _lengths(lists)
    screen(_within(lengths, rules.max_ids), "ids.limit")
    return lengths


def _coded_lists(corpus_ids, rules, *listed):
    """The codes of the members of each of ``listed`` (``(lists, lengths, outside)``: ID
    lists checked by :func:`_id_lists`, and the rule a member outside the corpus breaks),
    converted and looked up in ``corpus_ids`` at once; each list's members unique.
    ``outside`` ``None``: such members are valid IDs all the same (citations), coded after
    the corpus in order of first appearance. Returns the codes of each and those other IDs."""
    import pyarrow.compute as pc

    bounds = np.cumsum([0] + [int(lengths.sum()) for _, lengths, _ in listed]).tolist()
    members = _arrow(chain.from_iterable(chain.from_iterable(lists) for lists, _, _ in listed),
                     bounds[-1])
    found = pc.index_in(members, value_set=corpus_ids)
    extra = []
    if found.null_count:
        missing = pc.is_null(found)
        outside = flags(missing)
        for (_, _, rule), start, end in zip(listed, bounds, bounds[1:]):
            if rule is not None:
                screen(not outside[start:end].any(), rule)
        unknown = members.filter(missing)
        extra_ids = pc.unique(unknown)
        extra = extra_ids.to_pylist()
        screen(all(map(rules.fullmatch, extra)), "ids.valid")
        codes = np.array(numbers(found.fill_null(0)))
        codes[outside] = numbers(pc.index_in(unknown, value_set=extra_ids)) + len(corpus_ids)
    else:
        codes = numbers(found)
    coded = [codes[start:end] for start, end in zip(bounds, bounds[1:])]
    for (_, lengths, _), part in zip(listed, coded):
        screen(not has_repeats(part, lengths), "ids.unique")
    return coded, extra


def _claim_names(names, rules):
    """Claim IDs: each a ``str`` (checked first), each distinct one matching the rules' claim
    pattern (a test set names the same few claims in question after question)."""
    screen(_only(_STR, names) and all(map(rules.claim_match, set(names))), "claims.id")


def _got(records, key):
    """Each record's value of ``key``, :data:`_MISSING` where it has none."""
    return list(map(dict.get, records, repeat(key), repeat(_MISSING)))


def _flags(values, sentinel=_MISSING):
    """Where ``values`` holds something other than ``sentinel`` (compared by identity)."""
    return np.fromiter(map(is_not, values, repeat(sentinel)), dtype=bool, count=len(values))


class _Labels:
    """The labels of the cases (one per case with runs) as columns, as the record path
    reads them (:func:`ragscore.core.validation.validate_labels`)."""

    def __init__(self, labels, rules):
        relevant = _got(labels, "relevant")
        screen(_only(_TUPLE | _DICT if rules.open_labels else _TUPLE, relevant),
               "case.relevant")
        self.graded = np.fromiter(map(is_, map(type, relevant), repeat(dict)), dtype=bool,
                                  count=len(relevant))
        self.grades = None
        if self.graded.any():  # a map of ID to grade: its IDs in order, then its grades
            grades = list(chain.from_iterable(
                map(dict.values, (listed for listed in relevant if type(listed) is dict))))
            relevant = [tuple(listed) if type(listed) is dict else listed
                        for listed in relevant]
            screen(_only(_INT, grades), "case.grade")
            try:
                self.grades = np.array(grades, dtype=np.int64)
            except OverflowError:  # beyond 64 bits
                raise Unclean("case.grade") from None
        self.judged_lists, self.lengths = relevant, _id_lists(relevant, rules)
        support = _got(labels, "support")
        self.labelled = _flags(support)
        if not rules.open_labels:
            screen(self.labelled.all(), "case.support")
        support = list(compress(support, self.labelled))
        screen(_only(_DICT, support), "case.support")
        given = _lengths(support)
        screen(_within(given, rules.max_claims), "claims.limit")
        self.n_expected = np.zeros(len(labels), dtype=np.int64)
        self.n_expected[self.labelled] = given
        self.names = list(chain.from_iterable(support))
        _claim_names(self.names, rules)
        self.label_case = np.repeat(np.flatnonzero(self.labelled), given)
        sources = list(chain.from_iterable(map(dict.values, support)))
        self.source_lists, self.source_lengths = sources, _id_lists(sources, rules)
        screen(not len(self.source_lengths) or int(self.source_lengths.min()) >= 1,
               "support.sources")

    def coded(self, docs, sources, width, min_relevance):
        """Check the sources against the judged IDs (``docs``: the codes of
        :attr:`judged_lists`, ``sources`` of :attr:`source_lists`) and lay out the pairs."""
        cases = len(self.lengths)
        case = np.repeat(np.arange(cases), self.lengths)
        relevant = judged = np.ones(len(docs), dtype=bool)
        if self.grades is not None:
            graded = np.repeat(self.graded, self.lengths)
            grade = np.zeros(len(docs), dtype=np.int64)
            grade[graded] = self.grades
            relevant = ~graded | (grade >= min_relevance)
            judged = ~graded | (grade > 0)
            self.positive = (case[graded & (grade > 0)], docs[graded & (grade > 0)],
                             grade[graded & (grade > 0)])
        else:
            nothing = np.zeros(0, dtype=np.int64)
            self.positive = (nothing, nothing, nothing)
        source_label = np.repeat(np.arange(len(self.names)), self.source_lengths)
        known = sorted_set(case[judged] * width + docs[judged])
        screen(bool((member(self.label_case[source_label] * width + sources, known)
                     >= 0).all()), "support.judged")
        judged_count = np.bincount(case[judged], minlength=cases)
        screen(bool(((judged_count > 0) == (self.n_expected > 0))[self.labelled].all()),
               "case.consistent")
        self.relevant = (case[relevant], docs[relevant])
        self.n_relevant = np.bincount(case[relevant], minlength=cases)
        self.judged = (case, docs)
        self.labelled_pairs = (source_label, sources)
        self.answerability = np.where(
            (self.n_relevant > 0) | (self.n_expected > 0), 1,
            np.where(self.labelled | self.graded & (self.lengths > 0), 0, -1))


def encode_memory(corpus, cases, runs, *, rules, **options):
    """The :class:`~ragscore.engine.columnar.batch.Batch` of ``runs[case][system]`` against
    ``cases`` and ``corpus``, as :func:`~ragscore.engine.columnar.batch.encode_runs` makes
    it (the same counts), every rule screened on whole columns; raises
    :class:`~.screens.Unclean` where the record path must read the input."""
    try:
        plain = _plain_options(**options)
    except TypeError:  # an option the record path refuses, in its own words
        raise Unclean() from None
    if not plain or type(cases) is not dict or type(runs) is not dict or not runs:
        raise Unclean()
    min_relevance = options.get("min_relevance", 1)
    screen(type(corpus) is dict and len(corpus) > 0, "corpus.not_empty")
    ids = list(corpus)
    screen(_only(_STR, ids) and all(map(rules.fullmatch, ids)), "corpus.id")
    texts = list(corpus.values())
    if rules.open_labels:  # documents may come without their text
        texts = list(compress(texts, _flags(texts, None)))
    screen(_only(_STR, texts) and all(map(str.strip, texts)), "corpus.text")
    corpus_ids = _arrow(ids, len(ids))

    names = list(runs)
    screen(_only(_STR, names) and all(map(cases.__contains__, names)), "run.case")
    labels = list(map(cases.__getitem__, names))
    screen(_only(_DICT, labels), "record.shape")
    if not all(map(_CASE_KEYS.issuperset, labels)):
        raise Unclean()
    case_labels = _Labels(labels, rules)

    systems = list(runs.values())
    screen(_only(_DICT, systems), "record.shape")
    system_counts = _lengths(systems)
    if not system_counts.all():  # a case with no run: the record path leaves it out
        raise Unclean()
    system_names = list(chain.from_iterable(systems))
    screen(_only(_STR, system_names), "run.system")
    records = list(chain.from_iterable(map(dict.values, systems)))
    if not _only(_DICT, records) or not all(map(_RUN_KEYS.issuperset, records)):
        raise Unclean()  # trials, or what only the record path reads
    retrieved = _got(records, "retrieved")
    claims = _got(records, "claims")
    assessed = _flags(claims)
    if not rules.open_labels:
        screen(assessed.all(), "run.claims")
    claims = list(compress(claims, assessed))
    retrieved_lengths = _id_lists(retrieved, rules)
    screen(_only(_TUPLE, claims), "record.shape")
    rows = len(records)
    claim_lengths = np.zeros(rows, dtype=np.int64)
    claim_lengths[assessed] = _lengths(claims)
    screen(_within(claim_lengths, rules.max_claims), "claims.limit")
    pairs = list(chain.from_iterable(claims))
    screen(_only(_TUPLE, pairs) and set(map(len, pairs)) <= {2}, "record.shape")
    claim_names = list(map(itemgetter(0), pairs))
    _claim_names(claim_names, rules)
    name_code = {name: n for n, name in enumerate(dict.fromkeys(chain(case_labels.names,
                                                                      claim_names)))}
    run_claim = _coded(name_code, claim_names)
    screen(not has_repeats(run_claim, claim_lengths), "claims.unique")
    citations = list(map(itemgetter(1), pairs))
    citation_lengths = _id_lists(citations, rules)
    (judged_doc, source_doc, retrieved_doc, citation_doc), extra = _coded_lists(
        corpus_ids, rules, (case_labels.judged_lists, case_labels.lengths, "ids.in_corpus"),
        (case_labels.source_lists, case_labels.source_lengths, "support.judged"),
        (retrieved, retrieved_lengths, "ids.in_corpus"), (citations, citation_lengths, None))
    width, case_count = len(ids) + len(extra), len(names)
    case_labels.coded(judged_doc, source_doc, width, min_relevance)

    row_case = np.repeat(np.arange(case_count), system_counts)
    claim_row = np.repeat(np.arange(rows), claim_lengths)
    name_width = max(len(name_code), 1)
    label_keys = case_labels.label_case * name_width + _coded(name_code, case_labels.names)
    order = np.argsort(label_keys, kind="stable")
    found = member(row_case[claim_row] * name_width + run_claim, label_keys[order])
    claim_label = np.where(found >= 0, order[np.maximum(found, 0)], -1) if len(order) \
        else np.full(len(run_claim), -1, dtype=np.int64)
    keys = list(zip(chain.from_iterable(map(repeat, names, system_counts.tolist())),
                    system_names))
    nothing = np.zeros(0, dtype=np.int64)
    judged_case, judged_doc = case_labels.judged if rules.open_labels else (nothing, nothing)
    positive_case, positive_doc, positive_grade = case_labels.positive
    labelled_label, labelled_doc = case_labels.labelled_pairs
    relevant_case, relevant_doc = case_labels.relevant
    return Batch(
        ids=ids + extra, cases=names, keys=keys, question=np.arange(rows), rules=rules,
        notes=(), attributes=case_attributes(cases), ops=None,
        features=frozenset({"answers"} if assessed.any() else ()),
        n_relevant=case_labels.n_relevant, labelled=case_labels.labelled,
        n_expected=case_labels.n_expected, graded=case_labels.graded,
        answerability=case_labels.answerability,
        complete=np.full(case_count, not rules.open_labels),
        n_judged=case_labels.lengths if rules.open_labels else np.zeros(case_count, np.int64),
        relevant_case=relevant_case, relevant_doc=relevant_doc,
        judged_case=judged_case, judged_doc=judged_doc,
        positive_case=positive_case, positive_doc=positive_doc, positive_grade=positive_grade,
        label_case=case_labels.label_case, labelled_label=labelled_label,
        labelled_doc=labelled_doc,
        restricted_case=nothing, restricted_doc=nothing, loser_case=nothing, loser_doc=nothing,
        superseded_doc=np.zeros(width, dtype=bool),
        row_case=row_case, assessed=assessed,
        retrieved_offsets=_offsets(retrieved_lengths), retrieved_doc=retrieved_doc,
        claim_offsets=_offsets(claim_lengths), claim_label=claim_label.astype(np.int64),
        claim_vouched=np.zeros(len(run_claim), dtype=bool),
        citation_offsets=_offsets(citation_lengths), citation_doc=citation_doc,
        recorded=np.zeros(rows, dtype=bool), delivered_offsets=np.zeros(rows + 1, np.int64),
        delivered_doc=nothing,
        # plain input lists no nuggets and grades no citation: a case's nuggets are its
        # expected claims, vital (as the folder reader in bulk, screens.py)
        nugget_case=case_labels.label_case, nugget_label=np.arange(len(case_labels.label_case)),
        nugget_vital=np.ones(len(case_labels.label_case), dtype=bool),
        claim_partial=np.full(len(run_claim), -1, dtype=np.int64),
        explicit=np.zeros(rows, dtype=bool), assigned_row=nothing, assigned_nugget=nothing,
        assigned_code=nothing, cited=np.zeros(rows, dtype=bool),
        **{name: np.zeros(rows, dtype=np.int64) for name in CITATION_COLUMNS.values()},
        **passed_defaults(rows))


def _offsets(lengths):
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets
