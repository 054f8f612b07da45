"""`evaluate`: probes from the index, answered from each summary by an LLM, graded against the index, judged.

The deterministic parts (the questions, the grading, the offline table) run
without a model; the LLM parts run the real SDKs against the local fakes
of both APIs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import pytest

from artifact_index.presentation.cli import main
from artifact_index.trail.tracker import Tracker
from summarizer.evaluation.evaluate import evaluate_summaries, render_evaluation
from summarizer.evaluation.grading import grade_answer
from summarizer.evaluation.judge import DIMENSIONS, JUDGE_TOOL
from summarizer.evaluation.probe_answers import ANSWER_TOOL
from summarizer.evaluation.questions import Question, generate_questions
from summarizer.providers.anthropic_api import AnthropicClient
from summarizer.sections.summary_facts import SessionFacts
from summarizer.summary import session_facts
from tests.support.fake_anthropic import FakeAnthropic, tool_reply
from tests.support.fake_openai import FakeOpenAI, function_reply
from tests.support.loopback_guard import only_loopback
from tests.support.summary_fixtures import SUMMARIES, load_events

CC_SESSION = SUMMARIES / "cc_two_compactions.jsonl"
GOOD = (
    "Fixing the 401 on login. The original error was `AssertionError: assert 401 == 200` in "
    "tests/test_auth.py. Created `auth/retry.py`, modified `auth/service.py`, deleted "
    "`auth/legacy_auth.py`. Next: add the retry helper for the session store, remove legacy_auth.py, "
    "update the README, and fix redis.exceptions.ConnectionError: Error 111 connecting to "
    "localhost:6379. Connection refused."
)
POOR = "We worked on authentication and changed some files."


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    only_loopback(monkeypatch)


def _facts() -> SessionFacts:
    events = load_events("bugfix")
    return session_facts(Tracker(format="fixture").feed_all(events), events)


def _question(kind: str) -> Question:
    return next(q for q in generate_questions(_facts()) if q.kind == kind)


# --- the questions and the grading, offline ------------------------------------------------------


def test_the_questions_come_from_the_index_with_its_answers() -> None:
    questions = generate_questions(_facts())
    assert [(q.id, q.kind) for q in questions] == [
        ("q1", "recall"),
        ("q2", "artifact"),
        ("q3", "continuation"),
    ]
    recall, artifact, continuation = questions
    assert recall.question == "What was the original error?"
    assert recall.expected == ["AssertionError: assert 401 == 200"]
    assert "since resolved" in recall.reference
    assert artifact.expected == ["auth/retry.py", "auth/service.py", "auth/legacy_auth.py"]
    assert artifact.reference == (
        "created: `auth/retry.py`; modified: `auth/service.py`; deleted: `auth/legacy_auth.py`"
    )
    assert "Good. Also make the integration suite pass." in continuation.reference
    assert "Update the README" in continuation.expected


def test_a_decision_probe_asks_about_what_the_decision_names() -> None:
    facts = _facts()
    decision = facts.decisions[0] if facts.decisions else None
    from artifact_index.facts.decisions import Decision

    made = Decision(
        text="Use a Redis connection pool in config/redis.py instead of one connection per request",
        kind="choice",
        turn=3,
        files=["config/redis.py"],
        symbols=[],
    )
    facts = facts.model_copy(update={"decisions": [*([decision] if decision else []), made]})
    (question,) = [q for q in generate_questions(facts) if q.kind == "decision"]
    assert question.question == "What was decided about `config/redis.py`?"
    assert "connection pool" in question.reference
    assert (
        grade_answer(
            question, "A Redis connection pool in config/redis.py, not one per request."
        ).score
        == 1.0
    )
    assert (grade_answer(question, "The summary does not say.").score or 0) < 0.3


def test_an_artifact_answer_is_graded_on_every_path_and_loses_for_a_wrong_one() -> None:
    artifact = _question("artifact")
    right = grade_answer(
        artifact, "auth/retry.py (new), auth/service.py, and legacy_auth.py was deleted"
    )
    assert right.score == 1.0 and right.missing == [] and right.wrong == []
    half = grade_answer(artifact, "auth/retry.py and auth/service.py, also src/login.py")
    assert half.missing == ["auth/legacy_auth.py"] and half.wrong == ["src/login.py"]
    assert half.score is not None and 0.5 < half.score < 0.7
    assert grade_answer(artifact, "The summary does not say.").score == 0.0


def test_a_recall_answer_needs_the_errors_words() -> None:
    recall = _question("recall")
    assert grade_answer(recall, "It was `AssertionError: assert 401 == 200`.").score == 1.0
    assert grade_answer(recall, "A failing login test.").score == 0.0


def test_offline_the_summaries_are_checked_for_the_index_answers_only() -> None:
    evaluation = evaluate_summaries(_facts(), [("good.md", GOOD), ("poor.md", POOR)])
    good, poor = evaluation.summaries
    assert good.stated["q1"].score == 1.0 and good.stated["q2"].score == 1.0
    assert poor.stated["q2"].score == 0.0
    assert good.answers is None and good.judged is None and good.overall is None
    table = render_evaluation(evaluation)
    assert "Answers and judge: not run" in table
    assert "good.md" in table and "poor.md" in table


def test_cli_offline_table_with_the_agents_own_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ours = tmp_path / "ours.md"
    assert main(["summary", str(CC_SESSION), "--no-llm", "--until-compaction", "1"]) == 0
    ours.write_text(capsys.readouterr().out, encoding="utf-8")
    code = main(
        [
            "evaluate",
            str(CC_SESSION),
            str(ours),
            "--until-compaction",
            "1",
            "--agent-summary",
            "--no-llm",
            "--json",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in report["summaries"]] == ["ours.md", "agent's own (compaction 1)"]
    assert report["judge"] is None
    kinds = [q["kind"] for q in report["questions"]]
    assert kinds[:3] == ["recall", "artifact", "continuation"]
    ours_report = report["summaries"][0]
    artifact = next(q["id"] for q in report["questions"] if q["kind"] == "artifact")
    assert ours_report["stated"][artifact]["score"] == 1.0  # the index's own list: every path


@pytest.mark.parametrize(
    ("arguments", "message", "code"),
    [
        # Input that cannot be used: 1; a command line that must change: 2.
        (["missing.md"], "summary missing.md cannot be read", 1),
        (["--agent-summary"], "--agent-summary needs --until-compaction N", 2),
        ([], "nothing to evaluate", 2),
        (["--until-compaction", "7", "--agent-summary"], "has 2 compaction boundaries, not 7", 1),
    ],
)
def test_cli_bad_arguments_are_one_sentence(
    arguments: list[str], message: str, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["evaluate", str(CC_SESSION), *arguments, "--no-llm"]) == code
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


# --- the LLM parts, against the fakes ----------------------------------------------------------


def _answers(**given: str) -> dict[str, str]:
    return {
        q.id: given.get(q.id, "The summary does not say.") for q in generate_questions(_facts())
    }


def _judgement(score: int, per_question: int) -> dict[str, Any]:
    return {
        "questions": {
            q.id: {"score": per_question, "reason": "as the reference"}
            for q in generate_questions(_facts())
        },
        "dimensions": {d: {"score": score, "reason": f"{d} reason"} for d in DIMENSIONS},
    }


@pytest.fixture
def api() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as server:
        yield server


def test_each_summary_is_answered_then_judged_blind(api: FakeAnthropic) -> None:
    api.replies = [
        tool_reply(
            _answers(
                q1="`AssertionError: assert 401 == 200`",
                q2="auth/retry.py, auth/service.py, auth/legacy_auth.py",
            ),
            name=ANSWER_TOOL,
        ),
        tool_reply(_judgement(5, 4), name=JUDGE_TOOL),
        tool_reply(_answers(), name=ANSWER_TOOL),
        tool_reply(_judgement(1, 0), name=JUDGE_TOOL),
    ]
    client = AnthropicClient(
        "judge-model",
        client=anthropic.Anthropic(base_url=api.url, api_key="k", max_retries=0),
    )
    evaluation = evaluate_summaries(
        _facts(), [("good.md", GOOD), ("poor.md", POOR)], client, judge_name="anthropic judge-model"
    )
    good, poor = evaluation.summaries
    assert (
        good.graded is not None
        and good.graded["q1"].score == 1.0
        and good.graded["q2"].score == 1.0
    )
    assert poor.graded is not None and poor.graded["q2"].score == 0.0
    assert good.overall == 5.0 and poor.overall == 1.0

    answer_request, judge_request = api.messages_requests[:2]
    # The answer schema is keyed by the question ids: none can be left out or added.
    schema = answer_request.body["tools"][0]["input_schema"]
    assert schema["required"] == ["q1", "q2", "q3"] and schema["additionalProperties"] is False
    assert answer_request.body["tool_choice"] == {"type": "tool", "name": ANSWER_TOOL}
    assert GOOD in answer_request.prompt and "q2: Which files were created" in answer_request.prompt
    # The judge gets the index's answers and the summary's answers, never the summary's name.
    assert judge_request.body["tool_choice"] == {"type": "tool", "name": JUDGE_TOOL}
    assert "created: `auth/retry.py`" in judge_request.prompt
    assert "Good. Also make the integration suite pass." in judge_request.prompt  # the user's words
    assert "good.md" not in judge_request.prompt and "poor.md" not in json.dumps(judge_request.body)
    dimensions = judge_request.body["tools"][0]["input_schema"]
    assert "accuracy" in json.dumps(dimensions) and "instruction_following" in json.dumps(
        dimensions
    )

    table = render_evaluation(evaluation)
    assert "overall (mean of six)" in table and "5.00" in table and "1.00" in table
    assert "accuracy reason" in table


def test_a_judge_score_out_of_range_is_sent_back_and_retried(api: FakeAnthropic) -> None:
    bad = _judgement(5, 4)
    bad["dimensions"]["accuracy"]["score"] = 9
    api.replies = [
        tool_reply(_answers(), name=ANSWER_TOOL),
        tool_reply(bad, name=JUDGE_TOOL),
        tool_reply(_judgement(3, 3), name=JUDGE_TOOL),
    ]
    client = AnthropicClient(
        "m", client=anthropic.Anthropic(base_url=api.url, api_key="k", max_retries=0)
    )
    evaluation = evaluate_summaries(_facts(), [("a.md", GOOD)], client, judge_name="m")
    assert evaluation.summaries[0].overall == 3.0
    retry = api.messages_requests[2].body["messages"][2]["content"][0]
    assert retry["is_error"] is True and "less than or equal to 5" in retry["content"]


def test_cli_evaluate_through_an_openai_compatible_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    summary = tmp_path / "s.md"
    summary.write_text(GOOD, encoding="utf-8")
    with FakeOpenAI() as server:
        events = load_events("bugfix")
        del events  # the CLI reads the Claude Code fixture below
        # Questions of the CLI's session: ask the command once offline to learn their ids.
        assert (
            main(
                [
                    "evaluate",
                    str(CC_SESSION),
                    str(summary),
                    "--no-llm",
                    "--json",
                    "--until-compaction",
                    "2",
                ]
            )
            == 0
        )
        ids = [q["id"] for q in json.loads(capsys.readouterr().out)["questions"]]
        server.replies = [
            function_reply({i: "The summary does not say." for i in ids}, name=ANSWER_TOOL),
            function_reply(
                {
                    "questions": {i: {"score": 2, "reason": "r"} for i in ids},
                    "dimensions": {d: {"score": 2, "reason": "r"} for d in DIMENSIONS},
                },
                name=JUDGE_TOOL,
            ),
        ]
        code = main(
            [
                "evaluate",
                str(CC_SESSION),
                str(summary),
                "--until-compaction",
                "2",
                "--provider",
                "openai",
                "--base-url",
                server.base_url,
                "--model",
                "judge",
                "--json",
            ]
        )
        assert code == 0
        report = json.loads(capsys.readouterr().out)
        assert report["judge"] == f"openai model judge at {server.base_url}"
        assert report["summaries"][0]["judged"]["dimensions"]["continuity"]["score"] == 2
        # What the session did right after the cut goes to the judge.
        judge_prompt = server.requests[1].prompt
        assert "<after_the_cut>" in judge_prompt
