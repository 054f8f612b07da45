"""LLM providers: one forced, validated, structured reply from Anthropic or any OpenAI-compatible endpoint.

:mod:`~summarizer.providers.structured` says what a provider offers,
:mod:`~summarizer.providers.choice` which one the user's flags, config and
environment pick, and one module per SDK speaks its API
(:mod:`~summarizer.providers.anthropic_api`,
:mod:`~summarizer.providers.openai_api`): nothing else imports an SDK.
"""
