"""Graded citation support: TREC RAG's support measures and ALCE's, from reviewers' labels.

A reviewer grades each (claim, cited passage) pair of an answer ``full``, ``partial`` or
``none`` (a judgement of kind ``citation``, :mod:`ragscore.core.labels`), and may judge a
claim ``supported`` or ``unsupported`` by the whole set of passages it cites (kind
``support``). From those labels alone, never from the answer's wording,
:func:`citation_counts` counts what four measures read:

- **weighted citation precision** (TREC RAG 2024's support evaluation): over the answer's
  citations, ``full`` counts 1, ``partial`` 0.5, ``none`` 0;
- **citation recall** (TREC RAG): the share of the answer's sentences (claims, an uncited
  one included) with at least one fully supporting citation;
- **ALCE citation recall** (princeton-nlp/ALCE, ``eval.py``): the share of sentences whose
  citations, together, support them;
- **ALCE citation precision**: over the answer's citations, those of a supported sentence
  that are not redundant; a citation is redundant when it supports nothing alone (not
  ``full``) and the sentence's other citations still support it without it. A sentence with
  one citation counts it when supported; an unsupported sentence counts none.

Joint support is known from the labels where they say it: a ``full`` citation supports
alone; a ``support`` judgement of the claim with exactly those citations says it; no
citation, a single citation not ``full``, or citations all ``none`` do not support. Anything
else is not known: the ALCE measures are then n/a for the answer ("where the labels allow
it"). Standard library only.
"""
from collections import namedtuple

from .rules import fail

GRADES = ("full", "partial", "none")
#: What a ``support`` judgement says of a citation set (``None``: nothing judged).
JOINT = ("supported", "unsupported", None)
#: A grade's weight in weighted precision, in halves (full 1, partial 0.5, none 0).
HALVES = {"full": 2, "partial": 1, "none": 0}
#: Why a citation measure is n/a while a citation waits for its grade.
NOT_GRADED = "a citation is not graded yet"


class CitedClaim(namedtuple("CitedClaim", "grades joint without")):
    """The labels of one claim's citations: ``grades`` (one per citation, in order: a word of
    :data:`GRADES`, or ``None`` when nobody graded it), ``joint`` (the claim judged
    ``supported`` or ``unsupported`` by all its citations together, or ``None``) and
    ``without`` (per citation, the same judgement of the claim citing the others only, or
    ``None``)."""

    __slots__ = ()


class CitationCounts(namedtuple("CitationCounts", "sentences citations halves graded "
                                                  "full_sentences open_sentences "
                                                  "alce_supported alce_good joint_open "
                                                  "redundancy_open")):
    """What an answer's graded citations amount to (whole numbers): its ``sentences`` and
    ``citations``; the weights of its graded citations in ``halves``; how many citations
    are ``graded``; ``full_sentences`` with a fully supporting citation and
    ``open_sentences`` with none that still wait for a grade; ALCE's jointly supported
    sentences (``alce_supported``) and good citations (``alce_good``), the sentences whose
    joint support the labels leave unknown (``joint_open``) and the supported sentences
    whose citations' redundancy they leave unknown (``redundancy_open``)."""

    __slots__ = ()


def _joint(grades, judged):
    """True or False when the labels say whether citations with ``grades`` support a claim
    together (``judged``: a ``support`` judgement of exactly that set, or ``None``); ``None``
    when they do not say."""
    if not grades:
        return False
    if "full" in grades:
        return True
    if judged is not None:
        return judged == "supported"
    if len(grades) == 1 and grades[0] is not None or grades and all(
            grade == "none" for grade in grades):
        return False
    return None


def citation_counts(claims):
    """The :class:`CitationCounts` of an answer's claims, each a :class:`CitedClaim`.

    Two sentences: one citing a full and a partial passage, one citing one passage graded
    none. Weighted precision (1 + 0.5 + 0) / 3; recall 1 of 2 sentences; ALCE: the first
    sentence is supported by its full citation, and the partial one is redundant (not full
    alone, and the full one supports without it), so 1 good citation of 3.

    >>> counts = citation_counts([CitedClaim(("full", "partial"), None, (None, None)),
    ...                           CitedClaim(("none",), None, (None,))])
    >>> counts.halves, counts.full_sentences, counts.alce_supported, counts.alce_good
    (3, 1, 1, 1)
    """
    sentences = citations = halves = graded = full = still = supported = good = 0
    joint_open = redundancy_open = 0
    for claim in claims:
        grades = tuple(claim.grades)
        sentences += 1
        citations += len(grades)
        graded += sum(grade is not None for grade in grades)
        halves += sum(HALVES[grade] for grade in grades if grade is not None)
        if "full" in grades:
            full += 1
        elif None in grades:
            still += 1
        joint = _joint(grades, claim.joint)
        if joint is None:
            joint_open += 1
        elif joint:
            supported += 1
            found = _good(grades, claim.without)
            if found is None:
                redundancy_open += 1
            else:
                good += found
    return CitationCounts(sentences, citations, halves, graded, full, still, supported, good,
                          joint_open, redundancy_open)


def _good(grades, without):
    """How many citations of a supported claim are not redundant (``None``: not known)."""
    if len(grades) == 1:
        return 1
    found = 0
    for position, grade in enumerate(grades):
        if grade != "full":
            rest = _joint(grades[:position] + grades[position + 1:], without[position])
            if rest is None:
                return None
            if rest:
                continue  # redundant: the others support the claim without it
        found += 1
    return found


def check_cited(value, field="run['cited']"):
    """A run's citation labels checked: one :class:`CitedClaim` per sentence (claim) of its
    answer, each with a grade (or ``None``) and a judgement of the set less it (or ``None``)
    per citation; returned as a tuple.

    >>> check_cited([CitedClaim(("full",), None, (None,))])
    (CitedClaim(grades=('full',), joint=None, without=(None,)),)
    """
    if type(value) not in (list, tuple):
        fail(field, "a CitedClaim per sentence of the answer", value)
    checked = []
    for item in value:
        if not isinstance(item, CitedClaim) or type(item.grades) is not tuple \
                or type(item.without) is not tuple or len(item.without) != len(item.grades) \
                or not all(grade in GRADES or grade is None for grade in item.grades) \
                or not all(joint in JOINT for joint in (item.joint, *item.without)):
            fail(field, "a CitedClaim per sentence: a grade and a judgement of the others per "
                        "citation", item)
        checked.append(item)
    return tuple(checked)


#: The citation primitives: ``name: (field of CitationCounts, what it counts)``.
CITATION_PRIMITIVES = {
    "sentences": ("sentences", "The answer's sentences (claims), when its citations are "
                               "graded (0: none are)."),
    "citations": ("citations", "Their citations."),
    "citation_halves": ("halves", "The graded citations' weights in halves: full 2, partial "
                                  "1, none 0."),
    "graded_citations": ("graded", "Citations a reviewer graded."),
    "full_sentences": ("full_sentences", "Sentences with a fully supporting citation."),
    "open_sentences": ("open_sentences", "Sentences with no fully supporting citation and "
                                         "one not graded yet."),
    "alce_supported": ("alce_supported", "Sentences their citations support together."),
    "alce_good": ("alce_good", "Citations ALCE's precision counts."),
    "joint_open": ("joint_open", "Sentences whose joint support the labels leave unknown."),
    "redundancy_open": ("redundancy_open", "Supported sentences whose citations' redundancy "
                                           "the labels leave unknown."),
}


def _primitive(position, doc):
    def read(self):
        found = self.counts.citations
        return 0 if found is None else found[position]

    return property(read, doc=doc)


class CitationPrimitives:
    """The citation primitives of :class:`ragscore.core.counts.At`
    (:data:`CITATION_PRIMITIVES`), read from :attr:`Counts.citations
    <ragscore.core.counts.Counts>` (all 0 when the answer's citations carry no grades)."""

    __slots__ = ()


for _name, (_field, _doc) in CITATION_PRIMITIVES.items():
    setattr(CitationPrimitives, _name, _primitive(CitationCounts._fields.index(_field), _doc))
