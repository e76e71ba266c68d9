"""The :class:`~ragscore.engine.columnar.batch.Batch` of a dataset folder's columns, once the
bulk reader's screens (:mod:`~ragscore.engine.columnar.screens`) have passed them."""
from .batch import CITATION_COLUMNS, Batch, regrouped, sorted_set
from .layout import passed_defaults

__all__ = ["folder_batch"]


def _offsets(lengths):
    import numpy as np

    return np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)


def folder_batch(ids, extra_ids, labels, row_case, system_codes, system_names, lengths,
           retrieved_doc, assessed, claim_lengths, claim_label, citation_lengths, citation_doc,
           rules, notes):
    """The :class:`Batch`, rows grouped by case in order of first appearance (as the
    record reader groups them); only the cases with runs kept, in that order."""
    import numpy as np
    import pyarrow as pa

    rows = len(row_case)
    first = np.full(len(labels.names), rows)
    np.minimum.at(first, row_case, np.arange(rows))
    order = np.argsort(first[row_case], kind="stable")
    case_order = np.argsort(first, kind="stable")[:len(sorted_set(row_case))]
    renumber = np.full(len(labels.names), -1)
    renumber[case_order] = np.arange(len(case_order))

    retrieved_doc, retrieved_sizes = regrouped(retrieved_doc, lengths, order)
    claim_label_new, claim_sizes = regrouped(claim_label, claim_lengths, order)
    claim_order = regrouped(np.arange(len(claim_label)), claim_lengths, order)[0]
    citation_doc_new, citation_sizes = regrouped(citation_doc, citation_lengths, claim_order)
    cases_of_rows = row_case[order]
    keys = [(labels.names[case], system_names[system]) for case, system in
            zip(cases_of_rows.tolist(), system_codes[order].tolist())]
    new_case = renumber[cases_of_rows]
    kept = case_order
    relevant_case, relevant_doc = labels.relevant
    keep_relevant = renumber[relevant_case] >= 0
    positive_case, positive_doc, positive_grade = labels.positive
    keep_positive = renumber[positive_case] >= 0
    judged_case, judged_doc = labels.judged
    keep_judged = renumber[judged_case] >= 0
    labelled_claim, labelled_doc = labels.labelled_pairs
    label_case = labels.claim_case
    label_kept = renumber[label_case] >= 0
    new_label = np.full(len(label_case), -1)
    new_label[label_kept] = np.arange(int(label_kept.sum()))
    keep_pairs = label_kept[labelled_claim]
    mapped_claim_label = np.full(len(claim_label_new), -1, dtype=np.int64)
    labelled = claim_label_new >= 0  # none when no case has a support label
    mapped_claim_label[labelled] = new_label[claim_label_new[labelled]]
    all_ids = pa.concat_arrays([ids, extra_ids]) if extra_ids is not None else ids
    empty = np.zeros(0, dtype=np.int64)
    return Batch(
        ids=all_ids, cases=[labels.names[case] for case in kept.tolist()], keys=keys,
        question=np.arange(rows), rules=rules, notes=notes, attributes=None, ops=None,
        features=frozenset({"answers"} if assessed.any() else ()),
        n_relevant=labels.n_relevant[kept], labelled=labels.labelled[kept],
        n_expected=labels.n_expected[kept], graded=labels.graded[kept],
        answerability=labels.answerability[kept],
        complete=np.full(len(kept), not rules.open_labels), n_judged=labels.n_judged[kept],
        relevant_case=renumber[relevant_case[keep_relevant]],
        relevant_doc=relevant_doc[keep_relevant],
        judged_case=renumber[judged_case[keep_judged]], judged_doc=judged_doc[keep_judged],
        positive_case=renumber[positive_case[keep_positive]],
        positive_doc=positive_doc[keep_positive], positive_grade=positive_grade[keep_positive],
        label_case=renumber[label_case[label_kept]],
        labelled_label=new_label[labelled_claim[keep_pairs]],
        labelled_doc=labelled_doc[keep_pairs],
        restricted_case=empty, restricted_doc=empty, loser_case=empty, loser_doc=empty,
        superseded_doc=np.zeros(len(all_ids), dtype=bool),
        row_case=new_case, assessed=assessed[order],
        retrieved_offsets=_offsets(retrieved_sizes), retrieved_doc=retrieved_doc,
        claim_offsets=_offsets(claim_sizes), claim_label=mapped_claim_label,
        claim_vouched=np.zeros(len(mapped_claim_label), dtype=bool),
        citation_offsets=_offsets(citation_sizes), citation_doc=citation_doc_new,
        recorded=np.zeros(rows, dtype=bool), delivered_offsets=np.zeros(rows + 1, dtype=np.int64),
        delivered_doc=empty,
        # a folder read in bulk lists no nuggets: a case's are its expected claims, vital
        nugget_case=renumber[label_case[label_kept]],
        nugget_label=np.arange(int(label_kept.sum())),
        nugget_vital=np.ones(int(label_kept.sum()), dtype=bool),
        claim_partial=np.full(len(mapped_claim_label), -1, dtype=np.int64),
        explicit=np.zeros(rows, dtype=bool), assigned_row=empty, assigned_nugget=empty,
        assigned_code=empty, cited=np.zeros(rows, dtype=bool),
        **{name: np.zeros(rows, dtype=np.int64) for name in CITATION_COLUMNS.values()},
        **passed_defaults(rows))
