"""pandas tables built from the core's counts: per-question scores, comparisons, summaries."""
