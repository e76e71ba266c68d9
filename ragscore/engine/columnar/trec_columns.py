"""TREC qrels and run files read straight into columns: codes, offsets and grades, no Python
object per line, per ID or per ranking.

:func:`read_trec_columns` reads a qrels file and run files laid out plainly (see
:mod:`~ragscore.engine.columnar.trec`) into :class:`TrecColumns`, the dataset
:func:`~ragscore.importers.trec.import_trec` would build, as arrays: every question, docno
and tag is dictionary-encoded in one pass over all the files (each ID hashed once), the ID
rule is checked on the dictionaries (the distinct values, :mod:`.idcheck`), rankings are put
in trec_eval's order comparing docnos only where scores tie, cut at ``max_depth``, and laid
out in the dataset's order (each judged question in qrels order, then each system in order
of first appearance). :func:`trec_batch` hands them to the kernels as a
:class:`~ragscore.engine.columnar.batch.Batch`, the batch
:func:`~ragscore.engine.columnar.memory.encode_memory` makes of the imported dataset.

Every rule is screened under its record rule's name (:data:`~ragscore.core.record_rules.TREC_RULES`)
with the line readers' own rule objects; anything a screen does not pass raises
:class:`~.screens.Unclean`, and the caller reads the files line by line, which names the
file, the line and the field.
"""
from collections import namedtuple

import numpy as np

from ...core.rules import OPEN
from ...io.input_bytes import read_in_full
from ..pages import ordinary_pages
from .arrow import fingerprints, flags, integers, numbers, present, raw_numbers
from .batch import CITATION_COLUMNS, Batch, has_repeats, regrouped, repeated_pairs, \
    repeating_lists, sorted_set
from .layout import passed_defaults
from .screens import screen
from .trec import QRELS_COLUMNS, plain_table, run_columns, screen_ids, starts_of, \
    take_strings, trec_order

__all__ = ["TrecColumns", "pooled_unjudged", "read_trec_columns", "trec_batch"]


class TrecColumns(namedtuple("TrecColumns", [
        "docnos", "cases", "judged_case", "judged_doc", "judged_grade", "systems",
        "row_case", "row_system", "offsets", "ranked", "unjudged", "missing"])):
    """TREC files as the dataset an import makes of them, in columns.

    ``docnos``: the corpus (a pyarrow string array), the qrels' docnos in order of first
    appearance, then each kept ranking's new docnos in order of first appearance (file by
    file); read without a corpus (``corpus=False``), the qrels' docnos and then every run
    line's (a chunked array: a docno nobody judged is coded by its line). ``cases``: the judged questions, in qrels order (a list of ``str``);
    ``(judged_case, judged_doc, judged_grade)``: each judgement, grouped by case in qrels
    order (a case's in line order), its docno a corpus position. ``systems``: the runs' tags
    in order of first appearance. Per run of the dataset (each case in order, then each
    system): ``row_case`` and ``row_system`` (positions in ``cases`` and ``systems``) and
    its ranking, ``ranked[offsets[r]:offsets[r + 1]]`` (corpus positions, best first).
    ``unjudged[system]``: the questions of its run without qrels (dropped);
    ``missing[system]``: the judged questions its run lacks (an empty ranking under
    ``missing_run="zero"``, no run under ``"skip"``).
    """

    __slots__ = ()


def _encoded_together(chunks):
    """``(codes of each chunk, dictionary)``: the pyarrow string arrays ``chunks`` encoded
    against one dictionary, in order of first appearance over them all (one hash per
    value)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(pa.chunked_array(chunks, type=pa.string()))
    pieces = encoded.chunks
    dictionary = pieces[-1].dictionary if pieces else pa.array([], pa.string())
    return [numbers(piece.indices) for piece in pieces], dictionary


def read_trec_columns(qrels, runs, *, is_grade, missing_run="zero", max_depth=None,
                      max_bytes, max_ids=OPEN.max_ids, corpus=True):
    """The :class:`TrecColumns` of the qrels file ``qrels`` and the run files ``runs``, or
    :class:`~.screens.Unclean` (naming the rule whose screen failed, ``None`` for a layout)
    where the line readers must read them. ``is_grade``: the qrels line reader's rule for a
    grade's text; the other options are :func:`~ragscore.importers.trec.import_trec`'s.

    ``corpus=False`` (scoring only: no folder to write) leaves the corpus out: only the
    qrels' docnos are hashed (each run line's docno is looked up among them, once), and a
    docno nobody judged is coded by its line (``docnos`` then holds the qrels' docnos and
    then every run line's); a docno ranked twice is found by comparing fingerprints within
    each ranking (:func:`~ragscore.engine.columnar.arrow.fingerprints`), then the docnos
    themselves."""
    with ordinary_pages():
        return _read(qrels, runs, is_grade=is_grade, missing_run=missing_run,
                     max_depth=max_depth, max_bytes=max_bytes, max_ids=max_ids,
                     corpus=corpus)


def _read(qrels, runs, *, is_grade, missing_run, max_depth, max_bytes, max_ids, corpus):
    table, _ = plain_table(qrels, max_bytes, QRELS_COLUMNS, ["qid", "docno", "rel"])
    read_in_full(qrels)
    files = []
    for path in runs:
        files.append(run_columns(path, max_bytes)[0])
        read_in_full(path)
    q_codes, q_values = _encoded_together(
        [table.column("qid").combine_chunks()] + [found[0] for found in files])
    t_codes, t_values = _encoded_together([found[3] for found in files])
    screen_ids(q_values)
    screen_ids(t_values)
    # a tag in one file only: the tags of the files, each file's distinct, add up
    screen(sum(len(sorted_set(codes)) for codes in t_codes) == len(t_values), "trec.tag_once")
    if corpus:
        d_codes, d_values = _encoded_together(
            [table.column("docno").combine_chunks()] + [found[1] for found in files])
        screen_ids(d_values)
        qrels_docs, run_docs, prints = d_codes[0], _joined(d_codes[1:]), None
    else:
        qrels_docs, d_values, run_docs, prints = _looked_up(
            table.column("docno").combine_chunks(), [found[1] for found in files])
    width = int(qrels_docs.max()) + 1
    judged = _judgements(q_codes[0], qrels_docs, table.column("rel").combine_chunks(), width,
                         is_grade=is_grade, max_ids=max_ids)
    del table
    scores = np.concatenate([found[2] for found in files]) if len(files) > 1 else files[0][2]
    del files
    return _runs(judged, q_values, d_values, t_values, _joined(q_codes[1:]), run_docs,
                 _joined(t_codes), scores, width, prints, missing_run=missing_run,
                 max_depth=max_depth, max_ids=max_ids, corpus=corpus)


def _looked_up(qrels_docnos, run_docnos):
    """``(qrels codes, docnos, run codes, fingerprints)`` without a corpus: the qrels'
    docnos dictionary-encoded, each run line's docno looked up among them (its code there,
    else the qrels' count plus its line: ``docnos`` is the qrels' dictionary then every run
    line's docno), each checked by the ID rule where it stands."""
    import pyarrow as pa
    import pyarrow.compute as pc

    (qrels_codes,), judged = _encoded_together([qrels_docnos])
    screen_ids(judged)
    codes, prints, line = [], [], len(judged)
    for docnos in run_docnos:
        screen_ids(docnos)
        found = pc.index_in(docnos, value_set=judged)
        own = np.arange(line, line + len(docnos), dtype=np.int64)
        codes.append(np.where(present(found), raw_numbers(found), own))
        prints.append(fingerprints(docnos))
        line += len(docnos)
    return (qrels_codes, pa.chunked_array([judged, *run_docnos], type=pa.string()),
            _joined(codes), _joined(prints))


def _joined(arrays):
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


def _judgements(q_codes, d_codes, rel, docnos, *, is_grade, max_ids):
    # docnos: the number of the qrels' docnos (their codes come first)
    """``(cases, case, doc, grade)`` of the qrels: the number of judged questions (codes
    ``0`` to ``cases - 1``, as the qrels' qids come first) and each judgement, grouped by
    case in qrels order."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(rel)
    texts = encoded.dictionary.to_pylist()  # the distinct grades: a few
    screen(all(map(is_grade, texts)), "trec.grade")
    grades = np.array([int(text) for text in texts], dtype=np.int64)[numbers(encoded.indices)]
    cases = int(q_codes.max()) + 1
    counts = np.bincount(q_codes, minlength=cases)
    screen(int(counts.max()) <= max_ids, "trec.judged_limit")
    order = np.argsort(q_codes, kind="stable")
    case, doc = q_codes[order], d_codes[order]
    screen(len(sorted_set(case * docnos + doc)) == len(case), "trec.judged_once")
    return cases, case, doc, grades[order]


def _runs(judged, q_values, d_values, t_values, qids, docs, tags, scores, qrels_docnos,
          prints, *, missing_run, max_depth, max_ids, corpus):
    """The :class:`TrecColumns` of the judgements ``judged`` and the run lines (``qids``,
    ``docs``, ``tags``: codes; ``scores``: float64; ``prints``: the docnos' fingerprints
    when docs code a docno per line), every run rule screened."""
    screen(not np.isnan(scores).any(), "trec.score")
    with np.errstate(over="ignore"):
        stored = scores.astype(np.float32)  # as trec_eval stores a score: a C float
    del scores
    cases, judged_case, judged_doc, judged_grade = judged
    width, systems, rows = len(q_values), len(t_values), len(qids)
    keys = tags * width + qids
    order = None  # the files' own order, until a sort is needed
    starts = starts_of(keys)
    if len(sorted_set(keys[starts])) != len(starts):  # a question's lines are apart
        order = np.argsort(keys, kind="stable")
        starts = starts_of(keys[order])
    order = trec_order(order, keys, stored, docs, d_values, starts)
    del stored
    full = np.diff(np.append(starts, rows))
    lengths = full if max_depth is None else np.minimum(full, max_depth)
    group_keys = keys[starts] if order is None else keys[order[starts]]
    del keys
    group_tag, group_qid = group_keys // width, group_keys % width
    kept = group_qid < cases  # judged questions: their qids come first in the dictionary
    screen(not (lengths[kept] > max_ids).any(), "trec.ranking_limit")
    if max_depth is None and order is None:
        positions = None  # every line kept, in the files' order
        ranked = docs
    else:
        within = np.arange(rows) - np.repeat(starts, full)  # each row's place in its ranking
        positions = (np.arange(rows) if order is None else order)[
            within < np.repeat(lengths, full)]
        del within
        ranked = docs[positions]
    taken = np.repeat(kept, lengths)
    every = bool(taken.all())
    kept_ranked = ranked if every else ranked[taken]
    if prints is None:
        screen(not has_repeats(kept_ranked, lengths[kept]), "trec.ranked_once")
    else:
        kept_prints = prints if positions is None else prints[positions]
        _no_repeats(kept_prints if every else kept_prints[taken], lengths[kept], kept_ranked,
                    d_values)
    del prints
    renumber, docnos = _corpus(docs, positions, taken, every, d_values, qrels_docnos) \
        if corpus else (None, d_values)
    kept_ranked = kept_ranked if renumber is None else renumber[kept_ranked]
    judged_doc = judged_doc if renumber is None else renumber[judged_doc]
    row_case, row_system, offsets, flat, missing = _laid_out(
        cases, systems, group_qid[kept], group_tag[kept], lengths[kept], kept_ranked,
        missing_run)
    unjudged = np.bincount(group_tag[~kept], minlength=systems).tolist()
    system_names = t_values.to_pylist()
    return TrecColumns(
        docnos=docnos, cases=q_values.slice(0, cases).to_pylist(), judged_case=judged_case,
        judged_doc=judged_doc, judged_grade=judged_grade, systems=system_names,
        row_case=row_case, row_system=row_system, offsets=offsets, ranked=flat,
        unjudged=dict(zip(system_names, unjudged)), missing=dict(zip(system_names, missing)))


def _no_repeats(prints, lengths, codes, docnos):
    """Screen the rankings (consecutive ``lengths`` of the fingerprints ``prints``, the
    docnos ``docnos`` coded by ``codes``) for a docno ranked twice: the rows whose
    fingerprint another row of their ranking shares are sorted by ranking and docno, and
    neighbours compared."""
    import pyarrow as pa
    import pyarrow.compute as pc

    twice = repeating_lists(prints, lengths)
    if not twice.any():
        return
    # only the rankings holding a fingerprint twice, laid out on their own
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    chosen = np.flatnonzero(twice)
    rows = np.repeat(starts[chosen] - np.concatenate([[0], np.cumsum(lengths[chosen])[:-1]]),
                     lengths[chosen]) + np.arange(int(lengths[chosen].sum()))
    first, second = repeated_pairs(prints[rows], lengths[chosen])
    places = rows[sorted_set(np.concatenate([first, second]))]
    ranking = np.repeat(np.arange(len(lengths)), lengths)[places]
    table = pa.Table.from_arrays([integers(ranking), take_strings(docnos, codes[places])],
                                 names=["ranking", "docno"])
    table = table.take(pc.sort_indices(table, sort_keys=[("ranking", "ascending"),
                                                         ("docno", "ascending")]))
    ranking, docno = numbers(table.column("ranking").combine_chunks()), \
        table.column("docno").combine_chunks()
    same = flags(pc.equal(docno.slice(1), docno.slice(0, len(docno) - 1)))
    screen(not (same & (ranking[1:] == ranking[:-1])).any(), "trec.ranked_once")


def _corpus(docs, positions, taken, every, d_values, qrels_docnos):
    """``(renumber, docnos)``: each dictionary code's corpus position (``None``: the same)
    and the corpus, the qrels' docnos then the kept rankings' new ones in order of first
    appearance (the line reader's order: file by file, line by line)."""
    if every and (positions is None or len(positions) == len(docs)):
        return None, d_values  # every line kept: the dictionary's order is the corpus's
    kept_rows = (np.arange(len(docs)) if positions is None else positions)[taken]
    first = np.full(len(d_values), len(docs))
    np.minimum.at(first, docs[kept_rows], kept_rows)
    first[:qrels_docnos] = -1  # the qrels' docnos come first, in their own order
    codes = np.flatnonzero(first < len(docs))
    codes = codes[np.argsort(first[codes], kind="stable")]
    renumber = np.full(len(d_values), -1, dtype=np.int64)
    renumber[codes] = np.arange(len(codes))
    return renumber, d_values.take(integers(codes))


def _laid_out(cases, systems, case, system, lengths, ranked, missing_run):
    """``(row_case, row_system, offsets, ranked, missing per system)``: the kept rankings
    (their ``case``, ``system`` and ``lengths``, flat in ``ranked``) laid out as the dataset's
    runs, case by case then system by system, a judged question a system lacks given an
    empty ranking (``missing_run="zero"``) or left out."""
    slot = case * systems + system
    group_of = np.full(cases * systems, -1, dtype=np.int64)
    group_of[slot] = np.arange(len(slot))
    present = group_of >= 0
    missing = (cases - np.bincount(system, minlength=systems)).tolist()
    rows = np.arange(cases * systems) if missing_run == "zero" else np.flatnonzero(present)
    flat, _ = regrouped(ranked, lengths, group_of[present])
    sizes = np.zeros(cases * systems, dtype=np.int64)
    sizes[slot] = lengths
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(sizes[rows], out=offsets[1:])
    return rows // systems, rows % systems, offsets, flat, missing


def pooled_unjudged(columns):
    """True when the qrels give a negative grade (trec_eval's pooled but unjudged, which
    Bpref and infAP read): such files are counted record by record, as
    :func:`~ragscore.engine.columnar.count_runs` counts such cases."""
    return bool(columns.judged_grade.size) and int(columns.judged_grade.min()) < 0


def trec_batch(columns, *, min_relevance=1):
    """The :class:`~ragscore.engine.columnar.batch.Batch` of :class:`TrecColumns`: what
    :func:`~ragscore.engine.columnar.memory.encode_memory` makes of the dataset
    :func:`~ragscore.importers.trec.import_trec` builds (graded labels, judged at any
    grade; relevant at ``min_relevance`` or more), only the cases with runs kept."""
    kept = sorted_set(columns.row_case)
    case_of = np.full(len(columns.cases), -1, dtype=np.int64)
    case_of[kept] = np.arange(len(kept))
    count = len(kept)
    mine = case_of[columns.judged_case] >= 0
    case, doc, grade = (case_of[columns.judged_case[mine]], columns.judged_doc[mine],
                        columns.judged_grade[mine])
    relevant, positive = grade >= min_relevance, grade > 0
    n_relevant = np.bincount(case[relevant], minlength=count)
    n_judged = np.bincount(case, minlength=count)
    rows = len(columns.row_case)
    names = [columns.cases[index] for index in kept.tolist()]
    row_case = case_of[columns.row_case]
    systems = columns.systems
    keys = list(zip(map(names.__getitem__, row_case.tolist()),
                    map(systems.__getitem__, columns.row_system.tolist())))
    nothing = np.zeros(0, dtype=np.int64)
    return Batch(
        ids=columns.docnos, cases=names, keys=keys, question=np.arange(rows), rules=OPEN,
        notes=(), attributes=None, ops=None, features=frozenset(),
        n_relevant=n_relevant, labelled=np.zeros(count, dtype=bool),
        n_expected=np.zeros(count, dtype=np.int64), graded=np.ones(count, dtype=bool),
        answerability=np.where(n_relevant > 0, 1, np.where(n_judged > 0, 0, -1)),
        complete=np.zeros(count, dtype=bool), n_judged=n_judged,
        relevant_case=case[relevant], relevant_doc=doc[relevant],
        judged_case=case, judged_doc=doc, positive_case=case[positive],
        positive_doc=doc[positive], positive_grade=grade[positive],
        label_case=nothing, labelled_label=nothing, labelled_doc=nothing,
        restricted_case=nothing, restricted_doc=nothing, loser_case=nothing,
        loser_doc=nothing, superseded_doc=np.zeros(len(columns.docnos), dtype=bool),
        row_case=row_case, assessed=np.zeros(rows, dtype=bool),
        retrieved_offsets=columns.offsets, retrieved_doc=columns.ranked,
        claim_offsets=np.zeros(rows + 1, dtype=np.int64), claim_label=nothing,
        claim_vouched=np.zeros(0, dtype=bool), citation_offsets=np.zeros(1, dtype=np.int64),
        citation_doc=nothing, recorded=np.zeros(rows, dtype=bool),
        delivered_offsets=np.zeros(rows + 1, dtype=np.int64), delivered_doc=nothing,
        nugget_case=nothing, nugget_label=nothing, nugget_vital=np.zeros(0, dtype=bool),
        claim_partial=nothing, explicit=np.zeros(rows, dtype=bool), assigned_row=nothing,
        assigned_nugget=nothing, assigned_code=nothing, cited=np.zeros(rows, dtype=bool),
        **{name: np.zeros(rows, dtype=np.int64) for name in CITATION_COLUMNS.values()},
        **passed_defaults(rows))
