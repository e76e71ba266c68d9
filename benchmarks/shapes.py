"""TREC qrels and run files of shapes unlike the project's own, generated from a seed.

    python benchmarks/shapes.py deep /tmp/shapes/deep-1x --scale 1
    python benchmarks/shapes.py msmarco /tmp/shapes/msmarco-4x --scale 4

Three shapes, each one system (one run file), lines grouped by question and each question's
lines by falling score, as retrieval systems write them (a tie keeps the system's own order,
so trec_eval's tie-break by docno has work to do):

- ``deep``: 50 questions (x ``scale``) ranking 10,000 documents each, TREC-disk docnos
  (``FBIS3-041236``), BM25-like scores with seven decimals; qrels graded 0 to 4 over a pool
  of 1,500 documents per question (most of them ranked).
- ``msmarco``: 1,750 questions (x ``scale``: 7,000 at 4x) ranking 1,000 passages each, MS
  MARCO v2 docnos (``msmarco_passage_31_1232419788``), scores rounded to three decimals
  (so neighbours tie now and then); qrels of 1 to 4 passages per question, graded 1 to 3.
- ``chunks``: 125,000 short questions (x ``scale``: 500,000 at 4x) ranking 10 chunks each,
  chunk IDs ``doc-123#chunk-4``, cosine scores rounded to four decimals; 1 to 3 relevant
  chunks per question, and one question in 20 has no qrels at all (a run's question the
  qrels do not judge).

Every file is a function of (shape, scale, seed) alone (numpy's ``default_rng``), so a
rerun writes the same bytes.
"""
import argparse
import json
import sys
from collections import namedtuple
from pathlib import Path

import numpy as np

__all__ = ["SHAPES", "Shape", "ensure_shape", "write_shape"]

Shape = namedtuple("Shape", "questions depth")
SHAPES = {"deep": Shape(50, 10_000), "msmarco": Shape(1_750, 1_000),
          "chunks": Shape(125_000, 10)}
SEED = 42
#: Lines written per piece (the files are written a block of questions at a time).
_BLOCK_LINES = 1 << 20


def _join(*columns):
    """Lines of the string arrays ``columns`` joined by spaces (numpy's char functions)."""
    line = columns[0]
    for column in columns[1:]:
        line = np.char.add(np.char.add(line, " "), column)
    return line


def _text(values):
    return np.asarray(values).astype(str)


def _deep_docnos(codes):
    prefixes = np.array(["FBIS3-", "FBIS4-", "FT921-", "FT934-", "LA0101", "FR9402"])
    return np.char.add(prefixes[codes % len(prefixes)], np.char.zfill(_text(codes // 6), 6))


def _msmarco_docnos(codes):
    shard = np.char.zfill(_text(codes % 70), 2)
    offset = _text(codes // 70 * 2_711 + 17)
    return np.char.add(np.char.add(np.char.add("msmarco_passage_", shard), "_"), offset)


def _chunk_docnos(codes):
    return np.char.add(np.char.add(np.char.add("doc-", _text(codes // 8)), "#chunk-"),
                       _text(codes % 8))


def _qids(shape, questions):
    numbers = np.arange(questions)
    if shape == "chunks":
        return np.char.add("query-", np.char.zfill(_text(numbers), 7))
    return _text(numbers + (1_000 if shape == "deep" else 1_000_000))


def _ranking(shape, rng, count, depth):
    """``(doc codes, scores as text)`` of ``count`` questions' rankings, flat, each
    question's scores falling (ties in the system's own order)."""
    if shape == "deep":
        corpus = 500_000
        docs = np.stack([rng.choice(corpus, depth, replace=False) for _ in range(count)])
        scores = np.sort(rng.gamma(2.0, 4.0, size=(count, depth)), axis=1)[:, ::-1]
        text = np.char.mod("%.7f", scores.ravel())
    elif shape == "msmarco":
        corpus = 138_000_000
        docs = rng.integers(0, corpus, size=(count, depth))
        scores = np.sort(np.round(rng.normal(40.0, 12.0, size=(count, depth)), 3), axis=1)[:, ::-1]
        text = np.char.mod("%.3f", scores.ravel())
    else:
        corpus = 8_000_000
        docs = rng.integers(0, corpus, size=(count, depth))
        scores = np.sort(np.round(rng.uniform(0.2, 0.95, size=(count, depth)), 4),
                         axis=1)[:, ::-1]
        text = np.char.mod("%.4f", scores.ravel())
    if shape != "deep":  # a repeated draw within a question: the next code along instead
        docs = np.sort(docs, axis=1)
        docs = docs + np.arange(depth)  # strictly increasing: distinct within a question
        docs = rng.permuted(docs, axis=1)
    return docs, text


def _qrels(shape, rng, ranked, depth):
    """``(judged doc codes, grades)`` per question: lists."""
    judged, grades = [], []
    for docs in ranked:
        if shape == "deep":
            pool = np.concatenate([docs[:1_200], rng.choice(500_000, 300, replace=False)])
            pool = np.unique(pool)[:1_500]
            rng.shuffle(pool)
            grade = rng.choice(5, size=len(pool), p=[0.6, 0.2, 0.1, 0.06, 0.04])
        elif shape == "msmarco":
            count = int(rng.integers(1, 5))
            inside = docs[rng.choice(depth, count, replace=False)]
            pool = np.where(rng.random(count) < 0.6, inside, rng.integers(0, 138_000_000, count)
                            + 138_000_000)
            pool = np.unique(pool)
            grade = rng.integers(1, 4, size=len(pool))
        else:
            count = int(rng.integers(1, 4))
            inside = docs[rng.choice(depth, count, replace=False)]
            pool = np.unique(np.where(rng.random(count) < 0.7, inside,
                                      rng.integers(0, 8_000_000, count) + 8_000_000))
            grade = np.ones(len(pool), dtype=np.int64)
        judged.append(pool)
        grades.append(grade)
    return judged, grades


def write_shape(shape, folder, *, scale=1, seed=SEED, questions=None):
    """Write ``qrels.txt`` and ``run.txt`` of ``shape`` at ``scale`` in ``folder`` (the
    shape's number of questions, or ``questions``, times ``scale``); return
    ``{"questions", "run_lines", "qrels_lines"}``."""
    size = SHAPES[shape]
    questions, depth = (questions or size.questions) * scale, size.depth
    docnos = {"deep": _deep_docnos, "msmarco": _msmarco_docnos, "chunks": _chunk_docnos}[shape]
    rng = np.random.default_rng([seed, list(SHAPES).index(shape)])
    qids = _qids(shape, questions)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    block = max(1, _BLOCK_LINES // depth)
    lines = qrels_lines = 0
    with open(folder / "run.txt", "w", encoding="ascii") as run, \
            open(folder / "qrels.txt", "w", encoding="ascii") as qrels:
        for start in range(0, questions, block):
            count = min(block, questions - start)
            docs, scores = _ranking(shape, rng, count, depth)
            ranks = np.tile(_text(np.arange(1, depth + 1)), count)
            names = np.repeat(qids[start:start + count], depth)
            run.write("\n".join(_join(names, np.full(len(names), "Q0"), docnos(docs.ravel()),
                                      ranks, scores, np.full(len(names), shape))) + "\n")
            lines += len(names)
            judged, grades = _qrels(shape, rng, docs, depth)
            for offset, (pool, grade) in enumerate(zip(judged, grades)):
                if shape == "chunks" and (start + offset) % 20 == 19:
                    continue  # a question the qrels do not judge
                qrels.write("".join(f"{qids[start + offset]} 0 {doc} {value}\n"
                                    for doc, value in zip(docnos(pool), grade.tolist())))
                qrels_lines += len(pool)
    return {"questions": questions, "run_lines": lines, "qrels_lines": qrels_lines}


def ensure_shape(shape, folder, *, scale=1, seed=SEED, questions=None):
    """:func:`write_shape` unless ``folder`` already holds the same shape, scale and seed
    (``shape.json``, written last, says so); return its sizes."""
    folder = Path(folder)
    stamp = folder / "shape.json"
    wanted = {"shape": shape, "scale": scale, "seed": seed, "generator": 1,
              "base": questions or SHAPES[shape].questions}
    try:
        found = json.loads(stamp.read_text())
        if {key: found.get(key) for key in wanted} == wanted:
            return found
    except (OSError, ValueError):
        pass
    stamp.unlink(missing_ok=True)
    sizes = {**wanted, **write_shape(shape, folder, scale=scale, seed=seed,
                                     questions=questions)}
    stamp.write_text(json.dumps(sizes) + "\n")
    return sizes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shape", choices=SHAPES)
    parser.add_argument("folder")
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--questions", type=int, default=None,
                        help="questions at 1x (default: the shape's own)")
    args = parser.parse_args(argv)
    print(json.dumps(ensure_shape(args.shape, args.folder, scale=args.scale, seed=args.seed,
                                  questions=args.questions)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
