"""sed scripts applied to known text, and the exact edits that follow."""

from __future__ import annotations

import pytest

from artifact_index.shell.sed import apply_sed, minimal_edit

from .helpers import analyze, effects, only

TEXT = "import os\nx = 1\ny = 2\nprint(x + y)\n"


@pytest.mark.parametrize(
    ("scripts", "extended", "expected"),
    [
        (["s/x = 1/x = 10/"], False, "import os\nx = 10\ny = 2\nprint(x + y)\n"),
        (["s/x/z/g"], False, "import os\nz = 1\ny = 2\nprint(z + y)\n"),
        (["s/x/z/"], False, "import os\nz = 1\ny = 2\nprint(z + y)\n"),
        (["2s/1/one/"], False, "import os\nx = one\ny = 2\nprint(x + y)\n"),
        (["2d"], False, "import os\ny = 2\nprint(x + y)\n"),
        (["/^y/d"], False, "import os\nx = 1\nprint(x + y)\n"),
        (["2,3d"], False, "import os\nprint(x + y)\n"),
        (["1i\\import sys"], False, "import sys\nimport os\nx = 1\ny = 2\nprint(x + y)\n"),
        (["$a\\# end"], False, "import os\nx = 1\ny = 2\nprint(x + y)\n# end\n"),
        (["3c\\y = 3"], False, "import os\nx = 1\ny = 3\nprint(x + y)\n"),
        (
            ["s/\\(x\\) = \\([0-9]\\)/\\1 := \\2/"],
            False,
            "import os\nx := 1\ny = 2\nprint(x + y)\n",
        ),
        (["s/(x) = ([0-9])/\\2 =: \\1/"], True, "import os\n1 =: x\ny = 2\nprint(x + y)\n"),
        (["s/print(.*)/&  # done/"], False, "import os\nx = 1\ny = 2\nprint(x + y)  # done\n"),
        (["s|os|sys|", "s/y = 2/y = 3/"], False, "import sys\nx = 1\ny = 3\nprint(x + y)\n"),
        (["s/[[:space:]]*=[[:space:]]*/=/g"], False, "import os\nx=1\ny=2\nprint(x + y)\n"),
    ],
)
def test_supported_scripts(scripts: list[str], extended: bool, expected: str) -> None:
    assert apply_sed(TEXT, scripts, extended=extended) == expected


@pytest.mark.parametrize(
    "script", ["s/x/\\U&/", "h;G", "/x/,/y/d", "s/x/y/w out.txt", "s//y/", "2s/x/y/3"]
)
def test_unsupported_scripts_give_no_text(script: str) -> None:
    assert apply_sed(TEXT, [script]) is None


def test_minimal_edit_is_unique_in_the_old_text() -> None:
    before = "a\nb\na\nc\n"
    after = "a\nb\na\nC\n"
    old, new = minimal_edit(before, after)
    assert (old, new) == ("c\n", "C\n")
    old, new = minimal_edit("x\nx\nx\n", "x\ny\nx\n")
    assert before.count(old) <= 1 and "x\nx\nx\n".replace(old, new, 1) == "x\ny\nx\n"


def test_sed_on_a_file_with_known_text_is_an_exact_edit() -> None:
    op = only(analyze("sed -i 's/x = 1/x = 10/' a.py", files={"/w/a.py": TEXT}), "edit")
    assert (op.old, op.new) == ("x = 1\n", "x = 10\n")


def test_a_script_adjusted_with_sed_is_still_analyzed() -> None:
    result = analyze(
        "cat > fix.py <<'EOF'\nopen('draft.txt', 'w')\nEOF\nsed -i 's/draft/final/' fix.py && python fix.py"
    )
    assert effects(result) == [("write", "fix.py"), ("edit", "fix.py"), ("write", "final.txt")]


def test_sed_that_matches_nothing_in_known_text_changes_nothing() -> None:
    assert analyze("sed -i 's/absent/x/' a.py", files={"/w/a.py": TEXT}).operations == []


def test_quantified_groups_are_not_run() -> None:
    # `\(a*\)*b` backtracks exponentially on a long line of a's; it is left unmodelled.
    assert apply_sed("a" * 200 + "\n", ["s/\\(a*\\)*b/x/"]) is None
