"""RR@k on hand-worked cases."""


def test_reciprocal_rank_uses_first_hit_within_k(at):
    assert at("rr", ("archive", "owners"), {"owners"}, 2) == 0.5
    assert at("rr", ("archive", "owners"), {"owners"}, 1) == 0.0
    assert at("rr", ("a", "b", "owners"), {"owners"}, 3) == 1 / 3
    assert at("rr", ("owners", "archive"), {"owners", "archive"}, 2) == 1.0
    assert at("rr", (), {"owners"}, 2) == 0.0


def test_rr_is_none_without_relevant_documents(at):
    assert at("rr", ("archive",), set(), 2) is None
    assert at("rr", (), frozenset(), 1) is None
