"""A reply whose keys are known only at run time: exactly those keys, each of its declared type."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, Field, ValidationError

from summarizer.evaluation.probe_answers import answer_ask
from summarizer.evaluation.questions import Question
from summarizer.providers.structured import keyed_reply


class _Score(BaseModel):
    score: int


def test_every_key_is_required_and_no_other_is_accepted() -> None:
    reply = keyed_reply("Scores", {"q1": (_Score, Field(description="first"))})
    assert reply.model_validate({"q1": {"score": 2}}).model_dump() == {"q1": {"score": 2}}
    with pytest.raises(ValidationError):
        reply.model_validate({})
    with pytest.raises(ValidationError):
        reply.model_validate({"q1": {"score": 2}, "q2": {"score": 1}})
    with pytest.raises(ValidationError):
        reply.model_validate({"q1": "two"})


def test_the_answer_schema_names_each_question_with_its_description() -> None:
    question = Question(
        id="q1", kind="error", question="Which file failed?", reference="a.py", expected=["a.py"]
    )
    schema = answer_ask("summary", [question]).schema()
    assert schema["title"] == "ProbeAnswers"
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["q1"]
    assert schema["properties"]["q1"]["description"] == (
        "Which file failed? (answer from the summary alone)"
    )
