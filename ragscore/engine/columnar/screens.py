"""The rules of a dataset folder screened on whole columns (the bulk reader's checks,
:mod:`ragscore.engine.columnar.reader`); the columns then make a
:class:`~ragscore.engine.columnar.batch.Batch` (:mod:`.folder_batch`).

Each screen is named after the record rule it mirrors
(:data:`~ragscore.core.record_rules.FOLDER_RULES`) and uses the rule objects the record
reader uses (:mod:`ragscore.core.rules`): the ID pattern, the list limits, the claim
pattern. Where a screen fails, :class:`Unclean` (naming the rule) sends the folder to the
record reader, which names the problem: the rules and their messages are written once.
"""
from .arrow import empty, fingerprints, flags, integers, numbers, present
from .folder_batch import folder_batch
from .idcheck import all_ids
from .batch import has_repeats, member as _member, sorted_set

__all__ = ["Unclean", "byte_counts", "check_cases", "check_corpus", "check_runs", "screen"]


class Unclean(Exception):
    """The input must be read record by record: the screen of the rule ``rule`` (a name of
    :data:`~ragscore.core.record_rules.RECORD_RULES`) found a record that may break it, or
    (``rule`` None) its layout is not one the columnar reader takes."""

    def __init__(self, rule=None):
        super().__init__(rule)
        self.rule = rule


def screen(condition, rule):
    """Raise :class:`Unclean` for ``rule`` (the name of the record rule this screen mirrors)
    unless ``condition`` holds."""
    if not condition:
        raise Unclean(rule)


def _strings(array):
    """A string column as one flat, non-null arrow array."""
    import pyarrow as pa

    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    return array


def _present(column):
    """A boolean numpy array: where a column holds a value."""
    return present(column)


_PIECE = 1 << 22
_COUNTED = b'":,'  # quotes, colons, commas


def byte_counts(data, counted=_COUNTED):
    """How many of each byte of ``counted`` (quotes, colons and commas unless told) ``data``
    (a buffer) holds, counted a piece at a time into one small scratch array (no temporary
    as large as the file).

    >>> byte_counts(b'{"a": [1, 2]}'), byte_counts(b"a:b,c", b",")
    ((2, 1, 1), (1,))
    """
    import numpy as np

    values = np.frombuffer(data, dtype=np.uint8)
    scratch = np.empty(min(len(values), _PIECE), dtype=bool)
    totals = [0] * len(counted)
    for start in range(0, len(values), _PIECE):
        piece = values[start:start + _PIECE]
        equal = scratch[:len(piece)]
        for place, byte in enumerate(counted):
            np.equal(piece, byte, out=equal)
            totals[place] += int(np.count_nonzero(equal))
    return tuple(totals)


def _in_strings(arrays):
    """How many quotes, colons and commas occur inside the values of string ``arrays``
    (counted in the bytes the values occupy)."""
    import numpy as np
    import pyarrow as pa

    totals = [0, 0, 0]
    for array in arrays:
        if not len(array):
            continue
        width = np.int64 if pa.types.is_large_string(array.type) else np.int32
        size = np.dtype(width).itemsize
        offsets = np.frombuffer(array.buffers()[1], dtype=width, count=len(array) + 1,
                                offset=size * array.offset)
        data = array.buffers()[2]
        if data is not None:
            found = byte_counts(memoryview(data)[offsets[0]:offsets[-1]])
            totals = [total + more for total, more in zip(totals, found)]
    return totals


def _counts_match(raw, strings, keys, commas, arrays):
    """The counts of the module docstring: quotes, colons and commas of ``raw`` (the file's
    bytes) against the ``strings``, ``keys`` and ``commas`` its values account for, plus
    those inside ``arrays`` (every string value and map key read from it)."""
    quotes, colons, separators = byte_counts(raw)
    inside = _in_strings(arrays)
    screen(quotes == 2 * strings + inside[0], "record.shape")
    screen(colons == keys + inside[1], "record.shape")
    screen(separators == commas + inside[2], "record.shape")


def _all_match(values, fullmatch):
    return all(type(value) is str and fullmatch(value) is not None for value in values)


def _valid_names(values, rules):
    """Case and system names (a pyarrow string array) as the record reader checks them: IDs
    under open rules (the rule checked on the whole column), else names."""
    from ...io.format import NAME_PATTERN

    if rules.open_labels:
        return all_ids(values, rules)
    return _all_match(values.to_pylist(), NAME_PATTERN.fullmatch)


def _non_blank(column):
    """True when every value of a string column holds something besides whitespace (as
    ``str.strip`` reads it)."""
    import pyarrow.compute as pc

    plain = flags(pc.match_substring_regex(column, "[0-9A-Za-z]"))
    rest = column.filter(~plain) if not plain.all() else None
    return rest is None or all(value.strip() for value in rest.to_pylist())


def check_corpus(table, raw, rules, version):
    """The corpus IDs (a pyarrow array), every record checked."""
    rows = table.num_rows
    screen(rows > 0, "corpus.not_empty")
    ids = _strings(table.column("id"))
    screen(ids.null_count == 0, "record.shape")
    has = {name: _present(table.column(name)) for name in ("text", "source", "version")}
    if version == 1:
        screen(not has["source"].any() and not has["version"].any(), "record.shape")
    if not rules.open_labels:
        screen(has["text"].all(), "corpus.text")
    keys = rows + sum(int(flags.sum()) for flags in has.values())
    screen(all_ids(ids, rules), "corpus.id")  # unique: screened as it is hashed (_in_corpus)
    texts = _strings(table.column("text")).drop_null()
    screen(_non_blank(texts), "corpus.text")
    sources = _strings(table.column("source")).drop_null()
    from ...io.format import NAME_PATTERN

    screen(all(rules.is_id(source) or NAME_PATTERN.fullmatch(source) is not None
               for source in set(sources.to_pylist())), "corpus.source")
    versions = _strings(table.column("version")).drop_null()
    screen(_non_blank(versions), "corpus.version")
    strings = keys + rows + len(texts) + len(sources) + len(versions)
    _counts_match(raw, strings, keys, keys - rows, [ids, texts, sources, versions])
    return ids


class _Labels:
    """The cases' labels as columns, checked."""


def check_cases(table, raw, rules, minimum, ids):
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = table.num_rows
    screen(rows > 0, "cases.not_empty")
    names = _strings(table.column("id"))
    screen(names.null_count == 0, "record.shape")
    screen(_valid_names(names, rules), "case.id")
    listed_names = names.to_pylist()
    screen(len(set(listed_names)) == rows, "case.unique")
    shape = _strings(table.column("shape"))
    screen(shape.null_count == 0, "case.relevant")
    shape_codes, shapes = _dictionary(shape)
    screen(set(shapes) <= {"ARRAY", "OBJECT"}, "case.relevant")
    graded = np.isin(shape_codes, [code for code, kind in enumerate(shapes) if kind == "OBJECT"])
    if graded.any():
        screen(rules.open_labels, "case.relevant")
    question = _present(table.column("question"))
    questions = _strings(table.column("question")).drop_null()
    support_column = table.column("support")
    labelled = _present(support_column)
    if not rules.open_labels:
        screen(labelled.all(), "case.support")

    listed = table.column("listed")
    graded_map = table.column("graded")
    lengths_listed = _lengths(listed)
    lengths_graded = _lengths(graded_map)
    listed_docs = listed.flatten() if len(listed) else empty(pa.string())
    screen(listed_docs.null_count == 0, "ids.valid")
    graded_docs = graded_map.keys if len(graded_map) else empty(pa.string())
    grades_raw = graded_map.items if len(graded_map) else empty(pa.string())
    screen(flags(pc.match_substring_regex(grades_raw, r"^-?(0|[1-9][0-9]*)$")).all(),
           "case.grade")
    try:
        grades = numbers(pc.cast(grades_raw, pa.int64()))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raise Unclean("case.grade") from None
    if len(grades) and int(grades.min()) < 0:  # pooled but unjudged: counted record by record
        raise Unclean()
    judged_lengths = np.where(graded, lengths_graded, lengths_listed)
    screen((judged_lengths <= rules.max_ids).all(), "ids.limit")

    # support: claim -> sources
    support_lengths = _lengths(support_column)
    claims = support_column.keys if len(support_column) else empty(pa.string())
    sources_lists = support_column.items if len(support_column) else empty(
        pa.list_(pa.string()))
    screen(sources_lists.null_count == 0, "record.shape")
    source_lengths = _lengths(sources_lists)
    screen((support_lengths <= rules.max_claims).all(), "claims.limit")
    screen((source_lengths >= 1).all(), "support.sources")
    screen((source_lengths <= rules.max_ids).all(), "ids.limit")
    sources = sources_lists.flatten() if len(sources_lists) else empty(pa.string())
    screen(sources.null_count == 0, "ids.valid")

    # the corpus hashed once, with every ID the labels name
    corpus_codes, graded_codes, source_codes = _in_corpus(ids, listed_docs, graded_docs,
                                                           sources)
    listed_case = np.repeat(np.arange(rows), lengths_listed)
    graded_case = np.repeat(np.arange(rows), lengths_graded)
    width = len(ids)
    screen(not has_repeats(corpus_codes, lengths_listed), "ids.unique")
    screen(not has_repeats(graded_codes, lengths_graded), "record.shape")
    claim_case = np.repeat(np.arange(rows), support_lengths)
    claim_codes, claim_names = _dictionary(claims)
    screen(_all_match(claim_names, rules.claim_match), "claims.id")
    screen(not has_repeats(claim_codes, support_lengths), "record.shape")
    source_claim = np.repeat(np.arange(len(claim_codes)), source_lengths)
    screen(not has_repeats(source_codes, source_lengths), "ids.unique")
    # the judged IDs a source must be among: the relevant ones (a list), or those graded
    # above 0 (a map)
    judged_keys = sorted_set(np.concatenate([
        listed_case * width + corpus_codes,
        (graded_case * width + graded_codes)[grades > 0]]))
    source_keys = claim_case[source_claim] * width + source_codes
    screen((_member(source_keys, judged_keys) >= 0).all(), "support.judged")
    judged_count = np.bincount(listed_case, minlength=rows) + np.bincount(
        graded_case[grades > 0], minlength=rows)
    screen(((judged_count > 0) == (support_lengths > 0))[labelled].all(), "case.consistent")

    # the quotes, colons and commas the values account for
    keys = (2 * rows + int(question.sum()) + int(labelled.sum()) + int(lengths_graded.sum())
            + int(support_lengths.sum()))
    strings = keys + rows + len(questions) + int(lengths_listed.sum()) + int(
        source_lengths.sum())
    commas = ((1 + question + labelled).sum() + np.maximum(judged_lengths - 1, 0).sum()
              + np.maximum(support_lengths - 1, 0).sum() + np.maximum(source_lengths - 1,
                                                                      0).sum())
    _counts_match(raw, strings, keys, int(commas), [names, questions, listed_docs, graded_docs,
                                                    claims, sources])
    relevant_here = np.concatenate([
        np.ones(len(listed_docs), dtype=bool), grades >= minimum])
    relevant_case = np.concatenate([listed_case, graded_case])[relevant_here]
    relevant_doc = np.concatenate([corpus_codes, graded_codes])[relevant_here]
    labels = _Labels()
    labels.names, labels.name_array = listed_names, names
    labels.n_relevant = np.bincount(relevant_case, minlength=rows)
    labels.labelled = labelled
    labels.n_expected = support_lengths
    labels.graded = graded
    labels.relevant = (relevant_case, relevant_doc)
    labels.judged = (np.concatenate([listed_case, graded_case]),
                     np.concatenate([corpus_codes, graded_codes]))
    labels.n_judged = judged_lengths
    labels.answerability = np.where((labels.n_relevant > 0) | (support_lengths > 0), 1,
                                    np.where(labelled | (lengths_graded > 0), 0, -1))
    positive = grades > 0
    labels.positive = (graded_case[positive], graded_codes[positive], grades[positive])
    labels.claim_case, labels.claim_names, labels.claims = claim_case, claim_names, claims
    labels.labelled_pairs = (source_claim, source_codes)
    return labels


def _lengths(lists):
    """The length of each list (or map) of an arrow list column (0 where null)."""
    import numpy as np

    if not len(lists):
        return np.zeros(0, dtype=np.int64)
    return np.diff(numbers(lists.offsets))


def _in_corpus(ids, *lists):
    """The corpus position of each member of each of ``lists`` (pyarrow string arrays): the
    corpus ``ids`` each once (their fingerprints, sorted, each once; two IDs sharing one
    compared as IDs), and every member one of them (the members hashed once, into a
    dictionary each corpus ID is looked up in: the corpus is read once, never hashed into
    a table of its own)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    _unique_ids(ids)
    members = [values for values in lists if len(values)]
    if not members:
        return [np.zeros(0, dtype=np.int64) for _ in lists]
    encoded = pc.dictionary_encode(pa.chunked_array(members, type=pa.string()))
    named = encoded.chunks[0].dictionary
    found = pc.index_in(ids, value_set=named)  # each corpus ID: the member it is, or null
    where = np.full(len(named), -1, dtype=np.int64)
    at = present(found)
    where[numbers(found.filter(_mask(at)))] = np.flatnonzero(at)
    screen(bool((where >= 0).all()), "ids.in_corpus")
    codes = iter([where[numbers(chunk.indices)] for chunk in encoded.chunks])
    return [next(codes) if len(values) else np.zeros(0, dtype=np.int64) for values in lists]


def _unique_ids(ids):
    """Screen the corpus ``ids`` for an ID listed twice: fingerprints sorted and
    neighbours compared, the IDs behind equal ones then compared themselves."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    prints = fingerprints(ids)
    ordered = np.sort(prints)
    if not (ordered[1:] == ordered[:-1]).any():
        return
    order = np.argsort(prints, kind="stable")
    ordered = prints[order]
    twins = np.flatnonzero(ordered[1:] == ordered[:-1])
    places = sorted_set(np.concatenate([order[twins], order[twins + 1]]))
    table = pa.Table.from_arrays([integers(prints[places]), ids.take(integers(places))],
                                 names=["print", "id"])
    table = table.take(pc.sort_indices(table, sort_keys=[("print", "ascending"),
                                                         ("id", "ascending")]))
    found = table.column("id").combine_chunks()
    screen(not flags(pc.equal(found.slice(1), found.slice(0, len(found) - 1))).any(),
           "corpus.unique")


def _codes(ids, values):
    """Each of ``values`` as its position in the corpus ``ids`` (every one must be there)."""
    import numpy as np
    import pyarrow.compute as pc

    if not len(values):
        return np.zeros(0, dtype=np.int64)
    found = pc.index_in(values, value_set=ids)
    screen(found.null_count == 0, "ids.in_corpus")
    return numbers(found)


def check_runs(table, raw, rules, ids, labels, notes):
    """The :class:`Batch` of the runs ``table`` (its JSON text ``raw``; ``None`` for a
    Parquet file, whose rankings are coded by corpus position), every rule screened."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = table.num_rows
    cases = _strings(table.column("case"))
    systems = _strings(table.column("system"))
    screen(cases.null_count == 0 and systems.null_count == 0, "record.shape")
    case_index = pc.index_in(cases, value_set=labels.name_array)
    screen(case_index.null_count == 0, "run.case")
    row_case = numbers(case_index)
    encoded_systems = pc.dictionary_encode(systems)
    system_codes = numbers(encoded_systems.indices)
    system_names = encoded_systems.dictionary.to_pylist()
    screen(_valid_names(encoded_systems.dictionary, rules), "run.system")
    pairs = row_case * max(len(system_names), 1) + system_codes
    screen(len(sorted_set(pairs)) == rows, "run.unique")
    retrieved = table.column("retrieved")
    screen(retrieved.null_count == 0, "record.shape")
    lengths = _lengths(retrieved)
    screen((lengths <= rules.max_ids).all(), "ids.limit")
    flat = retrieved.flatten() if len(retrieved) else empty(
        pa.string() if raw is not None else pa.int32())
    screen(flat.null_count == 0, "ids.valid")
    if raw is None:  # the rankings of a Parquet file, coded by corpus position already
        retrieved_doc = numbers(flat)
        screen(not len(retrieved_doc) or 0 <= retrieved_doc.min() and
               retrieved_doc.max() < len(ids), "ids.in_corpus")
    else:
        retrieved_doc = _codes(ids, flat)
    screen(not has_repeats(retrieved_doc, lengths), "ids.unique")

    claims = table.column("claims")
    assessed = _present(claims)
    if not rules.open_labels:
        screen(assessed.all(), "run.claims")
    claim_lengths = _lengths(claims)
    screen((claim_lengths <= rules.max_claims).all(), "claims.limit")
    structs = claims.flatten() if len(claims) else empty(
        pa.struct([("claim", pa.string()), ("citations", pa.list_(pa.string()))]))
    screen(structs.null_count == 0, "record.shape")
    claim_names = structs.field("claim")
    citations = structs.field("citations")
    screen(claim_names.null_count == 0 and citations.null_count == 0, "record.shape")
    run_claim_codes, run_claim_names = _dictionary(claim_names)
    run_claim_array = pc.dictionary_encode(claim_names).dictionary
    screen(_all_match(run_claim_names, rules.claim_match), "claims.id")
    screen(not has_repeats(run_claim_codes, claim_lengths), "claims.unique")
    claim_row = np.repeat(np.arange(rows), claim_lengths)
    citation_lengths = _lengths(citations)
    screen((citation_lengths <= rules.max_ids).all(), "ids.limit")
    cited = citations.flatten() if len(citations) else empty(pa.string())
    screen(cited.null_count == 0, "ids.valid")
    # no citation: nothing to look up (a lookup hashes the whole corpus first)
    cited_codes = pc.index_in(cited, value_set=ids) if len(cited) else empty(pa.int32())
    extra_ids = empty(pa.string())
    if cited_codes.null_count:  # citations outside the corpus: valid IDs, unsupported
        known = present(cited_codes)
        extra_ids = pc.unique(cited.filter(_mask(~known)))
        screen(_all_match(extra_ids.to_pylist(), rules.fullmatch), "ids.valid")
        citation_doc = np.zeros(len(cited), dtype=np.int64)
        citation_doc[known] = numbers(cited_codes.filter(_mask(known)))
        citation_doc[~known] = numbers(pc.index_in(cited.filter(_mask(~known)),
                                                   value_set=extra_ids)) + len(ids)
    else:
        citation_doc = numbers(cited_codes)
    screen(not has_repeats(citation_doc, citation_lengths), "ids.unique")
    extra_ids = extra_ids if len(extra_ids) else None

    claims_made = len(claim_names)
    keys = 3 * rows + int(assessed.sum()) + 2 * claims_made
    strings = keys + 2 * rows + int(lengths.sum()) + claims_made + int(citation_lengths.sum())
    commas = (rows * 2 + int(assessed.sum()) + np.maximum(lengths - 1, 0).sum()
              + np.maximum(claim_lengths - 1, 0).sum() + claims_made
              + np.maximum(citation_lengths - 1, 0).sum())
    if raw is not None:  # the JSON text accounts for every value read from it
        _counts_match(raw, strings, keys, int(commas),
                      [cases, systems, flat, claim_names, cited])

    # the expected claim each generated claim names: (case, claim name) -> label
    claim_label = np.full(claims_made, -1, dtype=np.int64)
    if claims_made and len(labels.claim_case):
        known = pc.index_in(labels.claims, value_set=run_claim_array)
        label_name = np.full(len(known), -1, dtype=np.int64)
        found_name = present(known)
        label_name[found_name] = numbers(known.filter(_mask(found_name)))
        width = len(run_claim_names)
        label_keys = labels.claim_case * width + label_name
        label_keys[label_name < 0] = -1
        order = np.argsort(label_keys, kind="stable")
        found = np.searchsorted(label_keys[order], row_case[claim_row] * width + run_claim_codes)
        found = np.minimum(found, len(order) - 1)
        hit = label_keys[order][found] == row_case[claim_row] * width + run_claim_codes
        claim_label[hit] = order[found[hit]]
    return folder_batch(ids, extra_ids, labels, row_case, system_codes, system_names,
                        lengths, retrieved_doc, assessed, claim_lengths, claim_label,
                        citation_lengths, citation_doc, rules, notes)


def _mask(values):
    """A numpy bool array as a pyarrow boolean array (for ``filter``)."""
    import numpy as np
    import pyarrow as pa

    packed = np.packbits(np.asarray(values, dtype=bool), bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(packed)])


def _dictionary(column):
    """``(codes, values)``: each value's position among the distinct values, in order of
    first appearance, and those values."""
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(column)
    return numbers(encoded.indices), encoded.dictionary.to_pylist()
