"""The course test set: five fictional notes, four questions and two recorded systems.

The data lives in ``fixtures/course/`` at the top of the repository, in the dataset format
of :mod:`ragscore.dataset`. Systems A and B are hand-authored outputs chosen to make the
scoring rules visible; they are not measurements of any real model or retriever.
"""
from pathlib import Path

from .dataset import load_dataset

COURSE_PATH = Path(__file__).resolve().parent.parent / "fixtures" / "course"


def load_course():
    """Load the course dataset from ``fixtures/course/``.

    >>> course = load_course()
    >>> list(course.cases)
    ['launch', 'rollback', 'owner', 'region']
    """
    return load_dataset(COURSE_PATH)
