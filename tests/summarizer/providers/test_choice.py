"""Which provider, endpoint, key and model a summary uses: flags, then the config, then the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from summarizer.exceptions import SummarizerError
from summarizer.providers.choice import DEFAULT_MODELS, LLMChoice, choose_endpoint


def test_nothing_configured_is_the_offline_narrative() -> None:
    assert choose_endpoint(LLMChoice()) is None


def test_no_llm_wins_over_every_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "a")
    monkeypatch.setenv("OPENAI_API_KEY", "o")
    assert choose_endpoint(LLMChoice(use_llm=False)) is None


def test_an_llm_demanded_without_a_provider_is_an_error() -> None:
    with pytest.raises(SummarizerError, match="--llm needs a provider"):
        choose_endpoint(LLMChoice(use_llm=True))


def test_the_anthropic_key_comes_first_and_its_session_model_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "a")
    monkeypatch.setenv("OPENAI_API_KEY", "o")
    endpoint = choose_endpoint(LLMChoice(), "claude-opus-4-6")
    assert endpoint is not None
    assert (endpoint.provider, endpoint.model, endpoint.api_key) == (
        "anthropic",
        "claude-opus-4-6",
        "a",
    )


def test_a_session_model_of_another_provider_is_not_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "a")
    endpoint = choose_endpoint(LLMChoice(), "gpt-5-codex")
    assert endpoint is not None and endpoint.model == DEFAULT_MODELS["anthropic"]
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.setenv("OPENAI_API_KEY", "o")
    endpoint = choose_endpoint(LLMChoice(), "claude-opus-4-6")
    assert endpoint is not None and endpoint.model == DEFAULT_MODELS["openai"]
    endpoint = choose_endpoint(LLMChoice(), "gpt-5-codex")
    assert endpoint is not None and (endpoint.provider, endpoint.model) == ("openai", "gpt-5-codex")


def test_the_flag_names_the_provider_over_the_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "a")
    monkeypatch.setenv("OPENAI_API_KEY", "o")
    endpoint = choose_endpoint(LLMChoice(provider="openai", model="gpt-4.1"))
    assert endpoint is not None and (endpoint.provider, endpoint.api_key) == ("openai", "o")


def test_a_named_provider_without_its_key_or_an_endpoint_is_an_error() -> None:
    with pytest.raises(SummarizerError, match="the openai provider needs OPENAI_API_KEY"):
        choose_endpoint(LLMChoice(provider="openai", model="gpt-4.1"))


def test_a_local_server_gets_a_placeholder_key_and_must_name_its_model() -> None:
    local = LLMChoice(provider="openai", base_url="http://localhost:11434/v1")
    with pytest.raises(SummarizerError, match="name the model"):
        choose_endpoint(local, "claude-opus-4-6")
    endpoint = choose_endpoint(
        LLMChoice(provider="openai", base_url="http://localhost:11434/v1", model="llama3.1")
    )
    assert endpoint is not None
    assert (endpoint.base_url, endpoint.api_key, endpoint.model) == (
        "http://localhost:11434/v1",
        "no-key",
        "llama3.1",
    )
    assert endpoint.describe() == "openai model llama3.1 at http://localhost:11434/v1"


def test_a_base_url_alone_means_an_openai_compatible_server() -> None:
    endpoint = choose_endpoint(LLMChoice(base_url="http://127.0.0.1:8080/v1", model="m"))
    assert endpoint is not None and endpoint.provider == "openai"


def test_the_config_file_names_provider_endpoint_key_variable_and_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "c.toml"
    config.write_text(
        '[context]\ncompactionModel = "qwen/qwen3-coder"\n[llm]\nprovider = "openai"\n'
        'baseUrl = "https://openrouter.ai/api/v1"\napiKeyEnv = "OPENROUTER_API_KEY"\n',
        encoding="utf-8",
    )
    with pytest.raises(SummarizerError, match=r"names OPENROUTER_API_KEY .* not set"):
        choose_endpoint(LLMChoice(config=str(config)))
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or")
    endpoint = choose_endpoint(LLMChoice(config=str(config)))
    assert endpoint is not None
    assert (endpoint.provider, endpoint.base_url, endpoint.api_key, endpoint.model) == (
        "openai",
        "https://openrouter.ai/api/v1",
        "sk-or",
        "qwen/qwen3-coder",
    )
    # A flag beats the file.
    flagged = choose_endpoint(LLMChoice(config=str(config), model="other/model"))
    assert flagged is not None and flagged.model == "other/model"


def test_an_unknown_provider_in_the_config_is_one_sentence(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[llm]\nprovider = "gemini"\n', encoding="utf-8")
    with pytest.raises(SummarizerError, match=r"config .*c\.toml: llm\.provider: Input should be"):
        choose_endpoint(LLMChoice(config=str(config)))
