"""Which LLM writes: the provider, its endpoint, its key and the model, from flags, config and environment.

The order is always: a flag (``--provider``, ``--base-url``, ``--model``),
then the config file (``[llm]``, ``[context] compactionModel``), then the
environment.  With no provider named, a key decides: ``ANTHROPIC_API_KEY``
picks Anthropic, else ``OPENAI_API_KEY`` or ``OPENAI_BASE_URL`` picks the
OpenAI-compatible endpoint; with neither, the summary is written offline
(unless an LLM was demanded, which is then an error, never a silent
fallback).

A local model server (Ollama, llama.cpp, vLLM) needs no key: with a base URL
and no key a placeholder is sent.  The session's own model is used only by
the provider that serves it (a ``claude-*`` model by Anthropic, another by
OpenAI's own endpoint); a custom endpoint's model must be named.

The SDK modules are imported only by :func:`make_client`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from summarizer.config import DEFAULT_MODEL, Settings, load_settings
from summarizer.exceptions import SummarizerError
from summarizer.providers.structured import PROVIDERS, Provider, StructuredClient

__all__ = [
    "DEFAULT_MODELS",
    "Endpoint",
    "LLMChoice",
    "choose_endpoint",
    "make_client",
]

DEFAULT_MODELS: dict[Provider, str] = {"anthropic": DEFAULT_MODEL, "openai": "gpt-4.1-mini"}
# What a local server is sent as its key: the SDK insists on one, the server ignores it.
_NO_KEY = "no-key"
_KEY_VARIABLES: dict[Provider, str] = {
    "anthropic": "ANTHROPIC_API_KEY",
    "openai": "OPENAI_API_KEY",
}
_URL_VARIABLES: dict[Provider, str] = {
    "anthropic": "ANTHROPIC_BASE_URL",
    "openai": "OPENAI_BASE_URL",
}


@dataclass(frozen=True)
class LLMChoice:
    """What the user asked for: ``use_llm`` None means "if one is configured"."""

    use_llm: bool | None = None
    provider: str | None = None
    base_url: str | None = None
    model: str | None = None
    config: str | None = None


@dataclass(frozen=True)
class Endpoint:
    """Where the requests go, resolved."""

    provider: Provider
    model: str
    base_url: str | None  # None: the SDK's default (or its own environment variable)
    api_key: str | None  # None: the SDK reads its own environment variable

    def describe(self) -> str:
        where = f" at {self.base_url}" if self.base_url else ""
        return f"{self.provider} model {self.model}{where}"


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def _provider(choice: LLMChoice, settings: Settings) -> Provider | None:
    named = choice.provider or settings.llm.provider
    if named is not None:
        if named not in PROVIDERS:
            raise SummarizerError(
                f"unknown LLM provider {named!r}: choose {' or '.join(PROVIDERS)}"
            )
        return named
    if _env("ANTHROPIC_API_KEY"):
        return "anthropic"
    if _env("OPENAI_API_KEY") or _env("OPENAI_BASE_URL"):
        return "openai"
    if choice.base_url or settings.llm.base_url:
        # An endpoint named without a provider: local model servers speak OpenAI's API.
        return "openai"
    return None


def _fits(provider: Provider, model: str, custom_endpoint: bool) -> bool:
    """Whether the session's own model can be asked of this provider."""
    if provider == "anthropic":
        return model.startswith("claude")
    return not custom_endpoint and not model.startswith("claude")


def choose_endpoint(choice: LLMChoice, session_model: str | None = None) -> Endpoint | None:
    """The endpoint to ask, or None for the offline narrative; SummarizerError when what was asked cannot be."""
    if choice.use_llm is False:
        return None
    settings = load_settings(choice.config)
    provider = _provider(choice, settings)
    if provider is None:
        if choice.use_llm:
            raise SummarizerError(
                "--llm needs a provider: set ANTHROPIC_API_KEY or OPENAI_API_KEY, or name an "
                "OpenAI-compatible server with --provider openai --base-url URL; use --no-llm for "
                "the offline narrative"
            )
        return None
    base_url = choice.base_url or settings.llm.base_url
    custom = base_url is not None or _env(_URL_VARIABLES[provider]) is not None
    if settings.llm.api_key_env:
        api_key = _env(settings.llm.api_key_env)
        if api_key is None:
            raise SummarizerError(
                f"the config names {settings.llm.api_key_env} as the key of the {provider} "
                "provider, and it is not set"
            )
    else:
        api_key = _env(_KEY_VARIABLES[provider])
    if api_key is None:
        if not custom:
            raise SummarizerError(
                f"the {provider} provider needs {_KEY_VARIABLES[provider]} (or --base-url of a "
                "local server, which needs no key); use --no-llm for the offline narrative"
            )
        api_key = _NO_KEY
    model = choice.model or settings.context.compaction_model
    if not model and session_model and _fits(provider, session_model, custom):
        model = session_model
    if not model:
        if provider == "openai" and custom:
            raise SummarizerError(
                "name the model the OpenAI-compatible server at "
                f"{base_url or _env('OPENAI_BASE_URL')} should use: --model NAME or "
                "[context] compactionModel"
            )
        model = DEFAULT_MODELS[provider]
    return Endpoint(provider=provider, model=model, base_url=base_url, api_key=api_key)


def make_client(endpoint: Endpoint) -> StructuredClient:
    """The client of ``endpoint``'s provider (its SDK imported only now)."""
    if endpoint.provider == "anthropic":
        from summarizer.providers.anthropic_api import AnthropicClient

        return AnthropicClient(endpoint.model, base_url=endpoint.base_url, api_key=endpoint.api_key)
    from summarizer.providers.openai_api import OpenAIClient

    return OpenAIClient(endpoint.model, base_url=endpoint.base_url, api_key=endpoint.api_key)
