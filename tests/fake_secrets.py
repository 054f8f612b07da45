"""Fake secrets of the nine kinds users leak most, assembled at test time.

No literal in this repository looks like a credential to a secret scanner:
each value is put together from a prefix split in two and characters drawn
from a seeded random generator, so the same run always plants the same
values, and nothing real is ever among them.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

__all__ = ["FakeSecret", "fake_secrets", "planted_text"]

_ALNUM = string.ascii_letters + string.digits


@dataclass(frozen=True)
class FakeSecret:
    kind: str  # the placeholder label redaction must use
    value: str  # what must never appear in any output
    context: str  # how it typically appears in a session (contains ``value``)


def _draw(rng: random.Random, size: int, alphabet: str = _ALNUM) -> str:
    drawn = "".join(rng.choice(alphabet) for _ in range(size))
    # Every class present, so each value looks like what it imitates.
    return "Aa1" + drawn[3:]


def fake_secrets(seed: int = 10) -> list[FakeSecret]:
    """The nine kinds, as a session would show them."""
    rng = random.Random(seed)
    anthropic = "sk-" + "ant-" + "api03-" + _draw(rng, 90, _ALNUM + "-_") + "AA"
    key_id = (
        "AK" + "IA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16))
    )
    aws_secret = _draw(rng, 40, _ALNUM + "+/")
    github = "gh" + "p_" + _draw(rng, 36)
    key_body = "\n".join(_draw(rng, 70, _ALNUM + "+/") for _ in range(6))
    begin, end = (
        "-----BEGIN " + "OPENSSH PRIVATE KEY-----",
        "-----END " + "OPENSSH PRIVATE KEY-----",
    )
    private_key = f"{begin}\n{key_body}\n{end}"
    env_password = "Tr0ub4dor-" + _draw(rng, 10)
    stripe = "sk_" + "live_" + _draw(rng, 32)
    bearer = _draw(rng, 48, _ALNUM + "-._")
    postgres_password = "pg-" + _draw(rng, 14)
    return [
        FakeSecret("anthropic-api-key", anthropic, f"export ANTHROPIC_API_KEY={anthropic}"),
        FakeSecret("aws-access-key-id", key_id, f"aws_access_key_id = {key_id}"),
        FakeSecret("aws-secret-key", aws_secret, f"AWS_SECRET_ACCESS_KEY={aws_secret}"),
        FakeSecret("github-token", github, f"export GITHUB_TOKEN={github}"),
        FakeSecret("private-key", private_key, f"$ cat ~/.ssh/id_ed25519\n{private_key}\n"),
        FakeSecret("password", env_password, f"DB_PASSWORD={env_password}"),
        FakeSecret("stripe-key", stripe, f'stripe.api_key = "{stripe}"'),
        FakeSecret(
            "bearer-token",
            bearer,
            f"curl -H 'Authorization: Bearer {bearer}' https://api.example.test/v1",
        ),
        FakeSecret(
            "url-password",
            postgres_password,
            f"DATABASE_URL=postgres://app:{postgres_password}@db.example.test:5432/app",
        ),
    ]


def planted_text(seed: int = 10) -> str:
    """One ``.env``-like text holding all nine, one per line (the key over several)."""
    return "\n".join(secret.context for secret in fake_secrets(seed)) + "\n"
