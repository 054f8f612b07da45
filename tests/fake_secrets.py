"""Fake secrets of every common shape, as sessions show them, drawn at test time.

No literal here looks like a credential to a secret scanner: each value is
put together from a prefix and characters drawn from a seeded random
generator, so a run always plants the same values and nothing real is ever
among them.  The kinds are written from what users leak (keys pasted into
chat, passwords on command lines, tokens in config files and tool output),
not from the redaction rules, so that they test the rules rather than
mirror them.

:func:`fake_secrets` draws one value of each kind; ``draw`` takes the
generator, so a test planting the same kind in many places gets a
different value each time and can tell which planting leaked.
"""

from __future__ import annotations

import base64
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["KINDS", "FakeSecret", "Kind", "expand", "fake_secrets", "planted_text"]

ALPHABETS = {
    "b62": string.ascii_letters + string.digits,
    "b64": string.ascii_letters + string.digits + "+/",
    "b64url": string.ascii_letters + string.digits + "-_",
    "hex": "0123456789abcdef",
    "HEX": "0123456789ABCDEF",
    "upper36": string.ascii_uppercase + string.digits,
    "lower36": string.ascii_lowercase + string.digits,
    "digits": string.digits,
    "lower": string.ascii_lowercase,
    "alpha": string.ascii_letters,
}
_FIELD = re.compile(r"\{(~?)(\w+):(\d+)\}")


def expand(template: str, rng: random.Random) -> tuple[str, list[str]]:
    """``template`` with its ``{kind:N}`` fields drawn; the drawn values, but those of ``~`` fields (context)."""
    secrets: list[str] = []

    def one(match: re.Match[str]) -> str:
        value = "".join(rng.choice(ALPHABETS[match.group(2)]) for _ in range(int(match.group(3))))
        if not match.group(1):
            secrets.append(value)
        return value

    return _FIELD.sub(one, template), secrets


@dataclass(frozen=True)
class FakeSecret:
    kind: str
    value: str  # what must never appear in any output
    context: str  # how it appears in a session (contains ``value``)
    label: str = ""  # the placeholder redaction is expected to use, when one is certain
    by_shape: bool = False  # the value alone says it is a secret (a vendor's prefix, a JWT)

    @property
    def needles(self) -> list[str]:
        """What betrays the secret: the value, each long line of it, and its tail (a partial redaction)."""
        found = [self.value]
        lines = [line.strip() for line in self.value.split("\n")]
        found += [
            line
            for line in lines
            if len(line) >= 16 and line != self.value and not line.startswith("-----")
        ]
        if len(self.value) >= 40 and "\n" not in self.value:
            found.append(self.value[-20:])
        return found

    @property
    def path_safe(self) -> bool:
        """Whether the value can be one component of a file path."""
        return bool(re.fullmatch(r"[A-Za-z0-9._+=@-]{8,120}", self.value))


@dataclass(frozen=True)
class Kind:
    name: str
    draw: Callable[[random.Random], tuple[str, str]]  # -> (value, context)
    label: str = ""

    @property
    def by_shape(self) -> bool:
        """The value alone says it is a secret, wherever it stands (a path's name too)."""
        return self.name in _BY_SHAPE

    def secret(self, rng: random.Random) -> FakeSecret:
        """A fresh secret of this kind."""
        return FakeSecret(self.name, *self.draw(rng), label=self.label, by_shape=self.by_shape)


def _text(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(rng.choice(ALPHABETS[alphabet]) for _ in range(size))


def _word(rng: random.Random) -> str:
    consonants, vowels = "bcdfghjklmnprstvz", "aeiou"
    return "".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(3))


def _pem(rng: random.Random, kind: str = "RSA PRIVATE KEY") -> str:
    body = "\n".join(_text(rng, "b64", 64) for _ in range(6)) + "\n" + _text(rng, "b64", 24) + "=="
    return f"-----BEGIN {kind}-----\n{body}\n-----END {kind}-----"


def _simple(name: str, template: str, label: str = "") -> Kind:
    """A kind whose context is ``template`` with one secret field, ``{}`` where the value goes."""

    def draw(rng: random.Random) -> tuple[str, str]:
        value, _ = expand(template.split("|", 1)[0], rng)
        return value, template.split("|", 1)[1].replace("{}", value)

    return Kind(name, draw, label)


def _numbered_read(rng: random.Random) -> tuple[str, str]:
    pem = _pem(rng, "PRIVATE KEY")
    lines = ["# deploy key, do not commit", *pem.split("\n"), ""]
    shown = "".join(f"{n:>6}→{line}\n" for n, line in enumerate(lines, start=10))
    return "\n".join(pem.split("\n")[1:-1]), shown


def _service_account(rng: random.Random) -> tuple[str, str]:
    pem = _pem(rng, "PRIVATE KEY")
    escaped = pem.replace("\n", "\\n")
    document = (
        '{"type": "service_account", "project_id": "shop-prod", '
        f'"private_key_id": "{_text(rng, "hex", 40)}", "private_key": "{escaped}\\n", '
        '"client_email": "deploy@shop-prod.iam.gserviceaccount.com"}'
    )
    return "\n".join(pem.split("\n")[1:-1]), document


def _basic_json(rng: random.Random) -> tuple[str, str]:
    password = _text(rng, "b62", 14)
    encoded = base64.b64encode(f"deploy:{password}".encode()).decode()
    return encoded, f'requests.get(url, headers={{"Authorization": "Basic {encoded}"}})'


def _kubernetes(rng: random.Random) -> tuple[str, str]:
    password = _text(rng, "b62", 18)
    encoded = base64.b64encode(password.encode()).decode()
    manifest = (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\n"
        f"data:\n  username: YXBw\n  password: {encoded}\n"
    )
    return encoded, manifest


def _wrapped_token(rng: random.Random) -> tuple[str, str]:
    token = "gh" + "p_" + _text(rng, "b62", 36)
    encoded = base64.b64encode(token.encode()).decode()
    return encoded, f"echo {encoded} | base64 -d > ~/.config/gh/token"


def _env_punctuation(rng: random.Random) -> tuple[str, str]:
    value = f"{_text(rng, 'b62', 6)};{_text(rng, 'b62', 4)},{_text(rng, 'b62', 3)}({_text(rng, 'b62', 4)} {_text(rng, 'b62', 5)}"
    return value, f"SMTP_PASSWORD={value}\nSMTP_HOST=mail.example.test\n"


def _typed_password(rng: random.Random) -> tuple[str, str]:
    value = _word(rng).capitalize() + _text(rng, "digits", 3) + "!"
    return value, f"It still says access denied. My password is {value} if that helps."


def _glued_stripe(rng: random.Random) -> tuple[str, str]:
    value = "sk_" + "live_51" + _text(rng, "b62", 97)
    return value, f"const stripe = require('stripe')('{value}');"


def _long_token(rng: random.Random) -> tuple[str, str]:
    value = _text(rng, "b64url", 260)
    return value, f"Response 200 OK\n{value}\n"


def _random_key(rng: random.Random) -> tuple[str, str]:
    value = _text(rng, "b62", 40)
    return value, f"./scripts/deploy.sh eu-west-1 {value} --dry-run"


def _url_at(rng: random.Random) -> tuple[str, str]:
    value = f"{_text(rng, 'b62', 6)}@{_text(rng, 'b62', 6)}"
    return value, f"mongosh 'mongodb://admin:{value}@db.internal:27017/app?authSource=admin'"


# The kinds whose value carries its own evidence; the others are secrets by where they stand.
_BY_SHAPE = frozenset(
    {
        "anthropic-api-key",
        "openai-project-key",
        "openrouter-key",
        "sk-hex32",
        "sk-48",
        "github-classic-pat",
        "github-fine-grained-pat",
        "gitlab-pat",
        "slack-bot-token",
        "stripe-glued-key",
        "stripe-webhook-secret",
        "aws-access-key-id",
        "google-api-key",
        "google-oauth-secret",
        "sendgrid-key",
        "twilio-api-key",
        "huggingface-token",
        "npm-token",
        "pypi-token",
        "jwt",
        "vault-token",
        "age-secret-key",
        "doppler-token",
    }
)

# The kinds: shapes by vendor prefix, then credentials by position, then what people type.
KINDS: tuple[Kind, ...] = (
    _simple(
        "anthropic-api-key",
        "sk-ant-api03-{b64url:93}AA|export ANTHROPIC_API_KEY={}",
        "anthropic-api-key",
    ),
    _simple("openai-project-key", "sk-proj-{b64url:132}|use {} for the eval run"),
    _simple("openrouter-key", "sk-or-v1-{hex:64}|curl -H 'X-Key: {}' https://openrouter.example"),
    _simple("sk-hex32", "sk-{hex:32}|export default { llm: '{}' }"),
    _simple("sk-48", "sk-{b62:48}|KEYS = ['{}']"),
    _simple(
        "github-classic-pat",
        "ghp_{b62:36}|git clone https://{}@github.com/acme/shop.git",
    ),
    _simple(
        "github-fine-grained-pat",
        "github_pat_{b62:22}_{b62:59}|gh auth login --with-token <<< {}",
    ),
    _simple(
        "gitlab-pat", "glpat-{b64url:20}|curl --header 'PRIVATE-TOKEN: {}' https://gitlab.example"
    ),
    _simple(
        "slack-bot-token",
        'xoxb-{digits:12}-{digits:13}-{b62:24}|slack = WebClient(token="{}")',
    ),
    _simple(
        "slack-webhook",
        "https://hooks.slack.com/services/T{upper36:8}/B{upper36:10}/{b62:24}|notify: {}",
    ),
    Kind("stripe-glued-key", _glued_stripe),
    _simple("stripe-webhook-secret", "whsec_{b62:32}|STRIPE_ENDPOINT={}"),
    _simple("aws-access-key-id", "AKIA{upper36:16}|aws_access_key_id = {}"),
    _simple(
        "aws-secret-access-key",
        "{b64:40}|[default]\naws_secret_access_key = {}\nregion = eu-west-1",
    ),
    _simple("google-api-key", 'AIza{b64url:35}|<script src="https://maps.example/js?key={}">'),
    _simple("google-oauth-secret", "GOCSPX-{b64url:28}|client secret GOCSPX: {}"),
    _simple("sendgrid-key", "SG.{b64url:22}.{b64url:43}|sg = SendGridAPIClient('{}')"),
    _simple("twilio-api-key", "SK{hex:32}|twilio api:core:keys:list  # {}"),
    _simple("twilio-auth-token", "{hex:32}|the twilio auth token is {} (from the console)"),
    _simple("huggingface-token", "hf_{b62:34}|huggingface-cli login --token {}"),
    _simple("npm-token", "npm_{b62:36}|npm config set //registry.npmjs.org/:_authToken {}"),
    _simple(
        "pypi-token", "pypi-AgEIcHlwaS5vcmc{b64url:120}|twine upload -u __token__ -p {} dist/*"
    ),
    _simple(
        "jwt",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{b64url:60}.{b64url:43}|Cookie set: session={}",
    ),
    Kind("private-key", lambda rng: (lambda pem: (pem, f"$ cat deploy_key\n{pem}\n"))(_pem(rng))),
    Kind("private-key-numbered-read", _numbered_read),
    _simple(
        "azure-storage-key",
        "{b64:86}==|DefaultEndpointsProtocol=https;AccountName=shop;AccountKey={};EndpointSuffix=core.windows.net",
    ),
    _simple(
        "azure-sas",
        "{b64:43}%3D|https://shop.blob.core.windows.net/backups/db.gz?sv=2022-11-02&ss=b&sig={}",
    ),
    Kind("gcp-service-account", _service_account),
    _simple(
        "postgres-url-password",
        "{b62:16}|DATABASE_URL=postgres://app:{}@db.example.test:5432/app",
    ),
    Kind("url-password-with-at", _url_at),
    _simple("redis-url-password", "{b62:20}|REDIS=redis://:{}@cache.internal:6379/0"),
    _simple("mysql-p", "{b62:12}|mysql -h db -u root -p{} shop < dump.sql"),
    _simple("curl-u", "{b62:14}|curl -u admin:{} https://ci.example.test/api/json"),
    _simple("sshpass", "{b62:12}|sshpass -p {} ssh deploy@10.0.0.5 'systemctl restart app'"),
    _simple("docker-login-p", "{b62:16}|docker login -u ci -p {} registry.example.test"),
    _simple(
        "docker-login-password",
        "{b62:16}|docker login registry.example.test --username ci --password {}",
    ),
    _simple("pgpassword", "{b62:14}|PGPASSWORD={} psql -h db -U app -c 'select 1'"),
    _simple(
        "compose-yaml-password",
        "{b62:12}|services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: {}\n",
    ),
    Kind("json-basic-auth", _basic_json),
    _simple(
        "x-api-key-header", "{b62:32}|curl -H 'x-api-key: {}' https://api.example.test/v1/items"
    ),
    _simple(
        "bearer-header",
        "{b64url:48}|fetch(url, { headers: { Authorization: 'Bearer {}' } })",
    ),
    Kind("kubernetes-secret", _kubernetes),
    Kind("base64-wrapped-token", _wrapped_token),
    Kind("env-value-punctuation", _env_punctuation),
    Kind("password-typed-in-message", _typed_password),
    _simple("hex-key-in-prose", "{hex:64}|The signing key is {} and it rotates monthly."),
    Kind("token-over-200-chars", _long_token),
    Kind("random-base62-key", _random_key),
    _simple(
        "telegram-bot-token",
        "{digits:10}:AA{b64url:33}|https://api.telegram.org/bot{}/sendMessage",
    ),
    _simple(
        "discord-webhook-token",
        "{b64url:68}|https://discord.com/api/webhooks/123456789012345678/{}",
    ),
    _simple(
        "vault-token", "hvs.{b64url:90}|export VAULT_ADDR=https://vault.internal\nvault login {}"
    ),
    _simple(
        "netrc-password",
        "{b62:18}|machine api.example.test login ci password {}",
    ),
    _simple("keytool-storepass", "{b62:14}|keytool -list -keystore app.jks -storepass {}"),
    _simple("cookie-session", "{b62:40}|curl -b 'sessionid={}' https://app.example.test/admin"),
    _simple(
        "openssl-pass",
        "{b62:14}|openssl pkcs12 -export -in cert.pem -passout pass:{} -out cert.p12",
    ),
    _simple(
        "ado-connection-string",
        "{b62:10} {b62:6}|Server=tcp:db.example.test;Database=shop;User ID=sa;Password={};Encrypt=true",
    ),
    _simple("age-secret-key", "AGE-SECRET-KEY-1{upper36:58}|age -d -i <(echo {}) backup.age"),
    _simple("doppler-token", "dp.st.prd.{b62:43}|DOPPLER_TOKEN={} doppler run -- npm start"),
)


def fake_secrets(seed: int = 10) -> list[FakeSecret]:
    """One secret of each kind."""
    rng = random.Random(seed)
    return [kind.secret(rng) for kind in KINDS]


def planted_text(seed: int = 10) -> str:
    """One text holding every kind, one after the other."""
    return "\n".join(secret.context for secret in fake_secrets(seed)) + "\n"
