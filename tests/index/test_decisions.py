"""Candidate decisions: explicit choices, rejected alternatives, root causes; nothing else."""

from __future__ import annotations

from artifact_index.decisions import extract_decisions


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
