"""Token counting is offline and estimates both message shapes block by block."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from summarizer.tokens import (
    IMAGE_TOKENS,
    MESSAGE_OVERHEAD,
    PromptEstimator,
    count_tokens,
    estimate_messages,
    estimate_prompt,
    message_tokens,
)

ROOT = Path(__file__).resolve().parents[2]

# Runs in a fresh interpreter: every way out to the network raises.
_NO_NETWORK = r"""
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("network access attempted")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
sys.modules["requests"] = None
sys.modules["blobfile"] = None
from summarizer.tokens import count_tokens
print(count_tokens("hello world"), count_tokens("def f(x):\n    return x + 1\n"))
"""


@pytest.mark.parametrize("cache", ["disabled", "fresh-empty-dir"])
def test_counting_works_without_network_or_cache(tmp_path: Path, cache: str) -> None:
    env = {key: value for key, value in os.environ.items() if "TIKTOKEN" not in key}
    env.pop("DATA_GYM_CACHE_DIR", None)
    env["TMPDIR"] = str(tmp_path)  # tiktoken's default cache lives under the temp dir
    env["TIKTOKEN_CACHE_DIR"] = "" if cache == "disabled" else str(tmp_path / "absent")
    done = subprocess.run(
        [sys.executable, "-c", _NO_NETWORK],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", str(count_tokens("def f(x):\n    return x + 1\n"))]


def test_counts_are_cl100k() -> None:
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    # Special-token text is ordinary text, never an error.
    assert count_tokens("<|endoftext|>") > 1


def test_plain_message_is_text_plus_framing() -> None:
    message = {"role": "user", "content": "abcd"}
    assert message_tokens(message, len) == MESSAGE_OVERHEAD + 4


def test_anthropic_blocks_are_all_counted() -> None:
    tool_input = {"file_path": "src/app.py", "content": "x" * 50}
    assistant = {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "t" * 7, "signature": "sig"},
            {"type": "text", "text": "abc"},
            {"type": "tool_use", "id": "toolu_1", "name": "Write", "input": tool_input},
        ],
    }
    expected = 7 + 3 + len("Write") + len(json.dumps(tool_input, separators=(",", ":")))
    assert message_tokens(assistant, len) == MESSAGE_OVERHEAD + expected

    result = {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "toolu_1",
                "content": [
                    {"type": "text", "text": "12345"},
                    {"type": "image", "source": {"type": "base64", "data": "A" * 10_000}},
                ],
            }
        ],
    }
    assert message_tokens(result, len) == MESSAGE_OVERHEAD + 5 + IMAGE_TOKENS


def test_openai_tool_calls_and_tool_messages_are_counted() -> None:
    arguments = json.dumps({"command": "pytest -q"})
    assistant = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "shell", "arguments": arguments}}
        ],
    }
    assert message_tokens(assistant, len) == MESSAGE_OVERHEAD + len("shell") + len(arguments)
    tool = {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "ok"}]}
    assert message_tokens(tool, len) == MESSAGE_OVERHEAD + 2


def test_prompt_estimate_includes_system_and_tools() -> None:
    messages = [{"role": "user", "content": "hi"}]
    tools = [{"name": "Read", "input_schema": {"type": "object"}}]
    bare = estimate_prompt(messages, counter=len)
    full = estimate_prompt(
        messages, system=[{"type": "text", "text": "S" * 10}], tools=tools, counter=len
    )
    assert full == bare + 10 + len(json.dumps(tools, separators=(",", ":")))
    assert estimate_messages(messages, len) == bare


def test_estimator_uses_an_exact_prompt_counter_when_given() -> None:
    calls = []

    def exact(messages: object, system: object, tools: object) -> int:
        calls.append((messages, system, tools))
        return 1234

    estimator = PromptEstimator(len, system="sys", tools=None, prompt_counter=exact)
    assert estimator.prompt([{"role": "user", "content": "hi"}]) == 1234
    assert calls[0][1] == "sys"


def test_estimator_sees_changed_messages() -> None:
    estimator = PromptEstimator(len)
    message = {"role": "user", "content": "abc"}
    assert estimator.prompt([message]) == MESSAGE_OVERHEAD + 3
    changed = dict(message, content="abcdef")
    assert estimator.prompt([changed]) == MESSAGE_OVERHEAD + 6
