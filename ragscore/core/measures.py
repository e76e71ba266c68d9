"""Measure names as the ecosystem spells them: ``P@10``, ``nDCG@10``, ``AP``, ``RR``.

A measure is a registered metric at a cutoff. ``--measures "P@5 P@10 nDCG@10 AP RR"`` takes
ir_measures' spelling: ``P``, ``R``, ``RR``, ``nDCG``, ``AP``, ``Success`` with ``@k``;
``AP``, ``nDCG`` and ``RR`` without a cutoff are *uncut* (the whole ranking, as trec_eval's
``map``, ``ndcg`` and ``recip_rank``). ragscore's own metrics are named by their registry
label or name, with an optional cutoff (``support``, ``support@3``, ``Hit@10``,
``abstention``). Names are case-sensitive, as ir_measures'; separators are spaces or commas.

Standard library only.

>>> [m.label for m in parse_measures("P@10 AP nDCG@5")]
['P@10', 'AP', 'nDCG@5']
>>> parse_measures("AP")[0].trec_name
'map'
"""
from collections import namedtuple

from .aggregate import aggregates, split_slices

from .metrics import REGISTRY
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
    name, and the cutoff ``k`` (an int, or ``None`` for uncut: the whole ranking)."""

    __slots__ = ()

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
        return uncut if "{k}" in REGISTRY[self.metric].label else default


def needs_cutoff(measure):
    """True for a measure named without a cutoff that is read at one all the same: a
    ragscore metric such as ``support`` (its cutoff comes from ``--k``); false for a
    measure with ``@k`` and for the uncut ranking measures (``AP``, ``nDCG``, ``RR``).

    >>> [needs_cutoff(m) for m in parse_measures("support support@3 AP P@5")]
    [True, False, False, False]
    """
    return measure.k is None and "{k}" not in REGISTRY[measure.metric].label


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


def known_names():
    """Every name :func:`parse_measures` knows, in words, for an error message.

    >>> known_names().startswith("P@k, R@k, RR, RR@k, nDCG, nDCG@k")
    True
    """
    words = []
    for short, name in ECOSYSTEM.items():
        words += [short] if short in UNCUT else []
        words.append(f"{short}@k")
    for name, metric in REGISTRY.items():
        stem = metric.label.replace("@{k}", "")
        if name not in ECOSYSTEM.values():
            words.append(f"{name if ' ' in stem else stem}[@k]")
    return ", ".join(words)


def _by_stem():
    """``{stem: metric name}`` for every spelling a measure may start with."""
    stems = dict(ECOSYSTEM)
    for name, metric in REGISTRY.items():
        stems.setdefault(metric.label.replace("@{k}", ""), name)
        stems.setdefault(name, name)
    return stems


def parse_measure(text):
    """One measure from its name, else an :class:`InvalidInputError` listing the known
    names.

    >>> parse_measure("R@100")
    Measure(label='R@100', metric='recall', k=100)
    >>> parse_measure("support@3")
    Measure(label='support@3', metric='support', k=3)
    """
    stem, at, cut = text.partition("@")
    metric = _by_stem().get(stem)
    k = None
    if at:
        k = int(cut) if cut.isascii() and cut.isdigit() and int(cut) >= 1 else None
        if k is None:
            raise InvalidInputError(f"--measures: a cutoff must be a whole number 1 or above; "
                                    f"got {show(text)}")
    if metric is None:
        raise InvalidInputError(f"--measures: unknown measure {show(text)}; known: "
                                f"{known_names()}")
    if k is None and "{k}" in REGISTRY[metric].label and stem not in UNCUT:
        raise InvalidInputError(f"--measures: {show(text)} needs a cutoff, such as "
                                f"{stem}@10 (only {', '.join(UNCUT)} have an uncut form)")
    return Measure(text, metric, k)


def parse_measures(text):
    """The measures named in ``text`` (separated by spaces or commas), in order, each once.

    >>> [m.label for m in parse_measures("P@5, P@10 P@5")]
    ['P@5', 'P@10']
    """
    if type(text) is not str:
        raise InvalidInputError(f"--measures must be text such as 'P@10 nDCG@10 AP'; "
                                f"got {show(text)}")
    found = {}
    for part in text.replace(",", " ").split():
        measure = parse_measure(part)
        found.setdefault((measure.metric, measure.k), measure)
    if not found:
        raise InvalidInputError(f"--measures names no measure; got {show(text)}; known: "
                                f"{known_names()}")
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
    columns = {measure.label: counted.column(REGISTRY[measure.metric], k,
                                             na_as_zero=na_as_zero)
               for measure, k in zip(measures, ks)}
    summary = []
    for system in counted.systems:
        positions = counted.positions(system)  # every row, in order, when one system
        view = counted if len(positions) == len(counted) else counted.take(positions)
        slices = split_slices(view)  # the same slices at every cutoff
        for measure, k in zip(measures, ks):
            metric = REGISTRY[measure.metric]
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
