"""From a run's answer text to the ``(claim, citations)`` pairs the counts read.

A run that records ``answer`` and no ``claims`` has its claims derived: the answer is split
(:func:`ragscore.core.claim_split.split_claims`), numeric markers resolved through the
delivered context when recorded, else the retrieved ranking, and each claim looked up in
the **judgements**: review records ``{"reviewer", "text", "decision", "states", "sources",
"date", "note"}`` a case carries (format version 4), keyed by the question and the claim's
normalised text (:func:`normalise`), so the same sentence in a later run, of any system,
reuses its judgement.

- ``"supported"`` with ``states`` naming an expected claim: the pair ``(states, citations)``;
  the strict citation rule then decides support, as for a recorded claim;
- ``"supported"`` stating no expected claim, or ``"unsupported"``: a claim that cannot be
  supported (an ID no expected claim has), so it lowers support and leaves coverage;
- on a question whose answer is **not labelled** (no ``support``, as an imported log), a
  ``"supported"`` judgement with ``states`` and ``sources`` labels it: its expected claims
  and their sources are pooled from such judgements (:func:`pooled_labels`), as TREC pools
  its judgements from the runs it assesses, and the strict rule applies to them;
- ``"not a claim"``: left out (a greeting, an abstention, a heading).

One claim without a judgement makes the whole answer **not assessed** (``None``): its
support and coverage are n/a, never 0 (see :func:`derive_run`). People's judgements are
used; a judge's (reviewer ``judge:NAME``) only count when :func:`judgements_of` is asked to.
"""
import unicodedata
from collections import namedtuple

from .claim_markers import find_markers
from .claim_split import split_claims

ANSWER_DECISIONS = ("supported", "unsupported", "not a claim")
JUDGE_PREFIX = "judge:"


class DerivedRun(namedtuple("DerivedRun", "claims pairs waiting source decisions")):
    """A run's derived claims (:class:`~ragscore.core.claim_split.Claim` list), the
    ``(claim ID, citations)`` ``pairs`` the counts read (``None`` while any claim awaits
    review), how many claims are ``waiting`` for a judgement, the ``source`` numeric
    markers index (``"delivered"`` or ``"retrieved"``) and each claim's decision (``None``:
    awaiting review)."""

    __slots__ = ()


def normalise(text):
    """The key a judgement is stored under: citation markers removed with the space before
    them, Unicode NFKC,
    case folded, whitespace runs made one space, and surrounding punctuation, symbols and
    spaces stripped.

    >>> normalise("  The release ships on MONDAY [1],  at 9.30. ")
    'the release ships on monday, at 9.30'
    >>> normalise("- Owners sign off [^2].") == normalise("owners sign off")
    True
    """
    pieces, position = [], 0
    for marker in find_markers(text):  # "Monday [1], at" -> "Monday, at"
        pieces.append(text[position:marker.start].rstrip())
        after = text[marker.end:marker.end + 1]
        pieces.append(" " if after.isalnum() else "")
        position = marker.end
    pieces.append(text[position:])
    folded = " ".join(unicodedata.normalize("NFKC", "".join(pieces)).casefold().split())
    start, end = 0, len(folded)
    while start < end and not folded[start].isalnum():
        start += 1
    while end > start and not folded[end - 1].isalnum():
        end -= 1
    return folded[start:end]


def is_judge(reviewer):
    """True for a judge's reviewer name (``judge:NAME``), False for a person's."""
    return reviewer.startswith(JUDGE_PREFIX)


def judgements_of(cases, *, judges=False):
    """``{(question, normalised text): judgement record}`` over every case's reviews; a
    later record replaces an earlier one for the same key. Judges' records are used only
    with ``judges=True``, and never over a person's.

    >>> cases = {"launch": {"question": "When?", "reviews": (
    ...     {"reviewer": "ana", "text": "ships monday", "decision": "supported"},)}}
    >>> list(judgements_of(cases))
    [('When?', 'ships monday')]
    """
    found, by_person = {}, set()
    for case in cases.values():
        question = case.get("question", "")
        for review in case.get("reviews") or ():
            if "text" not in review:
                continue
            key = (question, review["text"])
            if is_judge(review["reviewer"]):
                if judges and key not in by_person:
                    found[key] = review
            else:
                found[key] = review
                by_person.add(key)
    return found


def pooled_labels(question, judgements):
    """``{expected claim: sources}`` pooled from the ``"supported"`` judgements of
    ``question`` that name what they state and its sources, in judgement order (the
    labels of a question whose answer was not labelled beforehand); sources of one
    expected claim named twice are joined.

    >>> judged = {("When?", "ships monday"): {"decision": "supported", "states": "day",
    ...                                        "sources": ["launch"]},
    ...           ("When?", "it is late"): {"decision": "unsupported"}}
    >>> pooled_labels("When?", judged)
    {'day': ('launch',)}
    """
    pooled = {}
    for (asked, _), judgement in judgements.items():
        states, sources = judgement.get("states"), judgement.get("sources")
        if asked == question and judgement["decision"] == "supported" and states and sources:
            known = pooled.setdefault(states, ())
            pooled[states] = known + tuple(doc for doc in sources if doc not in known)
    return pooled


def _free_id(position, taken):
    name = f"claim-{position}"
    while name in taken:
        name = "x" + name
    return name


def derive_run(question, support, run, judgements, *, known=None, split="sentence",
               pattern=None):
    """The :class:`DerivedRun` of one run's answer under ``judgements``
    (:func:`judgements_of`); ``support`` is the case's ``{expected claim: sources}``.

    >>> judged = {("When?", "ships monday"): {"decision": "supported", "states": "monday"}}
    >>> derive_run("When?", {"monday": ("launch",)}, {"answer": "Ships Monday [1].",
    ...            "retrieved": ("launch",)}, judged).pairs
    (('monday', ('launch',)),)
    >>> derive_run("When?", {}, {"answer": "New. Ships Monday [1].", "retrieved": ()},
    ...            judged).waiting
    1
    """
    delivered = run.get("delivered")
    source = "retrieved" if delivered is None else "delivered"
    context = run.get("retrieved", ()) if delivered is None else delivered
    claims = split_claims(run["answer"], split=split, context=context, source=source,
                          known=known, pattern=pattern)
    if not judgements:  # nothing judged yet: no claim text to normalise
        return DerivedRun(claims=claims, pairs=None if claims else (), waiting=len(claims),
                          source=source, decisions=(None,) * len(claims))
    support = support or {}
    pairs, used, waiting, decisions = [], set(), 0, []
    for position, claim in enumerate(claims, 1):
        judgement = judgements.get((question, normalise(claim.text)))
        decisions.append(None if judgement is None else judgement["decision"])
        if judgement is None:
            waiting += 1
            continue
        decision = judgement["decision"]
        if decision == "not a claim":
            continue
        states = judgement.get("states")
        if decision == "supported" and states in support and states not in used:
            used.add(states)
            pairs.append((states, claim.citations))
        else:
            name = _free_id(position, set(support) | used)
            used.add(name)
            pairs.append((name, claim.citations))
    return DerivedRun(claims=claims, pairs=None if waiting else tuple(pairs), waiting=waiting,
                      source=source, decisions=tuple(decisions))
