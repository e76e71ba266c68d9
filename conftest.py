"""Root pytest configuration: notebook sources are not test modules; text output is read
as a pipe reads it, whatever the terminal that started the tests."""
import os

collect_ignore_glob = ["notebooks/*.py", "benchmarks/*.py", "tools/*.py", ".venv/*", "build/*"]

# Text commands wrap at $COLUMNS (ragscore/render/width.py); a test reads their output unwrapped
# unless it asks for a width, whatever terminal started it.
os.environ.pop("COLUMNS", None)
