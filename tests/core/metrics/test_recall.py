"""R@k on hand-worked cases."""

RELEVANT = {"rollback", "checklist"}


def test_recall_divides_by_relevant_count(at):
    assert at("recall", ("rollback",), RELEVANT, 2) == 0.5
    assert at("recall", ("checklist", "rollback"), RELEVANT, 2) == 1.0
    assert at("recall", ("archive", "rollback", "checklist"), RELEVANT, 2) == 0.5
    assert at("recall", ("archive", "rollback", "checklist"), RELEVANT, 3) == 1.0
    assert at("recall", (), RELEVANT, 2) == 0.0


def test_recall_is_none_without_relevant_documents(at):
    assert at("recall", ("archive",), set(), 2) is None
    assert at("recall", (), frozenset(), 1) is None


def test_recall_never_falls_as_k_grows(at):
    ranked = ("d", "a", "c", "b")
    for relevant in ({"a"}, {"b", "c"}, {"a", "b", "c"}):
        values = [at("recall", ranked, relevant, k) for k in range(1, 6)]
        assert values == sorted(values)
