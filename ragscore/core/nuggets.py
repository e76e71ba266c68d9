"""Nuggets: the facts a complete answer states, and an answer's assignment to each (TREC RAG).

A case's **nuggets** are its expected claims and the nuggets it lists (``nuggets``: objects
with an ``id``, an optional ``text`` and an optional ``importance``, ``vital`` or ``okay``).
A listed nugget whose ``id`` is an expected claim gives that claim its importance and text;
one with another ``id`` is a nugget without sources (TREC RAG's nuggets are text: nobody
tied them to passages). Every expected claim not listed is a vital nugget, so a test set
without ``nuggets`` scores as before. Order: the listed nuggets, then the other expected
claims in ``support`` order.

An answer's **assignment** to a nugget, at cutoff k (:func:`nugget_states`):

- a reviewer's decision about this answer (a judgement of kind ``nugget``,
  :mod:`ragscore.core.labels`): ``support``, ``partial_support`` or ``not_support``, whatever
  the answer cites (TREC's assessors judge what the answer states);
- else, for a nugget that is an expected claim, on an answer whose claims are all assessed:
  ``support`` from the k at which the claim stating it is supported under the strict
  citation rule (:func:`ragscore.core.counts.claim_cutoff`; a stale claim is not), else
  ``partial_support`` from the k at which every citation of a claim stating it only in part
  is visible (span labels, :func:`ragscore.core.spans.support_level`, or
  :func:`partial_claims`), else ``not_support``;
- else none: the nugget is n/a for this answer, "not assigned yet", never ``not_support``.

Standard library only.
"""
from collections import namedtuple

from .labels import content_key
from .rules import fail, show

IMPORTANCES = ("vital", "okay")
ASSIGNMENTS = ("support", "partial_support", "not_support")
#: The fields a listed nugget may have.
NUGGET_KEYS = ("id", "text", "importance")
#: Why a nugget score is n/a while a nugget waits for an assignment.
NOT_ASSIGNED = "a nugget is not assigned yet"


class Nugget(namedtuple("Nugget", "id text vital expected")):
    """One nugget of a case: its ``id``, its ``text`` (``None``: none given), ``vital``
    (else okay) and ``expected`` (it is an expected claim, with sources)."""

    __slots__ = ()


def check_nuggets(value, *, rules, field="case['nuggets']"):
    """A case's listed ``nuggets`` checked: a list or tuple of objects with an ``id`` (a
    claim ID, unique), an optional non-blank ``text`` and an optional ``importance``
    (``vital`` or ``okay``); returned as a tuple of dicts.

    >>> from ragscore.core.rules import COURSE
    >>> check_nuggets([{"id": "smoke", "importance": "okay"}], rules=COURSE)
    ({'id': 'smoke', 'importance': 'okay'},)
    >>> check_nuggets([{"id": "smoke", "importance": "minor"}], rules=COURSE)
    Traceback (most recent call last):
    ...
    ragscore.core.rules.InvalidInputError: case['nuggets'][0]['importance'] must be one of vital, okay; got 'minor'
    """
    if type(value) not in (list, tuple) or len(value) > rules.max_claims:
        fail(field, f"a list of at most {rules.max_claims} nuggets", value)
    seen, checked = set(), []
    for position, item in enumerate(value):
        at = f"{field}[{position}]"
        if type(item) is not dict:
            fail(at, "an object with 'id', and optionally 'text' and 'importance'", item)
        extra = sorted(str(key) for key in item if key not in NUGGET_KEYS)
        if extra:
            fail(f"{at} key", f"one of {', '.join(NUGGET_KEYS)}", extra[0])
        nugget = item.get("id")
        if type(nugget) is not str or not rules.claim_match(nugget):
            fail(f"{at}['id']", rules.expected_claim, nugget)
        if nugget in seen:
            fail(f"{at}['id']", "unique among the case's nuggets", nugget)
        seen.add(nugget)
        if "text" in item and (type(item["text"]) is not str or not item["text"].strip()):
            fail(f"{at}['text']", "a non-blank string", item["text"])
        if "importance" in item and item["importance"] not in IMPORTANCES:
            fail(f"{at}['importance']", f"one of {', '.join(IMPORTANCES)}", item["importance"])
        checked.append(dict(item))
    return tuple(checked)


def case_nuggets(listed, support):
    """The :class:`Nugget` tuple of a case: its checked ``listed`` nuggets, then every
    expected claim of ``support`` (``{claim: sources}`` or ``None``) not listed, vital.

    >>> [(n.id, n.vital, n.expected) for n in case_nuggets(
    ...     ({"id": "smoke", "importance": "okay"}, {"id": "n9", "text": "It is free."}),
    ...     {"switch": {"a"}, "smoke": {"b"}})]
    [('smoke', False, True), ('n9', True, False), ('switch', True, True)]
    """
    expected = support or {}
    found = [Nugget(item["id"], item.get("text"), item.get("importance", "vital") == "vital",
                    item["id"] in expected) for item in listed or ()]
    named = {nugget.id for nugget in found}
    found += [Nugget(claim, None, True, True) for claim in expected if claim not in named]
    return tuple(found)


def nugget_key(nugget_id, text):
    """The key of a nugget: its ID and its text (an edited nugget needs new assignments).

    >>> nugget_key("n1", "Opens Monday.") == nugget_key("n1", "Opens Tuesday.")
    False
    """
    return content_key("nugget", nugget_id, text)


def answer_key(parts):
    """The key of an answer as a reviewer reads it: each claim in order, as ``(text,
    passage keys)`` (its normalised text, or a recorded claim's ID, and the keys of the
    passages it cites, in any order). The same sentences citing the same passages give the
    same key, in any run of any system.

    >>> answer_key([("opens monday", ["b", "a"])]) == answer_key([("opens monday", ["a", "b"])])
    True
    >>> answer_key([("opens monday", ["a"])]) == answer_key([("opens monday", [])])
    False
    """
    return content_key("answer", [[text, sorted(keys)] for text, keys in parts])


def assignment_key(nugget, answer):
    """The key of one assignment judgement: a nugget's key and an answer's key."""
    return content_key("assignment", nugget, answer)


def partial_claims(verdicts):
    """The claims an answer states only in part, from per-claim verdicts ``{claim ID:
    "full" or "partial"}`` of a caller's tool (a span test set's own are applied by
    :meth:`ragscore.core.scoring.Counter.prepare`). A claim named here that is an expected
    claim assigns its nugget ``partial_support`` where the strict rule does not assign
    ``support``.

    >>> sorted(partial_claims({"switch": "full", "smoke": "partial"}))
    ['smoke']
    >>> partial_claims({"smoke": "most"})
    Traceback (most recent call last):
    ...
    ragscore.core.rules.InvalidInputError: verdict of claim 'smoke' must be one of full, partial; got 'most'
    """
    found = set()
    for claim, verdict in verdicts.items():
        if verdict not in ("full", "partial"):
            fail(f"verdict of claim {show(claim)}", "one of full, partial", verdict)
        if verdict == "partial":
            found.add(claim)
    return frozenset(found)


_FIXED = {"support": (1, 1), "partial_support": (0, 1), "not_support": (0, 0)}


def nugget_states(nuggets, assigned, *, assessed, supported, partial):
    """Each nugget's state, in the case's order, as ``(position, vital, assigned, full,
    half)``: its ``position`` among the case's nuggets (from 0); ``vital`` 1 or 0;
    ``assigned`` 1 when some assignment holds, else 0 (n/a); ``full`` the smallest k
    assigning ``support`` and ``half`` the smallest k assigning at least
    ``partial_support`` (0: at no k). See the module docstring for the rule.

    ``assigned``: ``{nugget ID: assignment}`` of reviewers; ``assessed``: the answer's claims
    are all known; ``supported``: ``{expected claim: cutoff}`` of the answer's claims
    supported under the strict rule (not stale); ``partial``: ``{expected claim: cutoff}``
    of its claims stated in part, each from the k at which its citations are visible.

    >>> nuggets = case_nuggets(({"id": "smoke", "importance": "okay"},),
    ...                        {"switch": {"a"}, "smoke": {"b"}})
    >>> nugget_states(nuggets, {}, assessed=True, supported={"switch": 2}, partial={})
    ((0, 0, 1, 0, 0), (1, 1, 1, 2, 2))
    >>> nugget_states(nuggets, {"smoke": "partial_support"}, assessed=False, supported={},
    ...               partial={})
    ((0, 0, 1, 0, 1), (1, 1, 0, 0, 0))
    """
    states = []
    for position, nugget in enumerate(nuggets):
        vital = int(nugget.vital)
        decision = (assigned or {}).get(nugget.id)
        if decision is not None:
            full, half = _FIXED[decision]
            states.append((position, vital, 1, full, half))
        elif nugget.expected and assessed:
            full = supported.get(nugget.id, 0)
            half = min((cut for cut in (full, partial.get(nugget.id, 0)) if cut), default=0)
            states.append((position, vital, 1, full, half))
        else:
            states.append((position, vital, 0, 0, 0))
    return tuple(states)


def assignment_at(state, k):
    """The assignment a nugget's ``state`` (:func:`nugget_states`) holds at cutoff ``k``, or
    ``None`` when it is not assigned.

    >>> [assignment_at((0, 1, 1, 3, 2), k) for k in (1, 2, 3)]
    ['not_support', 'partial_support', 'support']
    >>> assignment_at((0, 1, 0, 0, 0), 2) is None
    True
    """
    _, _, assigned, full, half = state
    if 0 < full <= k:
        return "support"
    if 0 < half <= k:
        return "partial_support"
    return "not_support" if assigned else None


def check_assigned(value, nuggets, field="run['assigned']"):
    """``{nugget ID: assignment}`` checked against the case's :class:`Nugget` tuple.

    >>> check_assigned({"n1": "support"}, (Nugget("n1", None, True, False),))
    {'n1': 'support'}
    """
    names = {nugget.id for nugget in nuggets}
    if type(value) is not dict or not all(
            nugget in names and decision in ASSIGNMENTS for nugget, decision in value.items()):
        fail(field, f"a map of the case's nugget IDs to one of {', '.join(ASSIGNMENTS)}", value)
    return dict(value)


#: The nugget primitives: ``name: (vital, state, what it counts)``; ``state`` is ``all``,
#: ``support`` (assigned support at k), ``partial`` (assigned partial_support at k, not
#: support) or ``open`` (not assigned).
NUGGET_PRIMITIVES = {
    "n_vital": (1, "all", "The question's vital nuggets."),
    "n_okay": (0, "all", "The question's okay nuggets."),
    "vital_support": (1, "support", "Vital nuggets the answer is assigned support at k."),
    "okay_support": (0, "support", "Okay nuggets the answer is assigned support at k."),
    "vital_partial": (1, "partial", "Vital nuggets assigned partial_support at k."),
    "okay_partial": (0, "partial", "Okay nuggets assigned partial_support at k."),
    "vital_open": (1, "open", "Vital nuggets nobody has assigned for this answer."),
    "okay_open": (0, "open", "Okay nuggets nobody has assigned for this answer."),
}


def nugget_count(states, vital, state, k):
    """How many of ``states`` (:func:`nugget_states`) of one importance (``vital`` 1 or 0)
    are in ``state`` at k (see :data:`NUGGET_PRIMITIVES`).

    >>> nugget_count(((0, 0, 1, 0, 1), (1, 1, 1, 2, 2), (2, 1, 0, 0, 0)), 1, "support", 2)
    1
    """
    found = 0
    for _, is_vital, assigned, full, half in states:
        if is_vital == vital:
            supported = 0 < full <= k
            found += (state == "all" or state == "support" and supported
                      or state == "partial" and not supported and 0 < half <= k
                      or state == "open" and not assigned)
    return found


def _primitive(vital, state, doc):
    def read(self):
        states = self.counts.nuggets
        if states is None:  # its expected claims, each vital, assigned by the strict rule
            expected = self.n_expected if vital else 0
            return {"all": expected, "support": self.supported if vital and self.assessed
                    else 0, "partial": 0, "open": 0 if self.assessed else expected}[state]
        return nugget_count(states, vital, state, self.k)

    return property(read, doc=doc)


def vital_defined(at):
    """A score over the vital nuggets is defined: some are, and none waits."""
    return (at.n_vital > 0) & (at.vital_open == 0)


def vital_waiting(at):
    """A vital nugget waits for its assignment."""
    return at.vital_open > 0


def all_defined(at):
    """A score over every nugget is defined: there are some, and none waits."""
    return (at.n_vital + at.n_okay > 0) & (at.vital_open + at.okay_open == 0)


def all_waiting(at):
    """A nugget waits for its assignment."""
    return at.vital_open + at.okay_open > 0


class NuggetPrimitives:
    """The nugget primitives of :class:`ragscore.core.counts.At` (:data:`NUGGET_PRIMITIVES`),
    read from :attr:`Counts.nuggets <ragscore.core.counts.Counts>`; where that is ``None``,
    the question's nuggets are its expected claims, every one vital and assigned by the
    strict rule (``support`` as the supported claims, nothing open once assessed)."""

    __slots__ = ()


for _name, (_vital, _state, _doc) in NUGGET_PRIMITIVES.items():
    setattr(NuggetPrimitives, _name, _primitive(_vital, _state, _doc))
