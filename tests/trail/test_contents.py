"""Read outputs of every agent, stripped of their line-number gutters."""

from __future__ import annotations

from artifact_index.trail.contents import parse_read_output


def test_claude_code_gutter_and_system_reminder() -> None:
    out = "     1→import os\n     2→\n     3→def main():\n     4→    pass\n     5→\n\n<system-reminder>\nWhenever you read a file...\n</system-reminder>\n"
    window = parse_read_output(out, whole_file_hint=True)
    assert window is not None
    assert window.lines == ("import os", "", "def main():", "    pass", "")
    assert window.is_whole_file
    assert window.text() == "import os\n\ndef main():\n    pass\n"


def test_claude_code_shows_the_final_newline_as_an_empty_last_line() -> None:
    # Claude Code numbers the pieces of content.split("\n"), in its older arrow
    # gutter and in its newer unpadded tab gutter alike.
    for out in ("     1→a\n     2→b", "1\ta\n2\tb"):
        window = parse_read_output(out, whole_file_hint=True)
        assert window is not None and window.text() == "a\nb"  # no final newline
    for out in ("     1→a\n     2→b\n     3→", "1\ta\n2\tb\n3\t"):
        window = parse_read_output(out, whole_file_hint=True)
        assert window is not None and window.text() == "a\nb\n"


def test_cat_n_numbers_real_lines() -> None:
    window = parse_read_output("     1\ta\n     2\tb\n", whole_file_hint=True)
    assert window is not None and window.is_whole_file and window.text() == "a\nb\n"


def test_a_clipped_editor_view_is_not_the_whole_file() -> None:
    out = (
        "Here's the result of running `cat -n` on /testbed/a.py:\n     1\tdef f():\n     2\t    return 1\n"
        "     3\t    @datacl   <response clipped><NOTE>To save on context only part of this file has been "
        "shown to you.</NOTE>\n"
    )
    window = parse_read_output(out, whole_file_hint=True)
    assert window is not None
    assert (window.lines, window.is_whole_file) == (("def f():", "    return 1"), False)


def test_an_editor_view_of_the_whole_file_keeps_its_final_newline() -> None:
    out = "Here's the result of running `cat -n` on /testbed/a.py:\n     1\tx = 1\n     2\t\n"
    window = parse_read_output(out, whole_file_hint=True)
    assert window is not None and window.is_whole_file and window.text() == "x = 1\n"


def test_cat_n_window_from_an_offset_is_partial() -> None:
    out = "Here's the result of running `cat -n` on /testbed/a.py:\n    10\tx = 1\n    11\ty = 2\n"
    window = parse_read_output(out)
    assert window is not None
    assert (window.start, window.end, window.is_whole_file) == (10, 11, False)


def test_swe_agent_window_with_total() -> None:
    out = "[File: /repo/setup.py (3 lines total)]\n1:import re\n2:\n3:setup()\n"
    window = parse_read_output(out)
    assert window is not None
    assert window.lines == ("import re", "", "setup()")
    assert window.is_whole_file


def test_swe_agent_partial_window() -> None:
    out = "[File: /repo/big.py (500 lines total)]\n(99 more lines above)\n100:a\n101:b\n(399 more lines below)\n"
    window = parse_read_output(out)
    assert window is not None
    assert (window.start, window.lines, window.is_whole_file) == (100, ("a", "b"), False)


def test_opencode_content_block() -> None:
    out = "<path>/x/a.ts</path>\n<type>file</type>\n<content>\n1: import a\n2: export {}\n\n(End of file - total 2 lines)\n</content>"
    window = parse_read_output(out)
    assert window is not None
    assert window.lines == ("import a", "export {}")
    assert window.is_whole_file


def test_output_without_a_gutter_is_not_guessed() -> None:
    assert parse_read_output("just some text\nwith lines\n") is None
    assert parse_read_output("") is None
