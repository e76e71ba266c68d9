"""Exercise checks for the workbook's chapters."""


def check_yourself(answer, expected, *, tolerance=0.005):
    """Feedback on an exercise answer: a number (within ``tolerance``), a bool, ``None`` or text.

    >>> check_yourself(None, 0.5)
    'Not answered yet: replace None with your answer and run the cell again.'
    >>> check_yourself(0.5, 0.5)
    'Correct.'
    >>> check_yourself(1.0, 0.5)
    'Not quite: you gave 1.0. Look again at the denominator.'
    """
    if answer is None:
        return "Not answered yet: replace None with your answer and run the cell again."
    if isinstance(expected, bool) or not isinstance(expected, (int, float)):
        right = answer == expected
    else:
        right = isinstance(answer, (int, float)) and abs(answer - expected) <= tolerance
    if right:
        return "Correct."
    return f"Not quite: you gave {answer!r}. Look again at the denominator."
