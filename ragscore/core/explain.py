"""The strict citation rule explained for one claim: supported or not at k, and why (the
first problem found), for the workbook's claim explorer."""
from .counts import claim_cutoff, ranks_of


def explain_claim(claim, citations, support, retrieved, *, k):
    """Why one claim is or is not supported at cutoff ``k``, as ``(supported, reason)``.

    ``supported`` comes from :func:`claim_cutoff`; the reason names the first problem.

    >>> explain_claim("aurora", ("archive",), {"aurora": {"owners"}}, ("archive", "owners"), k=2)
    (False, 'cites archive, which is not labelled for aurora')
    >>> explain_claim("smoke", ("checklist",), {"smoke": {"checklist"}}, ("rollback",), k=1)
    (False, 'cites checklist, which is not in the top 1 retrieved')
    """
    labelled = support.get(claim)
    if labelled is None:
        return False, f"{claim} is not an expected claim for this question"
    rank_of = ranks_of(labelled, retrieved)
    cutoff = claim_cutoff(citations, labelled, rank_of)
    if cutoff is not None and cutoff <= k:
        return True, "every citation is labelled for it and visible: " + ", ".join(citations)
    for doc in citations:
        if doc not in labelled:
            return False, f"cites {doc}, which is not labelled for {claim}"
        if rank_of.get(doc, k + 1) > k:
            return False, f"cites {doc}, which is not in the top {k} retrieved"
    return False, "has no citation"  # every citation passed, so there is none
