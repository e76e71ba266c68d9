"""Coverage on hand-made counts."""


def test_coverage_and_its_undefined_case(answer):
    assert answer("coverage", supported=1, claims=1, expected=3) == 1 / 3
    assert answer("coverage", supported=3, claims=4, expected=3) == 1.0
    assert answer("coverage", supported=0, claims=0, expected=2) == 0.0  # answerable, abstained
    assert answer("coverage", supported=0, claims=0, expected=0) is None
