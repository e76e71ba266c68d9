"""The scoring core: rules and validation, per-question counts, the metric registry, scoring
and aggregates. Standard library only; every layer above builds on it."""
