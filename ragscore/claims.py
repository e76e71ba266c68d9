"""Answer metrics over pre-annotated claim IDs and their citations, under a strict policy.

A generated claim is *supported* only when it has at least one citation and every cited ID
is labelled as supporting that claim **and** is visible in the top-k retrieved context.
An existing, or even relevant, document is not enough; one good citation does not cancel a
bad extra one.
"""


def is_supported(claim, citations, support, visible):
    """True when ``citations`` is non-empty and a subset of the claim's labelled, visible sources.

    >>> is_supported("aurora", ("archive",), {"aurora": {"owners"}}, {"owners", "archive"})
    False
    """
    labelled = support.get(claim)
    if labelled is None:
        return False
    cited = set(citations)
    return bool(cited) and cited <= (labelled & visible)


def count_supported(claims, support, visible):
    """Number of ``(claim, citations)`` pairs in ``claims`` that are supported.

    Claim IDs are unique, so a repeated correct claim cannot inflate the count, and only
    expected claims (keys of ``support``) can be supported.
    """
    return sum(1 for claim, citations in claims
               if is_supported(claim, citations, support, visible))


def support_rate(supported, claims):
    """Support = supported generated claims / generated claims; ``None`` with no claims.

    >>> support_rate(1, (("monday", ("launch",)), ("bonus", ("launch",))))
    0.5
    """
    if not claims:
        return None
    return supported / len(claims)


def coverage_rate(supported, support):
    """Coverage = supported expected claims / expected claims; ``None`` when none are expected.

    >>> coverage_rate(1, {"switch": {"rollback"}, "smoke": {"checklist"}})
    0.5
    """
    if not support:
        return None
    return supported / len(support)


def abstention_correct(claims, support):
    """On an unanswerable case (no expected claims): True when the answer makes no claims.

    ``None`` on an answerable case, where abstaining shows up as zero coverage instead.

    >>> abstention_correct((), {})
    True
    """
    if support:
        return None
    return not claims


def explain_claim(claim, citations, support, visible, *, k):
    """Why one claim is or is not supported, as ``(supported, reason)``.

    >>> explain_claim("aurora", ("archive",), {"aurora": {"owners"}}, {"archive", "owners"}, k=2)
    (False, 'cites archive, which is not labelled for aurora')
    >>> explain_claim("smoke", ("checklist",), {"smoke": {"checklist"}}, {"rollback"}, k=1)
    (False, 'cites checklist, which is not in the top 1 retrieved')
    """
    labelled = support.get(claim)
    if labelled is None:
        return False, f"{claim} is not an expected claim for this question"
    if not citations:
        return False, "has no citation"
    for doc in citations:
        if doc not in labelled:
            return False, f"cites {doc}, which is not labelled for {claim}"
        if doc not in visible:
            return False, f"cites {doc}, which is not in the top {k} retrieved"
    return True, "every citation is labelled for it and visible: " + ", ".join(citations)
