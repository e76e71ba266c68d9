"""Measure names as the ecosystem spells them: ``P@10``, ``nDCG@10``, ``AP``, ``RR``.

A measure is a registered metric at a cutoff. ``--measures "P@5 P@10 nDCG@10 AP RR"`` takes
ir_measures' spelling: ``P``, ``R``, ``RR``, ``nDCG``, ``AP``, ``Success``, ``Rprec``,
``ERR``, ``RBP``, ``Judged`` with ``@k``; ``AP``, ``nDCG``, ``RR``, ``Rprec`` and ``RBP``
without a cutoff are *uncut* (the whole ranking, as trec_eval's ``map``, ``ndcg``,
``recip_rank`` and ``Rprec``). Parameters follow ir_measures: ``P(rel=2)@10``,
``AP(rel=2)``, ``nDCG(dcg=exp-log2)@10``, ``RBP(p=0.5)``. ragscore's own metrics are named
by their registry label or name, with an optional cutoff (``support``, ``support@3``,
``Hit@10``, ``abstention``). Names are case-sensitive, as ir_measures'; separators are
spaces or commas. ``ragscore eval -m`` takes trec_eval's spellings instead
(:func:`parse_trec_measure`: ``P.10``, ``map``, ``ndcg_cut.10``).

Standard library only.

>>> [m.label for m in parse_measures("P@10 AP nDCG@5")]
['P@10', 'AP', 'nDCG@5']
>>> parse_measures("AP")[0].trec_name
'map'
"""
import re
from collections import namedtuple
from difflib import SequenceMatcher

from .aggregate import aggregates, split_slices

from .metrics import REGISTRY, get, parameterised
from .rules import InvalidInputError, show

#: ir_measures' names of the measures that have one, and the registry metric each one is
#: (each metric says its own: ``Metric.ir_name``).
ECOSYSTEM = {metric.ir_name: name for name, metric in REGISTRY.items()
             if metric.ir_name is not None}

#: The measures that have an uncut form (no ``@k``: the whole ranking): ``Metric.uncut``.
UNCUT = tuple(metric.ir_name for metric in REGISTRY.values() if metric.uncut)

#: trec_eval's names: ``(cut name with {k}, uncut name)`` of every metric that has one.
TREC_NAMES = {name: (metric.trec_name, metric.trec_uncut) for name, metric in REGISTRY.items()
              if metric.trec_name is not None or metric.trec_uncut is not None}


class Measure(namedtuple("Measure", "label metric k")):
    """One measure: its ``label`` as typed (``nDCG@10``, ``AP``), the registry ``metric``
    name (with its parameters, ``precision(rel=2)``), and the cutoff ``k`` (an int, or
    ``None`` for uncut: the whole ranking)."""

    __slots__ = ()

    @property
    def definition(self):
        """The :class:`~ragscore.core.metrics.Metric` this measure reads (its parameters
        set).

        >>> Measure("P(rel=2)@10", "precision(rel=2)", 10).definition.label_at(10)
        'P(rel=2)@10'
        """
        return get(self.metric)

    @property
    def trec_name(self):
        """trec_eval's name of this measure (``P_10``, ``map``), or ``None`` if it has none.

        >>> Measure("P@10", "precision", 10).trec_name, Measure("RR@3", "rr", 3).trec_name
        ('P_10', None)
        """
        cut, uncut = TREC_NAMES.get(self.metric, (None, None))
        if self.k is None:
            return uncut
        return cut.format(k=self.k) if cut else None

    def cutoff(self, *, uncut, default):
        """The cutoff to score at: ``k``; for an uncut ranking measure ``uncut`` (the
        longest ranking the ID rules allow); for a metric without a cutoff in its name
        (``support``) ``default`` (``--k``).

        >>> Measure("AP", "ap", None).cutoff(uncut=10000, default=2)
        10000
        """
        if self.k is not None:
            return self.k
        return uncut if "{k}" in self.definition.label else default


def needs_cutoff(measure):
    """True for a measure named without a cutoff that is read at one all the same: a
    ragscore metric such as ``support`` (its cutoff comes from ``--k``); false for a
    measure with ``@k`` and for the uncut ranking measures (``AP``, ``nDCG``, ``RR``).

    >>> [needs_cutoff(m) for m in parse_measures("support support@3 AP P@5")]
    [True, False, False, False]
    """
    return measure.k is None and "{k}" not in measure.definition.label


def at_cutoffs(measures, *, default):
    """``measures`` with every cutoff stated: a metric named without one that is read at
    ``default`` (``support`` with ``--k 2``) becomes ``support@2``, so no label hides the k
    it was scored at; uncut measures (``AP``) stay uncut. Each (metric, cutoff) once.

    >>> [m.label for m in at_cutoffs(parse_measures("support R@10 AP support@2"), default=2)]
    ['support@2', 'R@10', 'AP']
    """
    found = {}
    for measure in measures:
        if needs_cutoff(measure):
            measure = Measure(f"{measure.label}@{default}", measure.metric, default)
        found.setdefault((measure.metric, measure.k), measure)
    return tuple(found.values())


def spellings():
    """Every measure as it may be typed, one example of each form: ``P@10`` and
    ``P(rel=2)@10`` for a measure at a cutoff, ``AP`` for an uncut one, ``support`` for a
    ragscore metric (the names :func:`closest` chooses from).

    >>> spellings()[:4]
    ['P@10', 'P(rel=2)@10', 'R@10', 'R(rel=2)@10']
    """
    words = []
    for name, metric in REGISTRY.items():
        stem = metric.ir_name or (metric.label.replace("@{k}", "") if " " not in metric.label
                                  else name)
        cut = "{k}" in metric.label
        forms = ([stem] if metric.uncut or not cut else []) + ([f"{stem}@10"] if cut else [])
        for parameter in metric.parameters:
            said = f"{stem}({parameter.name}={parameter.example})"
            forms.append(f"{said}@10" if cut and not metric.uncut else said)
        words += [form for form in forms if form not in words]
    return words


def closest(text, *, among=None):
    """The three spellings nearest ``text`` (:func:`spellings`, or ``among``), nearest
    first (difflib's ratio, case aside).

    >>> closest("nDGC@10")
    ['nDCG@10', 'Judged@10', 'P@10']
    """
    candidates = spellings() if among is None else list(among)
    typed = text.lower()  # MAP is near map: case counts only to break a tie
    return sorted(candidates, key=lambda candidate: (
        -SequenceMatcher(None, typed, candidate.lower()).ratio(),
        -SequenceMatcher(None, text, candidate).ratio()))[:3]


def _unknown(text):
    """The error for an unknown measure: the three closest spellings (and, for a trec_eval
    name, the measure it is), never a list cut short."""
    hint = ""
    for spelling in dict.fromkeys((text, text.lower())):  # MAP: trec_eval's map
        try:
            found = parse_trec_measure(spelling)
        except InvalidInputError:
            continue
        hint = (f" ({show(spelling)} is trec_eval's name of "
                f"{' '.join(m.label for m in found)}; 'ragscore eval -m' takes trec_eval's "
                "names)")
        break
    return InvalidInputError(f"--measures: unknown measure {show(text)}{hint}; closest: "
                             f"{', '.join(closest(text))} ('ragscore measures' lists every "
                             "name)")


def _by_stem():
    """``{stem: metric name}`` for every spelling a measure may start with."""
    stems = dict(ECOSYSTEM)
    for name, metric in REGISTRY.items():
        stems.setdefault(metric.label.replace("@{k}", ""), name)
        stems.setdefault(name, name)
    return stems


_SHAPE = re.compile(r"(?P<stem>[^()@]+)(?:\((?P<parameters>[^()]*)\))?(?:@(?P<cut>.*))?",
                    re.DOTALL)


def _parameters(text, stem, shown):
    """``{name: value text}`` from ``rel=2,p=0.5`` (a parameter named twice, or a part
    without ``=``, refused)."""
    found = {}
    for part in text.split(","):
        name, equals, value = part.partition("=")
        if not equals or not name.strip() or name.strip() in found:
            raise InvalidInputError(f"--measures: {show(shown)}: parameters are written "
                                    f"name=value, each once, such as "
                                    f"{', '.join(closest(shown))}")
        found[name.strip()] = value
    return found


def parse_measure(text):
    """One measure from its name, else an :class:`InvalidInputError` naming the three
    closest names.

    >>> parse_measure("R@100")
    Measure(label='R@100', metric='recall', k=100)
    >>> parse_measure("support@3")
    Measure(label='support@3', metric='support', k=3)
    >>> parse_measure("P(rel=2)@10")
    Measure(label='P(rel=2)@10', metric='precision(rel=2)', k=10)
    """
    shape = _SHAPE.fullmatch(text)
    if shape is None:
        raise _unknown(text)
    stem, parameters, cut = shape.group("stem", "parameters", "cut")
    metric = _by_stem().get(stem)
    k = None
    if cut is not None:
        k = int(cut) if cut.isascii() and cut.isdigit() and int(cut) >= 1 else None
        if k is None:
            raise InvalidInputError(f"--measures: a cutoff must be a whole number 1 or above; "
                                    f"got {show(text)}")
    if metric is None:
        raise _unknown(text)
    definition = REGISTRY[metric]
    if parameters is not None:
        try:
            definition = parameterised(definition, _parameters(parameters, stem, text))
        except InvalidInputError as error:
            if str(error).startswith("--measures"):
                raise
            raise InvalidInputError(f"--measures: {show(text)}: {error}") from None
    if k is None and "{k}" in definition.label and stem not in UNCUT:
        raise InvalidInputError(f"--measures: {show(text)} needs a cutoff, such as "
                                f"{stem}@10 (only {', '.join(UNCUT)} have an uncut form)")
    return Measure(text, definition.name, k)


#: trec_eval's cutoffs for a measure named without them (``-m P``): its own defaults.
TREC_CUTOFFS = {"success": (1, 5, 10)}
#: The cutoffs of every other measure trec_eval cuts (``P``, ``recall``, ``ndcg_cut``).
TREC_DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def _trec_stems():
    """``({cut stem: metric}, {uncut name: metric})`` of trec_eval's names (``P`` for
    ``P_{k}``, ``map`` for the uncut AP), from each metric's ``trec_name`` and
    ``trec_uncut``."""
    cut, uncut = {}, {}
    for name, metric in REGISTRY.items():
        if metric.trec_name is not None:
            cut[metric.trec_name.replace("_{k}", "")] = name
        if metric.trec_uncut is not None:
            uncut[metric.trec_uncut] = name
    return cut, uncut


def trec_spellings():
    """Every trec_eval ``-m`` spelling :func:`parse_trec_measure` takes, one example each.

    >>> trec_spellings()[:4]
    ['P.10', 'P', 'recall.10', 'recall']
    """
    cut, uncut = _trec_stems()
    return [form for stem in cut for form in (f"{stem}.10", stem)] + list(uncut)


def parse_trec_measure(text):
    """The measures of trec_eval's ``-m`` spelling: ``P.10`` (``P@10``), ``P.5,10``, ``P``
    (trec_eval's default cutoffs), ``map`` (``AP``), ``ndcg_cut.10``, ``recip_rank``,
    ``Rprec``, ...; else an :class:`InvalidInputError` naming the three closest spellings.

    >>> [m.label for m in parse_trec_measure("ndcg_cut.5,10")]
    ['nDCG@5', 'nDCG@10']
    >>> [m.label for m in parse_trec_measure("map")], parse_trec_measure("success")[0].label
    (['AP'], 'Success@1')
    """
    cut, uncut = _trec_stems()
    if type(text) is not str:
        raise InvalidInputError(f"-m must be a trec_eval measure name such as P.10; got "
                                f"{show(text)}")
    stem, dot, cutoffs = text.partition(".")
    if not dot and text in uncut:
        metric = REGISTRY[uncut[text]]
        return (Measure(metric.ir_name or metric.name, metric.name, None),)
    if stem in cut:
        metric = REGISTRY[cut[stem]]
        parts = cutoffs.split(",") if dot else [str(k) for k in TREC_CUTOFFS.get(
            stem, TREC_DEFAULT_CUTOFFS)]
        if all(part.isascii() and part.isdigit() and int(part) >= 1 for part in parts):
            stem_label = metric.ir_name or metric.label.replace("@{k}", "")
            return tuple(Measure(f"{stem_label}@{int(part)}", metric.name, int(part))
                         for part in dict.fromkeys(parts))
    raise InvalidInputError(f"-m: trec_eval has no measure {show(text)} that ragscore "
                            f"computes; closest: {', '.join(closest(text, among=trec_spellings()))}"
                            " (ir_measures' names go to --measures; 'ragscore measures' "
                            "lists every name)")


#: One name of a list: separated by spaces or commas, a comma inside parentheses kept
#: (``RBP(p=0.5,rel=2)``).
_NAMES = re.compile(r"[^\s,(]*(?:\([^()]*\))?[^\s,]*")


def parse_measures(text):
    """The measures named in ``text`` (separated by spaces or commas), in order, each once.

    >>> [m.label for m in parse_measures("P@5, P@10 P@5")]
    ['P@5', 'P@10']
    >>> [m.label for m in parse_measures("RBP(p=0.5,rel=2),AP")]
    ['RBP(p=0.5,rel=2)', 'AP']
    """
    if type(text) is not str:
        raise InvalidInputError(f"--measures must be text such as 'P@10 nDCG@10 AP'; "
                                f"got {show(text)}")
    found = {}
    for part in filter(None, _NAMES.findall(text)):
        measure = parse_measure(part)
        found.setdefault((measure.metric, measure.k), measure)
    if not found:
        raise InvalidInputError(f"--measures names no measure; got {show(text)} (such as "
                                f"'P@10 nDCG@10 AP'; 'ragscore measures' lists every name)")
    return tuple(found.values())


def measures_of(names):
    """Measures from text, or from a list of names (the Python API's form)."""
    if isinstance(names, str):
        return parse_measures(names)
    if isinstance(names, (list, tuple)) and all(type(name) is str for name in names):
        return parse_measures(" ".join(names))
    raise InvalidInputError(f"measures must be text or a list of names such as "
                            f"['P@10', 'AP']; got {show(names)}")


class Scored(namedtuple("Scored", "measures cases systems columns summary")):
    """Named measures scored: ``columns[label]`` one value per (case, system) row (None for
    n/a), ``summary`` the declared aggregates, one dict per system, measure and method."""

    __slots__ = ()


def score_measures(counted, measures, *, default_k, na_as_zero=False):
    """Score ``measures`` over ``counted`` (one engine pass; each measure reads the counts
    at its cutoff, ``default_k`` when its name gives none (its label then says so, see
    :func:`at_cutoffs`); uncut measures at the longest ranking the ID rules allow)."""
    uncut = counted.rules.max_k
    measures = at_cutoffs(measures, default=default_k)
    ks = [measure.cutoff(uncut=uncut, default=default_k) for measure in measures]
    for measure, k in zip(measures, ks):
        if k > uncut:
            raise InvalidInputError(f"--measures: {measure.label} cuts at {k}, beyond the "
                                    f"longest ranking the dataset's ID rules allow ({uncut})")
    columns = {measure.label: counted.column(measure.definition, k, na_as_zero=na_as_zero)
               for measure, k in zip(measures, ks)}
    summary = []
    for system in counted.systems:
        positions = counted.positions(system)  # every row, in order, when one system
        view = counted if len(positions) == len(counted) else counted.take(positions)
        slices = split_slices(view)  # the same slices at every cutoff
        for measure, k in zip(measures, ks):
            metric = measure.definition
            for row in aggregates(view, k=k, metrics=(metric,), na_as_zero=na_as_zero,
                                  slices=slices):
                if row.slice not in (metric.slice, "all") or (
                        row.slice == "all" and not na_as_zero and metric.slice != "all"):
                    continue
                summary.append({"system": system, "measure": measure.label,
                                "method": row.method, "slice": row.slice, "value": row.value,
                                "used": row.used, "left_out": row.left_out,
                                "description": row.description})
    return Scored(measures, [case for case, _ in counted.keys],
                  [system for _, system in counted.keys], columns, summary)
