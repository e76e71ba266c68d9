"""From a run's answer text to the ``(claim, citations)`` pairs the counts read.

A run that records ``answer`` and no ``claims`` has its claims derived: the answer is split
(:func:`ragscore.core.claim_split.split_claims`), numeric markers resolved through the
delivered context when recorded, else the retrieved ranking; a run that records its answer
as ``sentences`` (each with the IDs it cites, as TREC RAG's answers come) has one claim per
sentence, as written (:func:`sentence_claims`). Each claim is looked up among
the reviewers' **support judgements** of its case (:mod:`ragscore.core.labels`), by its
key: its normalised text (:func:`normalise`) and the passages it cites
(:func:`~ragscore.core.labels.claim_key`). The same sentence citing the same passages in a
later run, of any system, reuses its judgement; another case asking the same question does
not.

- ``supported`` on a question with expected claims, with ``states`` naming one: the pair
  ``(states, citations)``; the strict citation rule then decides support, as for a recorded
  claim;
- ``supported`` stating no expected claim there, or ``unsupported``: a claim that cannot be
  supported (an ID no expected claim has), so it lowers support and leaves coverage;
- ``supported`` on a question without expected claims (an imported log): the reviewer
  vouched that the passages it cites support it, so it is supported at k where every cited
  passage is visible (``vouched``); it adds to no coverage (nothing is expected);
- ``not a claim``: left out (a greeting, an abstention, a heading).

One claim without a judgement makes the whole answer **not assessed**: its support and
coverage are n/a, never 0 (see :func:`derive_run`).
"""
import unicodedata
from collections import namedtuple

from .claim_markers import find_markers
from .claim_split import MAX_ANSWER, Claim, split_claims
from .labels import SUPPORT_DECISIONS, claim_key
from .rules import fail

ANSWER_DECISIONS = SUPPORT_DECISIONS


class DerivedRun(namedtuple("DerivedRun", "claims pairs waiting source decisions keys vouched")):
    """A run's derived claims (:class:`~ragscore.core.claim_split.Claim` list), the
    ``(claim ID, citations)`` ``pairs`` the counts read (``None`` while any claim awaits
    review), how many claims are ``waiting`` for a judgement, the ``source`` numeric
    markers index (``"delivered"`` or ``"retrieved"``), each claim's decision (``None``:
    awaiting review) and judgement ``keys``, and the claim IDs a reviewer ``vouched`` for
    (supported by their citations, on a question without expected claims)."""

    __slots__ = ()


def normalise(text):
    """The text a claim is judged under: citation markers removed with the space before
    them, Unicode NFKC, case folded, whitespace runs made one space, and surrounding
    punctuation, symbols and spaces stripped.

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


def _free_id(position, taken):
    name = f"claim-{position}"
    while name in taken:
        name = "x" + name
    return name


def check_sentences(value, *, rules, field="run['sentences']"):
    """A run's answer as ``sentences`` checked: a non-empty tuple of ``(text, citations)``
    pairs, each text a string, each citations a tuple of distinct valid IDs (unknown to the
    corpus is allowed: such a citation supports nothing), the texts joined no longer than
    the splitter takes.

    >>> from ragscore.core.rules import OPEN
    >>> check_sentences((("Opens Monday.", ("launch",)),), rules=OPEN)
    (('Opens Monday.', ('launch',)),)
    """
    if type(value) is not tuple or not value or len(value) > rules.max_claims:
        fail(field, f"a list of 1 to {rules.max_claims} sentences, each with its text and "
                    "citations", value)
    for position, pair in enumerate(value):
        at = f"{field}[{position}]"
        if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not str:
            fail(at, "a sentence: its text and the IDs it cites", pair)
        cited = pair[1]
        if type(cited) is not tuple or len(set(cited)) != len(cited) or not all(
                rules.is_id(doc) for doc in cited):
            fail(f"{at} citations", f"distinct IDs ({rules.expected})", cited)
    if sum(len(text) + 1 for text, _ in value) - 1 > MAX_ANSWER:
        fail(field, f"sentences of at most {MAX_ANSWER:,} characters in all",
             f"{sum(len(text) for text, _ in value):,} characters")
    return value


def answer_text(run):
    """A run's answer as text: its ``answer``, or its ``sentences`` joined by a space (as
    nuggetizer joins TREC RAG's answer sentences); ``None`` when it records neither.

    >>> answer_text({"sentences": (("Opens Monday.", ("a",)), ("At 9.", ()))})
    'Opens Monday. At 9.'
    """
    if "sentences" in run:
        return " ".join(text for text, _ in run["sentences"])
    return run.get("answer")


def sentence_claims(sentences):
    """One :class:`~ragscore.core.claim_split.Claim` per sentence, in order: its text, its
    span in :func:`answer_text`, no markers (its citations are given as IDs).

    >>> sentence_claims((("Opens Monday.", ("a",)), ("At 9.", ())))[1].span
    (14, 19)
    """
    claims, start = [], 0
    for text, cited in sentences:
        claims.append(Claim(text=text, span=(start, start + len(text)), markers=(),
                            citations=tuple(cited), findings=()))
        start += len(text) + 1
    return claims


def split_run(run, *, known=None, split="sentence", pattern=None):
    """``(claims, source)``: the :class:`~ragscore.core.claim_split.Claim` list of a run's
    answer and what its numeric markers index (``"delivered"`` or ``"retrieved"``); a run
    recording ``sentences`` gives one claim per sentence."""
    delivered = run.get("delivered")
    source = "retrieved" if delivered is None else "delivered"
    if "sentences" in run:
        return sentence_claims(run["sentences"]), source
    context = run.get("retrieved", ()) if delivered is None else delivered
    return split_claims(run["answer"], split=split, context=context, source=source,
                        known=known, pattern=pattern), source


def derive_run(support, run, decided, *, key_of, keyed=False, known=None, split="sentence",
               pattern=None):
    """The :class:`DerivedRun` of one run's answer under ``decided``, its case's support
    decisions ``{key: (decision, states)}`` (:func:`ragscore.core.labels.resolved`);
    ``support`` is the case's ``{expected claim: sources}`` (``None``: none labelled) and
    ``key_of(doc)`` a cited passage's key (:func:`ragscore.core.labels.passage_key`). Keys
    are worked out only when something is decided or ``keyed`` (``None`` otherwise).

    >>> from ragscore.core.labels import claim_key
    >>> decided = {claim_key("ships monday", ["k-launch"]): ("supported", "monday")}
    >>> run = {"answer": "Ships Monday [1].", "retrieved": ("launch",)}
    >>> derive_run({"monday": ("launch",)}, run, decided, key_of=lambda doc: "k-" + doc).pairs
    (('monday', ('launch',)),)
    >>> derive_run(None, run, decided, key_of=lambda doc: "k-" + doc).vouched
    ('claim-1',)
    """
    claims, source = split_run(run, known=known, split=split, pattern=pattern)
    if not decided and not keyed:  # nothing judged yet: no key to work out
        return DerivedRun(claims=claims, pairs=None if claims else (), waiting=len(claims),
                          source=source, decisions=(None,) * len(claims), keys=None,
                          vouched=())
    keys = tuple(claim_key(normalise(claim.text), [key_of(doc) for doc in claim.citations])
                 for claim in claims)
    pairs, used, vouched, waiting, decisions = [], set(), [], 0, []
    for position, (claim, key) in enumerate(zip(claims, keys), 1):
        found = decided.get(key)
        decisions.append(None if found is None else found[0])
        if found is None:
            waiting += 1
            continue
        decision, states = found
        if decision == "not a claim":
            continue
        if support is not None and decision == "supported" and states in support \
                and states not in used:
            used.add(states)
            pairs.append((states, claim.citations))
            continue
        name = _free_id(position, set(support or ()) | used)
        used.add(name)
        pairs.append((name, claim.citations))
        if support is None and decision == "supported":
            vouched.append(name)
    return DerivedRun(claims=claims, pairs=None if waiting else tuple(pairs), waiting=waiting,
                      source=source, decisions=tuple(decisions), keys=keys,
                      vouched=tuple(vouched))
