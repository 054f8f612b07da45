"""Candidate decisions: explicit choices, rejected alternatives, root causes; nothing else."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from artifact_index.facts import decisions
from artifact_index.facts.decisions import KnownPaths, extract_decisions


def test_choice_root_cause_and_rejected_alternative() -> None:
    text = (
        "I looked at the failing test. The root cause is that `create_token` never sets the `exp` claim.\n"
        "I'll use a Redis connection pool instead of opening a connection per request in config/redis.ts.\n"
        "Let me run the tests now."
    )
    found = extract_decisions(text, turn=7, known_paths=["src/config/redis.ts", "auth.py"])
    assert [(d.kind, d.turn) for d in found] == [("root-cause", 7), ("rejected-alternative", 7)]
    assert found[0].symbols == ["create_token", "exp"]
    assert found[1].files == ["src/config/redis.ts"]


def test_questions_hedges_and_code_are_not_decisions() -> None:
    text = "Should I use Redis instead of Memcached?\nMaybe we could go with Redis.\n```python\n# decided to use x instead of y\n```"
    assert extract_decisions(text, turn=1) == []


def test_behaviour_described_with_instead_of_is_not_a_decision() -> None:
    text = (
        "It returns None instead of raising a KeyError.\n"
        "On commit, both sessions are being condensed instead of just Session 2.\n"
        "We should raise `ValueError` instead of returning None."
    )
    assert [d.text for d in extract_decisions(text, turn=1)] == [
        "We should raise `ValueError` instead of returning None."
    ]


def test_choosing_a_tool_for_the_next_step_is_not_a_decision() -> None:
    text = (
        "I'll use `sed` to fix line 622.\nLet's use find_file to see where it is.\n"
        "THOUGHT: I will use a python script to rewrite the file.\nWe'll keep similar style.\n"
        "I'll use `exec.CommandContext` so the hook can be cancelled."
    )
    assert [(d.kind, d.text) for d in extract_decisions(text, turn=1)] == [
        ("choice", "I'll use `exec.CommandContext` so the hook can be cancelled.")
    ]


def test_tables_quotes_and_empty_root_causes_are_skipped() -> None:
    text = (
        "| #1368 | Real problem, but overbuilt |\n"
        'The PR says "instead of an AttributeError I think we should raise IndexError".\n'
        "Found the root cause.\nRoot cause verified end-to-end.\n"
        "Alternatively, perhaps it should check the process rather than the state file."
    )
    assert extract_decisions(text, turn=1) == []


def test_a_root_cause_heading_takes_the_line_after_it() -> None:
    text = 'Root cause of "trailer added but no checkpoint":\n- the hook exits before writing the checkpoint\n'
    [decision] = extract_decisions(text, turn=3)
    assert decision.kind == "root-cause"
    assert (
        decision.text
        == 'Root cause of "trailer added but no checkpoint": the hook exits before writing the checkpoint'
    )


def test_files_are_named_by_path_or_distinctive_base_name_only() -> None:
    text = "The root cause is that src/auth.py reads `exp` before b.py sets it."
    [decision] = extract_decisions(
        text, turn=1, known_paths=[".", "b.py", "lib/src/auth.py", "auth.pyc", "a"]
    )
    assert decision.files == ["lib/src/auth.py", "b.py"]


def test_the_next_step_of_the_work_is_not_a_decision() -> None:
    text = (
        "I’ll continue to wait rather than doing competing edits in the main checkout.\n"
        "I’ll verify against the local fork rather than infer from the previous summary.\n"
        "I’m going to put it on a small branch instead of pushing directly to `main`."
    )
    assert [d.text for d in extract_decisions(text, turn=1)] == [
        "I’m going to put it on a small branch instead of pushing directly to `main`."
    ]


def _named_by_rule(sentence: str, path: str) -> bool:
    """The documented rule, spelled as one regular expression per name."""
    base = path.rsplit("/", 1)[-1]
    distinctive = "." in base.strip(".") or base[:1].isupper()
    names = (path, base) if "/" in path and distinctive else (path,)
    return any(
        len(name) > 3 and re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w/-])", sentence)
        for name in names
    )


# Names and the characters around them that decide whether a name is whole.
_PIECES = st.sampled_from(
    ["src/", "a.py", "Make", "b", ".", "-", "_", "/", " ", "`", "é", "(", "x y"]
)


@settings(max_examples=500, deadline=None)
@given(
    paths=st.lists(st.lists(_PIECES, min_size=1, max_size=5).map("".join), max_size=30),
    sentence=st.lists(_PIECES, max_size=30).map("".join),
)
def test_known_paths_find_exactly_the_files_the_rule_names(paths: list[str], sentence: str) -> None:
    expected = sorted({p for p in paths if _named_by_rule(sentence, p)}, key=lambda p: (-len(p), p))
    assert KnownPaths(paths).named_in(sentence) == expected


def test_a_session_with_thousands_of_files_still_names_the_right_ones() -> None:
    paths = [f"src/pkg{i // 100}/module_{i}.py" for i in range(5000)]
    known = KnownPaths(paths)
    text = (
        "I'll use a lock in src/pkg3/module_312.py instead of the retry loop in module_4999.py, "
        "because the retries hid the race."
    )
    [decision] = extract_decisions(text, turn=3, known_paths=known)
    assert decision.files == ["src/pkg49/module_4999.py", "src/pkg3/module_312.py"]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_sentence_is_passed_over_only_when_no_pattern_could_match_it(data: st.DataObject) -> None:
    # An ASCII sentence lacking every word a pattern needs is not searched with it: each text the
    # pattern matches must hold one of those words, whichever alternative it matched by.
    for pattern, needed in (
        (decisions._ROOT_CAUSE, decisions._STATING_WORDS),
        (decisions._ALTERNATIVE, decisions._STATING_WORDS),
        (decisions._CHOICE, decisions._STATING_WORDS),
        (decisions._HEDGE, decisions._HEDGE_WORDS),
        (decisions._PROCESS, decisions._PROCESS_WORDS),
    ):
        sentence = data.draw(
            st.from_regex(_compiled(pattern), alphabet=st.characters(codec="ascii"))
        )
        assert decisions._found(pattern, needed, sentence, sentence.lower())


def _compiled(pattern: re.Pattern[str]) -> re.Pattern[str]:
    # Hypothesis takes a str or a compiled pattern; the module's is compiled on its first use.
    return re.compile(pattern.pattern, pattern.flags)
