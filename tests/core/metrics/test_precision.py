"""P@k on hand-worked cases."""

RELEVANT = {"rollback", "checklist"}


def test_precision_keeps_k_as_denominator(at):
    assert at("precision", ("rollback",), RELEVANT, 2) == 0.5
    assert at("precision", ("rollback",), RELEVANT, 1) == 1.0
    assert at("precision", ("rollback",), RELEVANT, 4) == 0.25
    assert at("precision", ("archive", "rollback", "checklist"), RELEVANT, 2) == 0.5
    assert at("precision", (), RELEVANT, 3) == 0.0


def test_precision_is_none_without_relevant_documents(at):
    assert at("precision", ("archive",), set(), 2) is None
    assert at("precision", (), frozenset(), 1) is None
