"""Edits of a JSON file's text: one member or item added or removed, everything else as it was written."""

from __future__ import annotations

import difflib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from summarizer.integrations import json_text

HAND_KEPT = """{
    "model": "opus",
    "permissions": {"allow": ["Bash(ls)", "Read"]},

    "hooks": {
        "PreToolUse": [
            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "lint" } ] }
        ],
        "SessionStart": []
    },
    "env": {"LANG": "fr_FR.UTF-8", "NOTE": "déjà vu"}
}"""

GROUP = {"matcher": "compact", "hooks": [{"type": "command", "command": "x hook"}]}


def _hooks(text: str) -> json_text.Node:
    member = json_text.parse(text).member("hooks")
    assert member is not None
    return member.value


def _event(text: str, name: str) -> json_text.Node:
    member = _hooks(text).member(name)
    assert member is not None
    return member.value


def test_additions_take_their_neighbours_indentation_and_removals_give_back_the_original() -> None:
    text = json_text.append_item(HAND_KEPT, _event(HAND_KEPT, "PreToolUse"), GROUP)
    text = json_text.append_item(text, _event(text, "SessionStart"), GROUP)
    text = json_text.add_member(text, _hooks(text), "PostCompact", [GROUP])
    assert json.loads(text)["hooks"]["PostCompact"] == [GROUP]
    assert json.loads(text)["hooks"]["PreToolUse"][1] == GROUP
    lines = text.splitlines()
    # The new group is indented as the one beside it, in the file's own four-space step.
    assert (
        '            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "lint" } ] },'
        in lines
    )
    assert '                "matcher": "compact",' in lines
    assert '        "PostCompact": [' in lines
    # Nothing else changed: the only lines gone are the ones a comma or a first item joined.
    removed = [
        line[2:] for line in difflib.ndiff(HAND_KEPT.splitlines(), lines) if line.startswith("- ")
    ]
    assert removed == [
        '            { "matcher": "Bash", "hooks": [ { "type": "command", "command": "lint" } ] }',
        '        "SessionStart": []',
    ]

    text = json_text.remove_member(text, _hooks(text), "PostCompact")
    text = json_text.remove_item(text, _event(text, "SessionStart"), 0)
    text = json_text.remove_item(text, _event(text, "PreToolUse"), 1)
    assert text == HAND_KEPT


def test_a_one_line_array_stays_on_one_line() -> None:
    allow = json_text.parse(HAND_KEPT).member("permissions")
    assert allow is not None
    array = allow.value.member("allow")
    assert array is not None
    text = json_text.append_item(HAND_KEPT, array.value, "Write")
    assert '"permissions": {"allow": ["Bash(ls)", "Read", "Write"]},' in text.splitlines()[2]


def test_the_indentation_step_is_the_files_own() -> None:
    assert json_text.indent_unit(HAND_KEPT) == "    "
    assert json_text.indent_unit('{\n\t"a": 1\n}') == "\t"
    assert json_text.indent_unit('{"a": 1}') == "  "


_KEYS = st.text(alphabet="abcdef", min_size=1, max_size=3)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    document=st.dictionaries(_KEYS, _VALUES, max_size=4),
    indent=st.sampled_from([None, 2, 4, "\t"]),
    key=_KEYS,
    value=_VALUES,
)
def test_adding_then_removing_a_member_gives_back_any_document_byte_for_byte(
    document: dict[str, object], indent: int | str | None, key: str, value: object
) -> None:
    text = json.dumps(document, indent=indent)
    if key in document:
        return
    added = json_text.add_member(text, json_text.parse(text), key, value)
    assert json.loads(added) == {**document, key: value}
    assert json_text.remove_member(added, json_text.parse(added), key) == text
