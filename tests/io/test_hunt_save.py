"""Hunting save_dataset with generated junk in every field of a Dataset: it raises the
package's ValueError with a clear message and writes nothing, or it writes a folder that
loads back equal."""
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ragscore
from ragscore.core.rules import InvalidInputError

COURSE = ragscore.load_course()
ids = st.sampled_from(["launch", "owners", "archive", "ghost", "Bad ID", "\x1b[2J"])
scalar = st.one_of(st.none(), st.booleans(), st.integers(-2, 3), st.floats(), ids,
                   st.text(max_size=5))
junk = st.recursive(scalar, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(st.one_of(ids, st.integers()), inner, max_size=3)), max_leaves=8)
FIELDS = ("corpus", "cases", "runs", "name", "description", "ids", "min_relevance", "sources",
          "versions", "notes")


@settings(max_examples=300, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(field=st.sampled_from(FIELDS), value=junk, inner=st.booleans())
def test_save_refuses_junk_or_round_trips(field, value, inner):
    if inner and field in ("corpus", "cases", "runs", "sources", "versions"):
        # junk one level down: one entry of the mapping replaced
        original = getattr(COURSE, field) or {"launch": "x"}
        value = dict(original, **{next(iter(original)): value})
    dataset = COURSE._replace(**{field: value})
    with tempfile.TemporaryDirectory() as root:
        target = Path(root) / "out"
        try:
            ragscore.save_dataset(dataset, target)
        except InvalidInputError as error:
            message = str(error)
            assert message and len(message) < 2000 and message.isprintable(), message
            assert not target.exists() and list(Path(root).iterdir()) == []
        else:
            assert ragscore.load_dataset(target) == ragscore.load_dataset(target)
