"""Synthetic test sets for benchmarks: deterministic, seeded, sized like a real evaluation."""
import random


def _make_run(rng, rel, support, doc_ids, *, retrieved, max_claims):
    """One system's recorded run on one case: a shuffled ranking and up to ``max_claims``."""
    pool = list(rel) + rng.sample(doc_ids, retrieved)
    ranked = tuple(dict.fromkeys(rng.sample(pool, len(pool))))[:retrieved]
    claims = []
    for j in range(rng.randint(0, max_claims)):
        labelled = support.get(f"c{j}", rel[:1])
        draw = rng.random()
        if draw < 0.6:    # the labelled source (visible or not)
            cited = labelled
        elif draw < 0.85:  # some retrieved document
            cited = (rng.choice(ranked),)
        else:              # the labelled source plus an unlabelled one
            cited = labelled + (rng.choice(ranked),)
        claims.append((f"c{j}", tuple(dict.fromkeys(cited))))
    return {"retrieved": ranked, "claims": tuple(claims)}


def make_synthetic(*, cases=100_000, corpus_size=100_000, retrieved=20, max_claims=5,
                   relevant=(1, 5), seed=7, systems=("sys",)):
    """Return ``(corpus, cases, runs)`` with one run per case for each name in ``systems``.

    Every case is answerable, with 1 to 5 relevant documents, all shuffled into the run's
    ``retrieved`` distinct documents; each run makes up to ``max_claims`` claims, most citing
    their labelled source, some citing another retrieved document or one too many.

    By default there is one system, ``"sys"``; ``systems=("A", "B")`` gives two independent
    runs per case (drawn one after the other from the same seeded generator, so the default
    single-system data is unchanged by this option).
    """
    rng = random.Random(seed)
    doc_ids = [f"d{n}" for n in range(corpus_size)]
    corpus = {doc: "text" for doc in doc_ids}
    case_table, runs = {}, {}
    for number in range(cases):
        name = f"q{number}"
        rel = tuple(rng.sample(doc_ids, rng.randint(*relevant)))
        support = {f"c{j}": (rel[j % len(rel)],) for j in range(rng.randint(1, max_claims))}
        case_table[name] = {"relevant": rel, "support": support}
        runs[name] = {system: _make_run(rng, rel, support, doc_ids, retrieved=retrieved,
                                        max_claims=max_claims)
                      for system in systems}
    return corpus, case_table, runs
