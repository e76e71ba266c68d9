"""Root pytest configuration: notebook sources are not test modules."""
collect_ignore_glob = ["notebooks/*.py", "benchmarks/*.py", "tools/*.py", ".venv/*", "build/*"]
