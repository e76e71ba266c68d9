"""Support on hand-made counts."""


def test_support_and_its_undefined_case(answer):
    assert answer("support", supported=1, claims=2, expected=3) == 0.5
    assert answer("support", supported=0, claims=2, expected=3) == 0.0
    assert answer("support", supported=0, claims=0, expected=3) is None
    assert answer("support", supported=0, claims=1, expected=0) == 0.0  # region A
