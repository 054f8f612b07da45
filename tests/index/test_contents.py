"""Read outputs of every agent, stripped of their line-number gutters."""

from __future__ import annotations

from artifact_index.contents import parse_read_output


def test_claude_code_gutter_and_system_reminder() -> None:
    out = "     1→import os\n     2→\n     3→def main():\n     4→    pass\n\n<system-reminder>\nWhenever you read a file...\n</system-reminder>\n"
    window = parse_read_output(out, whole_file_hint=True)
    assert window is not None
    assert window.lines == ("import os", "", "def main():", "    pass")
    assert window.is_whole_file
    assert window.text() == "import os\n\ndef main():\n    pass\n"


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
