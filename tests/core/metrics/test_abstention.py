"""Correct abstention on hand-made counts."""


def test_abstention_only_defined_on_unanswerable_cases(answer):
    assert answer("abstention_correct", supported=0, claims=0, expected=0) is True
    assert answer("abstention_correct", supported=0, claims=1, expected=0) is False
    assert answer("abstention_correct", supported=0, claims=0, expected=3) is None
    assert answer("abstention_correct", supported=1, claims=1, expected=3) is None
