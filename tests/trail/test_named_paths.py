"""An error names a file when the path stands alone in its words: the same answer as the pattern it replaces."""

from __future__ import annotations

import random
import re

import pytest

from artifact_index.trail.index import _stands_alone


@pytest.mark.parametrize(
    ("wanted", "text", "named"),
    [
        ("app.py", "File app.py, line 3", True),
        ("app.py", "File myapp.py, line 3", False),  # a longer name that ends the same
        ("app.py", "see .app.py", False),
        ("app.py", "see -app.py", False),
        ("app.py", "app.py-backup", False),
        ("app.py", "app.py.bak", True),  # a dot after the name ends it
        ("app.py", "in app.pyc and in app.py", True),  # the second one stands alone
        ("a.go", "ß/a.go", True),
        ("a.go", "éa.go", False),  # a letter of any alphabet is a word character
        ("a.go", "٣a.go", False),  # so is a digit of any script
        ("", "x", False),  # nowhere in "x" is there no word character on either side
        ("", " ", True),
        ("", "", True),
    ],
)
def test_a_path_is_named_only_where_it_stands_alone(wanted: str, text: str, named: bool) -> None:
    assert _stands_alone(wanted, text) is named


def test_the_answer_is_the_lookaround_patterns_on_random_texts() -> None:
    pieces = ["a", "b", ".", "-", "_", "/", " ", "é", "٣", "\n", "x.py", "a-b"]
    chosen = random.Random(7)
    for _ in range(5_000):
        text = "".join(chosen.choice(pieces) for _ in range(chosen.randint(0, 12)))
        wanted = "".join(chosen.choice(pieces) for _ in range(chosen.randint(0, 3)))
        pattern = rf"(?<![\w.-]){re.escape(wanted)}(?![\w-])"
        assert _stands_alone(wanted, text) is (re.search(pattern, text) is not None), (wanted, text)
