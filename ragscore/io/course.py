"""The course test set: five fictional notes, four questions and two recorded systems.

The data ships inside the package (``ragscore/data/course/``), so an installed wheel runs
``ragscore demo`` from any folder; ``fixtures/course`` in a checkout points at the same
files. Systems A and B are hand-authored outputs chosen to make the scoring rules visible,
not measurements of any real model or retriever.
"""
import os
from pathlib import Path

from .read import load_dataset


def _course_folder():
    """The course files on disk: beside this package, or through :mod:`importlib.resources`
    when the package is not a plain folder (only then is that module loaded)."""
    here = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "course")
    if os.path.isdir(here):
        return Path(here)
    from importlib.resources import files

    return Path(str(files("ragscore") / "data" / "course"))


#: The folder holding the course dataset files.
COURSE_PATH = _course_folder()


def load_course():
    """Load the course dataset.

    >>> course = load_course()
    >>> list(course.cases)
    ['launch', 'rollback', 'owner', 'region']
    """
    return load_dataset(COURSE_PATH)
