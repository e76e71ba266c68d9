"""trec_eval's order of a run's rows (score as a C float descending, then docno bytes
descending), found by comparing docnos only where scores tie: held to Python's sort of the
same rows (an independent oracle: ``sorted`` with trec_eval's key, stable)."""
import random
import struct

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from ragscore.engine.columnar.arrow import numbers
from ragscore.engine.columnar.trec import trec_order


def _c_float(value):
    return struct.unpack("f", struct.pack("f", value))[0]


def _order(questions, scores, docnos, *, file_order=True):
    """The rows of each question as ``trec_order`` leaves them, as lists of row numbers."""
    encoded = pc.dictionary_encode(pa.array(docnos, pa.string()))
    codes, values = numbers(encoded.indices), encoded.dictionary
    keys = np.array(questions, dtype=np.int64)
    order = None if file_order else np.argsort(keys, kind="stable")
    grouped = keys if order is None else keys[order]
    starts = np.concatenate([[0], np.flatnonzero(grouped[1:] != grouped[:-1]) + 1])
    found = trec_order(order, keys, np.array(scores, dtype=np.float64).astype(np.float32),
                       codes, values, starts)
    rows = np.arange(len(keys)) if found is None else found
    return rows.tolist(), found is None


def _oracle(questions, scores, docnos, *, file_order=True):
    """Each question's rows sorted by Python, questions in order of first appearance (or,
    when their lines were apart, by their key, as the reader groups them)."""
    firsts = list(dict.fromkeys(questions)) if file_order else sorted(set(questions))
    rows = sorted(range(len(questions)), key=lambda row: (
        firsts.index(questions[row]), -_c_float(scores[row]),
        tuple(-byte for byte in docnos[row].encode("utf-8")) + (1,)))
    return rows


def test_tied_neighbours_in_docno_order_leave_the_file_as_it_is():
    # q0: 3.0 d9, then 2.0 twice with d5 before d10 (bytes: "d5" > "d10", so in order)
    rows, untouched = _order([0, 0, 0], [3.0, 2.0, 2.0], ["d9", "d5", "d10"])
    assert (rows, untouched) == ([0, 1, 2], True)


def test_tied_neighbours_out_of_docno_order_are_swapped_and_nothing_else_moves():
    # q0: 3.0 a; 2.0 b, 2.0 c (c before b: "c" > "b"); 1.0 z. q1: 5.0 x, 5.0 y (y first)
    rows, untouched = _order([0, 0, 0, 0, 1, 1], [3.0, 2.0, 2.0, 1.0, 5.0, 5.0],
                             ["a", "b", "c", "z", "x", "y"])
    assert (rows, untouched) == ([0, 2, 1, 3, 5, 4], False)


def test_scores_out_of_order_and_ties_apart_are_sorted():
    # 0.50000001 and 0.5 are one C float: a tie broken by docno ("b" before "a")
    rows, _ = _order([7, 7, 7, 7], [0.5, 2.0, 0.50000001, 9.0], ["a", "m", "b", "k"])
    assert rows == [3, 1, 2, 0]


def test_a_docno_listed_twice_keeps_its_lines_in_order():
    rows, _ = _order([0, 0, 0], [1.0, 1.0, 1.0], ["d1", "d2", "d1"])
    assert rows == [1, 0, 2]


@pytest.mark.parametrize("seed", range(40))
def test_random_runs_match_python_s_sort(seed):
    rng = random.Random(seed)
    questions, scores, docnos = [], [], []
    for question in rng.sample(range(50), rng.randint(1, 6)):
        depth = rng.randint(1, 30)
        for _ in range(depth):
            questions.append(question)
            scores.append(rng.choice([round(rng.uniform(0, 3), 1), -0.0, 0.0, 1e-46,
                                      float("inf"), -float("inf"), 16777217.0, 16777216.0]))
            docnos.append(rng.choice(["d1", "d10", "d2", "\u00e9", "e", "z\u0100", "z\u00ff",
                                      f"x{rng.randint(0, 9)}"]))
    if seed % 2:  # questions' lines apart: grouped first
        shuffled = list(range(len(questions)))
        rng.shuffle(shuffled)
        questions = [questions[row] for row in shuffled]
        scores = [scores[row] for row in shuffled]
        docnos = [docnos[row] for row in shuffled]
        rows, _ = _order(questions, scores, docnos, file_order=False)
        assert rows == _oracle(questions, scores, docnos, file_order=False)
    else:
        rows, _ = _order(questions, scores, docnos)
        assert rows == _oracle(questions, scores, docnos)
