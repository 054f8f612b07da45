"""Settings of the summarizer: which provider and model write the narrative, and whether one is used at all.

Read from a TOML file::

    [context]
    compactionModel = "gpt-4.1-mini"   # empty: the session's own model, when the provider serves it

    [llm]
    provider = "openai"                 # or "anthropic"
    base_url = "http://localhost:11434/v1"
    api_key_env = "OPENROUTER_API_KEY"  # where the key is, when not the SDK's own variable

and from the environment (the SDKs' own ``ANTHROPIC_API_KEY``,
``ANTHROPIC_BASE_URL``, ``OPENAI_API_KEY``, ``OPENAI_BASE_URL``).  Which
provider is used is decided in :mod:`summarizer.providers.choice`.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from summarizer.exceptions import SummarizerError

__all__ = [
    "DEFAULT_MODEL",
    "ContextSettings",
    "LLMSettings",
    "Settings",
    "api_key_configured",
    "load_settings",
]

# The Anthropic model used when neither a flag, the config nor the transcript names one.
DEFAULT_MODEL = "claude-sonnet-4-5"


class ContextSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    compaction_model: str = Field(default="", alias="compactionModel")


class LLMSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    provider: Literal["anthropic", "openai"] | None = None
    base_url: str | None = Field(default=None, alias="baseUrl")
    api_key_env: str | None = Field(default=None, alias="apiKeyEnv")


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    context: ContextSettings = Field(default_factory=ContextSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)


def load_settings(path: str | Path | None) -> Settings:
    if path is None:
        return Settings()
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        return Settings.model_validate(data)
    except OSError as exc:
        raise SummarizerError(f"config {path} cannot be read ({exc.strerror or exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SummarizerError(f"config {path} is not valid TOML ({exc})") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        raise SummarizerError(
            f"config {path}: {'.'.join(map(str, first['loc']))}: {first['msg']}"
        ) from exc


def api_key_configured() -> bool:
    return bool(os.environ.get("ANTHROPIC_API_KEY"))
