"""How a count is declared (:class:`CountField`): the table of every count,
:data:`ragscore.core.counts.COUNT_FIELDS`, is written in those terms. Standard library only.
"""
from collections import namedtuple

__all__ = ["CASE", "FLAT", "REQUIRED", "ROW", "CountField", "field_defaults"]

#: How a count is laid out in columns (:class:`CountField`): one value per row (a run), a list
#: per row, or a list per case.
ROW, FLAT, CASE = "row", "flat", "case"
#: The default of a count that every :class:`~ragscore.core.counts.Counts` must be given.
REQUIRED = "required"


class CountField(namedtuple("CountField", "name shape dtype default columns present batch",
                            defaults=(None, False))):
    """One count, declared once: a field of :class:`~ragscore.core.counts.Counts` and the
    columns the columnar engine holds it in (:mod:`ragscore.engine.columnar.layout` derives
    its columns, the batch's fields and the bulk reader's defaults from these declarations).

    ``shape``: :data:`ROW` (``columns`` hold one value per row, or several for a tuple),
    :data:`FLAT` (a list per row, ascending: ``columns[0]`` names each item's row, the rest
    hold its values, one column for plain values and several for tuples) or :data:`CASE` (a
    list per case, as laid out: ``columns[0]`` names each item's case). ``dtype``: the numpy
    type of the values. ``default``: the field's default in
    :class:`~ragscore.core.counts.Counts` (:data:`REQUIRED`: none). ``present``: the per-row
    flag column that is false where the count is ``None`` (its value columns may still hold what the engine reads there:
    ``answerability`` holds every question's state, stated or implied by its labels);
    ``None`` when it always holds a value. ``batch``: the batch carries
    the count per row as it is, counted as the batch is built (else a kernel counts it).
    """

    __slots__ = ()


def field_defaults(fields):
    """The defaults of the trailing fields that have one (a namedtuple's ``defaults``)."""
    required = [place for place, field in enumerate(fields) if field.default == REQUIRED]
    tail = fields[max(required) + 1 if required else 0:]
    return tuple(field.default for field in tail)
