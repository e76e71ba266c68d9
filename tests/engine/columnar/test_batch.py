"""Column helpers of the batch reader, on hand-worked cases."""
import numpy as np

from ragscore.engine.columnar.batch import has_repeats


def test_lists_of_one_length_are_checked_row_by_row():
    # lists [5, 1, 9] [2, 2, 7]: the second holds 2 twice
    assert has_repeats(np.array([5, 1, 9, 2, 2, 7]), [3, 3])
    # lists [5, 1, 9] [2, 5, 7]: 5 twice overall, but once in each list
    assert not has_repeats(np.array([5, 1, 9, 2, 5, 7]), [3, 3])


def test_lists_of_several_lengths():
    # lists [4] [4, 8] [1, 3, 1]: the third holds 1 twice
    assert has_repeats(np.array([4, 4, 8, 1, 3, 1]), [1, 2, 3])
    # lists [4] [4, 8] [1, 3, 2]: no list repeats a code
    assert not has_repeats(np.array([4, 4, 8, 1, 3, 2]), [1, 2, 3])


def test_codes_too_large_for_32_bits_are_compared_whole():
    # 2**32 + 1 and 1 agree in their low 32 bits but are different codes
    assert not has_repeats(np.array([2 ** 32 + 1, 1]), [2])
    assert has_repeats(np.array([2 ** 32 + 1, 2 ** 32 + 1]), [2])


def test_the_callers_codes_are_left_as_they_were():
    codes = np.array([9, 3, 1, 7, 7, 2])
    has_repeats(codes, [3, 3])
    assert codes.tolist() == [9, 3, 1, 7, 7, 2]


def test_empty_and_single_item_lists():
    assert not has_repeats(np.zeros(0, dtype=np.int64), [])
    assert not has_repeats(np.array([3, 3]), [1, 1])  # each list holds one code
