"""What a ranking is made of before it is counted: duplicates dropped, chunks projected onto
their documents.

Runs record what a retriever returned, often chunks of documents. Labels may be on chunks
(``unit="chunk"``, the default: score what was recorded) or on documents
(``unit="document"``: each chunk stands for its source document, so labels survive a
change of chunker). Both steps report how much they removed, per question and system.
"""


def dedupe_ranking(ranked):
    """``(ranking, dropped)``: ``ranked`` with each repeated ID after its first occurrence
    removed, and how many were removed. A value that is not a tuple of strings is returned
    unchanged (validation then says what is wrong with it).

    >>> dedupe_ranking(("a", "b", "a", "c", "b"))
    (('a', 'b', 'c'), 2)
    """
    if type(ranked) is not tuple:
        return ranked, 0
    try:
        "".join(ranked)  # strings only: nothing else is hashed
    except TypeError:
        return ranked, 0
    unique = tuple(dict.fromkeys(ranked))
    return unique, len(ranked) - len(unique)


def project_ranking(ranked, source_of):
    """``(documents, collapsed)``: each ID of a validated ranking replaced by its document
    (``source_of[chunk]``, or the ID itself when it names no source), keeping each
    document at the position of its first chunk; later chunks of the same document
    collapse into it and are counted. The documents are ranked 1, 2, 3... in that order.

    >>> project_ranking(("d1#1", "d2#1", "d1#2", "d3#1"),
    ...                 {"d1#1": "d1", "d1#2": "d1", "d2#1": "d2", "d3#1": "d3"})
    (('d1', 'd2', 'd3'), 1)
    """
    documents = tuple(dict.fromkeys(source_of.get(doc, doc) for doc in ranked))
    return documents, len(ranked) - len(documents)


def project_claims(claims, source_of):
    """Claims whose citations name documents instead of chunks (a repeated document once).

    >>> project_claims((("c", ("d1#1", "d1#2")),), {"d1#1": "d1", "d1#2": "d1"})
    (('c', ('d1',)),)
    """
    if claims is None:
        return None
    return tuple((claim, tuple(dict.fromkeys(source_of.get(doc, doc) for doc in citations)))
                 for claim, citations in claims)
