"""The rule table: one entry per shape of secret, each with a name and a text that holds one.

A rule finds a secret by its shape (``ghp_`` and 36 letters and digits) or by
what stands around it (``mysql -p...``, ``"Authorization": "Basic ..."``,
``PGPASSWORD=...``, ``my password is ...``).  Each entry is data:

* ``name``: what the rule finds, unique in the table; the placeholder says
  ``label`` (``name`` when not given; taken from the secret-sounding name
  the match holds, see :func:`~artifact_index.redaction.names.secret_name`,
  when the pattern has a ``name`` group);
* ``pattern``: a regular expression; the group named ``secret`` (or the
  first ``secret...`` group that took part) is what is hidden, else the
  whole match;
* ``example``: a text as a session shows it, holding one secret of this
  shape; its ``{kind:N}`` fields are drawn at random when the table is
  tested (``b62``: letters and digits, ``b64``, ``b64url``, ``hex``,
  ``HEX``, ``upper36``, ``lower36``, ``digits``, ``lower``, ``alpha``,
  ``word``: a pronounceable lowercase word), so no value in this file is a
  credential, and every field must be gone after redaction, but for the
  fields marked ``~`` (``{~digits:18}``): context that is no secret;
* ``keywords``: words (lower case) the match holds or lies near, for a
  rule whose expression has no literal start to search for;
* ``windowed``: the match always lies near a keyword (a secret-sounding
  name, a command): only the text around each one is searched;
* ``boundary``: the match may not follow a letter or a digit (tested in
  code: a leading look-behind would make the expression try every
  position of every text);
* ``min_run``: the match holds a run of base64 at least this long: only
  the text around such runs is searched;
* ``accept``: a last test of the hidden value (not a reference, not code).

Rules are tried in order, earlier ones first; a span once taken is not taken
again, so the specific shapes come before the contextual rules, and those
before the generic ones (:mod:`~artifact_index.redaction.randomness`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from artifact_index.redaction.names import is_code_or_prose
from artifact_index.redaction.randomness import looks_random

__all__ = ["RULES", "SecretRule"]


@dataclass(frozen=True)
class SecretRule:
    """One shape of secret (see the module's documentation for each field)."""

    name: str
    pattern: str
    example: str
    label: str | None = None
    keywords: tuple[str, ...] = ()
    flags: int = 0
    accept: Callable[[str, re.Match[str]], bool] | None = field(default=None, compare=False)
    trim: str = (
        ""  # characters dropped from the end of the hidden value (punctuation of a sentence)
    )
    windowed: bool = False  # look only around the keywords (the rule's match lies near one)
    boundary: bool = False  # the match may not follow a letter or a digit
    min_run: int = 0  # the text must hold a run of base64 this long

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        # Compiled on first use: a process that never meets a keyword never pays for the rule.
        return re.compile(self.pattern, self.flags)

    @property
    def names_its_label(self) -> bool:
        """The label comes from the secret-sounding name in the match."""
        return "(?P<name>" in self.pattern


# Each test takes the hidden value and the match it was found in.
Match = re.Match[str]


def _name(match: Match) -> str:
    return match.group("name") if "name" in match.re.groupindex else ""


def _quoted(match: Match, value_start: int) -> bool:
    """The value stands between quotes (a literal), not bare (perhaps a variable of the code)."""
    named = match.re.groupindex
    if any(
        match.start(group) >= 0
        for group in ("secret_dq", "secret_sq", "secret_bq")
        if group in named
    ):
        return True
    return value_start > 0 and match.string[value_start - 1] in "\"'`"


def _config_value(value: str, match: Match) -> bool:
    return not is_code_or_prose(value, "config")


def _literal_value(value: str, match: Match) -> bool:
    return not is_code_or_prose(value, "literal") and len(value.strip()) >= 3


def _code_value(value: str, match: Match) -> bool:
    return not is_code_or_prose(value, "code") and len(value.strip()) >= 4


def _header_value(value: str, match: Match) -> bool:
    """A header's value: a literal when quoted, else perhaps a variable (``'X-Api-Key': apiKey``)."""
    quoted = _quoted(match, match.start("secret"))
    return not is_code_or_prose(value, "literal" if quoted else "code")


def _assigned_value(value: str, match: Match) -> bool:
    """NAME=value: any value under an environment-style name, else not code (``token=token``)."""
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", _name(match)) or _quoted(match, match.start("secret")):
        return _config_value(value, match)
    return _code_value(value, match)


def _env_value(value: str, match: Match) -> bool:
    """A ``.env`` value: anything, unless the line is code (``user.password = hashedPassword;``)."""
    if "." in _name(match) or value.rstrip().endswith(";"):
        return _code_value(value.rstrip().rstrip(";"), match)
    return _config_value(value, match)


def _yaml_value(value: str, match: Match) -> bool:
    """A YAML value: anything under an environment-style name (POSTGRES_PASSWORD: postgres), else no
    type, no plain word, and not code (``password: {``, ``KEY: str = os.getenv(...)``)."""
    if value.rstrip().endswith(("{", "(", "[", ",", ";", "=>")) or " = " in value:
        return False
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", _name(match)):
        return _config_value(value, match)
    return not is_code_or_prose(value, "code") or bool(re.search(r"\d", value))


def _option_value(value: str, match: Match) -> bool:
    return not value.startswith("-") and _assigned_value(value, match)


def _typed_password(value: str, match: Match) -> bool:
    """A value typed as a password in prose: not plain words, not code, with a digit, a symbol or mixed case."""
    stripped = value.strip(".,;:!?)(\"'`")
    if len(stripped) < 6 or stripped.startswith(("/", "~", "http")):
        return False
    if is_code_or_prose(stripped, "code"):
        return False
    return bool(re.search(r"[0-9]|[^A-Za-z0-9]|[a-z].*[A-Z]|[A-Z].*[a-z]", stripped[1:]))


def _typed_token(value: str, match: Match) -> bool:
    """A value typed as a token in prose: letters and digits mixed, not a path, a URL or an identifier."""
    stripped = value.strip(".,;:!?)(\"'`")
    if len(stripped) < 12 or stripped.startswith(("http", "/", "~", ".")):
        return False
    if not (re.search(r"\d", stripped) and re.search(r"[A-Za-z]", stripped)):
        return looks_random(stripped)
    return not is_code_or_prose(stripped, "code")


def _whole_number_id(value: str, match: Match) -> bool:
    """The bot's number is whole: no digit right before it (``/bot123...:AA...`` is fine)."""
    start = match.start()
    return start == 0 or not match.string[start - 1].isdigit()


def _not_words(value: str, match: Match) -> bool:
    """A token with a digit, or mixed case: not a word of a CSS class or a sentence."""
    return bool(re.search(r"\d", value)) or (
        bool(re.search(r"[a-z]", value)) and bool(re.search(r"[A-Z]", value))
    )


# Characters of a token that are never part of the prose around it.
_T = r"A-Za-z0-9"
# The end of a token: no more of its characters follow (a glued tail is taken with it).
_END = r"(?![A-Za-z0-9_-])"
# What ends a shell word that is not quoted: a pipe, a next command, a redirection, the end of a
# $( ) or ` ` around it. A value on a command line stops there (the command after it is no secret).
_SHELL_END = r"\s\"'`|;&<>)"
# A value as commands and config spell it: quoted (spaces allowed), or one shell word.
_VALUE = (
    r"(?:\"(?P<secret_dq>[^\"\n]{1,200})\"|'(?P<secret_sq>[^'\n]{1,200})'"
    r"|(?P<secret>[^" + _SHELL_END + r"]{1,200}))"
)
# After a NAME=value, a separator and a command word: the next command (``TOKEN=x;next``,
# ``PGPASSWORD=x&&psql``). A value may hold ; | & itself (a .env line), so only a separator
# followed by a lowercase word that stands alone (a command, not ``;defg,hij(`` of a password).
_NEXT_COMMAND = r"(?:&&|\|\||[;|&)])[ \t]*[a-z_./][a-z0-9_./+-]+(?=[ \t]|[;&|)]|\r?$|\\[nr\"])"
# A command's arguments before the option that holds the password (no pipe, no next command).
_ARGS = r"[^\n|;&]*?\s"
_NAME = r"[A-Za-z_][A-Za-z0-9_.-]{0,80}+"
# A word's start, also right after an escape of a JSON string ("...\\ndocker login ...").
_WORD_START = r"(?:\b|(?<=\\[nrt]))"
# A line's start and end, also inside a JSON string (a file's content as a tool's input: "A=1\\nB=2").
_LINE_START = r"(?:^|(?<=\\n))"
_LINE_END = r"(?:\r?$|(?=\\[nr\"]))"
# What every secret-sounding name holds (see names.secret_name): the rules that read names look near these.
_NAMES = ("pass", "pwd", "secret", "token", "key", "credential", "contrasena")

RULES: tuple[SecretRule, ...] = (
    # -- private keys, first: their bodies would otherwise be cut into random-looking pieces ----
    SecretRule(
        "private-key",
        # To the END line, or, when the text was cut, to where it stops looking like a key. Lines may
        # carry a viewer's line numbers (Claude Code's Read: "    12→"), and be JSON-escaped.
        r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
        r"(?:[\sA-Za-z0-9+/=:,.→-]|\\+[nrt]|\\+u2192)*?"
        r"(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?=[^\sA-Za-z0-9+/=:,.→\\-])|\Z)",
        "$ cat id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\n{b64:70}\n{b64:70}\n{b64:20}=\n"
        "-----END OPENSSH PRIVATE KEY-----\n",
    ),
    SecretRule(
        "putty-private-key",
        r"PuTTY-User-Key-File-\d:[^\n]*(?:\n[^\n]+)*",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPublic-Lines: 2\n{b64:64}\n",
        label="private-key",
    ),
    SecretRule(
        "key-body-lines",
        # The body of a key or certificate without its BEGIN line (a file read from the middle):
        # two or more full lines of base64, each perhaps after a line number.
        r"(?:(?:^|(?<=\n)|(?<=\\n))[ \t]*(?:\d+(?:→|\t|: ?))?[A-Za-z0-9+/]{60,76}(?:\r?\n|\\n)){2,}"
        r"(?:[ \t]*(?:\d+(?:→|\t|: ?))?[A-Za-z0-9+/]{0,76}={0,2}(?=\r?\n|\\n|$))?",
        "     12→{b64:64}\n     13→{b64:64}\n     14→{b64:64}\n     15→{b64:12}==\n",
        label="private-key",
        flags=re.MULTILINE,
        min_run=60,
    ),
    SecretRule(
        "private-key-tail",
        # The last lines of a key whose start was cut off (a view elided the middle): up to its END.
        r"(?P<secret>(?:[A-Za-z0-9+/]{4,76}={0,2}(?:\r?\n|\\+n)[ \t]*(?:\d+(?:→|\t|: ?))?){1,3})"
        r"-----END[A-Z0-9 ]*PRIVATE KEY",
        "[…elided…]\n{b64:64}\n{b64:20}==\n-----END PRIVATE KEY-----\n",
        label="private-key",
        keywords=("-----end",),
        windowed=True,
    ),
    SecretRule("age-secret-key", r"AGE-SECRET-KEY-1[0-9A-Z]{58}", "AGE-SECRET-KEY-1{upper36:58}"),
    # -- vendor tokens, by their prefix ---------------------------------------------------------
    SecretRule(
        "anthropic-api-key",
        r"sk-ant-[A-Za-z0-9_-]{20,}",
        "client = Anthropic(api_key='sk-ant-api03-{b64url:93}AA')",
    ),
    SecretRule(
        "openrouter-api-key",
        r"sk-or-v1-[0-9a-f]{64}" + _END,
        "OpenRouter key: sk-or-v1-{hex:64}",
    ),
    SecretRule(
        "openai-api-key",
        r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}"
        r"|sk-[A-Za-z0-9_-]*[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}[A-Za-z0-9_-]*",
        "openai.api_key = sk-proj-{b64url:120}",
    ),
    SecretRule(
        "sk-api-key",
        # Keys of the many APIs that copied OpenAI's sk- (DeepSeek, Moonshot, ...): hex or letters.
        r"sk-[A-Za-z0-9_-]{20,}",
        "curl https://api.deepseek.example -H 'key: sk-{hex:32}'",
        label="api-key",
        accept=_not_words,
        boundary=True,
    ),
    SecretRule(
        "github-token",
        r"gh[pousr]_[A-Za-z0-9_]{36,}|github_pat_[A-Za-z0-9_]{22,}",
        "git remote set-url origin https://ghp_{b62:36}@github.com/acme/app.git",
    ),
    SecretRule(
        "gitlab-token",
        r"(?:glpat|gldt|glft|glsoat|glrt|glcbt|glimt|glptt|glagent|gloas|glffct|glwt)-"
        r"[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,}",
        "PRIVATE-TOKEN glpat-{b64url:20}",
    ),
    SecretRule(
        "slack-token",
        r"xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{20,}",
        "SLACK_BOT=xoxb-{digits:12}-{digits:12}-{b62:24}",
        flags=re.IGNORECASE,
    ),
    SecretRule(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]+",
        "post to https://hooks.slack.com/services/T{upper36:8}/B{upper36:8}/{b62:24}",
        flags=re.IGNORECASE,
    ),
    SecretRule(
        "stripe-key",
        r"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,}",
        "stripe.api_key='sk_live_{b62:99}'",
    ),
    SecretRule(
        "webhook-secret",
        r"whsec_[A-Za-z0-9+/=_-]{20,}",
        "endpoint signing secret whsec_{b62:32}",
    ),
    SecretRule(
        "aws-access-key-id",
        r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])",
        "aws configure set aws_access_key_id AKIA{upper36:16}",
        boundary=True,
    ),
    SecretRule(
        "aws-secret-key-near-aws",
        r"aws.{0,20}?(?:key|pwd|pw|password|pass|token).{0,20}?['\"](?P<secret>[0-9a-zA-Z/+]{40})['\"]",
        "aws_credentials = {'aws_secret_key': '{b64:40}'}",
        label="aws-secret-key",
        keywords=("aws",),
        flags=re.IGNORECASE,
        windowed=True,
    ),
    SecretRule(
        "google-api-key",
        r"AIza[0-9A-Za-z_-]{35}",
        "maps key AIza{b64url:35}",
        boundary=True,
    ),
    SecretRule(
        "google-oauth-secret",
        r"GOCSPX-[A-Za-z0-9_-]{20,}",
        "client_secret GOCSPX-{b64url:28}",
    ),
    SecretRule(
        "google-oauth-token",
        r"ya29\.[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{30,}",
        "token ya29.{b64url:120}",
    ),
    SecretRule(
        "sendgrid-key",
        r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",
        "sendgrid SG.{b64url:22}.{b64url:43}",
        boundary=True,
    ),
    SecretRule(
        "twilio-key",
        r"(?:AC|SK)[a-z0-9]{32}(?![A-Za-z0-9])",
        "twilio api key SK{hex:32}",
        boundary=True,
    ),
    SecretRule(
        "twilio-auth-token",
        # The auth token next to its account SID: Client("AC...", "...") or -u AC...:token.
        r"AC[a-z0-9]{32}['\"]?\s*[,:]\s*['\"]?(?P<secret>[0-9a-f]{32})(?![0-9a-f])",
        "client = Client('AC{~hex:32}', '{hex:32}')",
    ),
    SecretRule(
        "huggingface-token",
        r"(?:hf_|api_org_)[A-Za-z0-9]{30,}",
        "huggingface-cli login --token hf_{b62:34}",
    ),
    SecretRule("npm-token", r"npm_[A-Za-z0-9]{36,}", "npm token: npm_{b62:36}"),
    SecretRule(
        "npmrc-auth-token",
        r"//[^\n]*?/:_auth(?:Token)?\s*=\s*(?P<secret>[^\s\"']+)",
        "//registry.npmjs.org/:_authToken={hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}",
        label="npm-token",
        keywords=(":_auth",),
        windowed=True,
    ),
    SecretRule(
        "pypi-token",
        r"pypi-AgE[A-Za-z0-9_-]{50,}",
        "twine upload -p pypi-AgEIcHlwaS5vcmc{b64url:70}",
    ),
    SecretRule(
        "jwt",
        r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"
        r"|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
        "cookie=eyJhbGciOiJIUzI1NiJ9.eyJ{b64url:40}.{b64url:43}",
    ),
    SecretRule(
        "azure-storage-key",
        r"AccountKey=(?P<secret>[A-Za-z0-9+/=]{40,})",
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={b64:86}==;",
        keywords=("accountkey=",),
        windowed=True,
    ),
    SecretRule(
        "azure-sas-signature",
        r"(?:[?&;]|\b)sig=(?P<secret>[A-Za-z0-9%+/=]{16,})",
        "https://acme.blob.core.windows.net/c/f?sv=2022-11-02&sig={b64:43}%3D",
        keywords=("sig=",),
        windowed=True,
    ),
    SecretRule(
        "azure-client-secret",
        r"(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])",
        "AZURE_CLIENT_SECRET value {b62:3}8Q~{b62:34}",
        keywords=("q~",),
        windowed=True,
    ),
    SecretRule(
        "discord-token",
        r"[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}",
        "bot.run('M{b62:25}.{b62:6}.{b64url:38}')",
        min_run=23,
    ),
    SecretRule(
        "discord-webhook",
        r"discord(?:app)?\.com/api/webhooks/\d+/(?P<secret>[A-Za-z0-9_-]{30,})",
        "https://discord.com/api/webhooks/{~digits:18}/{b64url:68}",
        keywords=("discord",),
        windowed=True,
    ),
    SecretRule(
        "mailchimp-key",
        r"[0-9a-z]{32}-us\d{1,2}(?![0-9])",
        "mailchimp {hex:32}-us14",
        keywords=("-us",),
        windowed=True,
    ),
    SecretRule(
        "square-token",
        r"sq0(?:csp|atp)-[0-9A-Za-z_\\-]{22,}|EAAA[A-Za-z0-9_-]{60}(?![A-Za-z0-9+/=])",
        "square secret sq0csp-{b64url:43}",
        boundary=True,
    ),
    SecretRule(
        "telegram-bot-token",
        r"\d{8,10}:(?:AA[0-9A-Za-z_-]{33}|[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])",
        "https://api.telegram.org/bot{digits:10}:AA{b64url:33}/sendMessage",
        accept=_whole_number_id,
        min_run=33,
    ),
    SecretRule(
        "shopify-token",
        r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",
        "X-Shopify-Access-Token shpat_{hex:32}",
    ),
    SecretRule(
        "databricks-token",
        r"dapi[a-f0-9]{32}(?:-\d)?",
        "DATABRICKS dapi{hex:32}",
    ),
    SecretRule(
        "digitalocean-token",
        r"do[opr]_v1_[a-f0-9]{64}",
        "doctl auth init -t dop_v1_{hex:64}",
    ),
    SecretRule(
        "doppler-token",
        r"dp\.(?:st|ct|sa|scim|audit|pt)\.[A-Za-z0-9_.-]{40,}",
        "doppler dp.st.{b62:43}",
    ),
    SecretRule(
        "linear-api-key",
        r"lin_(?:api|oauth)_[A-Za-z0-9]{40}",
        "linear lin_api_{b62:40}",
    ),
    SecretRule(
        "vault-token",
        r"hv[sbr]\.[A-Za-z0-9_-]{24,}",
        "VAULT hvs.{b64url:90}",
    ),
    SecretRule(
        "atlassian-token",
        r"(?:ATATT3|ATCTT3|ATBB)[A-Za-z0-9_=.-]{28,}",
        "jira token ATATT3{b64url:180}",
    ),
    SecretRule(
        "postman-key",
        r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
        "postman PMAK-{hex:24}-{hex:34}",
    ),
    SecretRule(
        "grafana-token",
        r"glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[a-f0-9]{8}",
        "grafana glsa_{b62:32}_{hex:8}",
    ),
    SecretRule(
        "ai-provider-key",
        # Groq, xAI, Replicate, Perplexity, Tavily, Firecrawl, Fireworks: prefixes seen in agent sessions.
        r"(?:gsk_[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{50,}|r8_[A-Za-z0-9]{30,}|pplx-[A-Za-z0-9]{40,}"
        r"|tvly-(?:dev-|prod-)?[A-Za-z0-9]{24,}|fc-[a-f0-9]{32}|fw_[A-Za-z0-9]{20,})" + _END,
        "GROQ gsk_{b62:52}",
        label="api-key",
    ),
    SecretRule(
        "platform-token",
        # Supabase, Sentry, New Relic, Notion, Figma, Docker Hub, Pulumi, Fly, Netlify, Heroku, Mapbox.
        r"(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,}|sntr[yu]s?_[A-Za-z0-9+/=_-]{40,}"
        r"|NRAK-[A-Z0-9]{27}|ntn_[A-Za-z0-9]{40,}|secret_[A-Za-z0-9]{43}|figd_[A-Za-z0-9_-]{40,}"
        r"|dckr_pat_[A-Za-z0-9_-]{20,}|pul-[a-f0-9]{40}|fo1_[A-Za-z0-9_-]{40,}|nfp_[A-Za-z0-9]{36,}"
        r"|HRKU-[A-Za-z0-9_-]{40,}|sk\.eyJ[A-Za-z0-9_.-]{50,}|dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64})"
        + _END,
        "docker login -u acme --password-stdin <<< dckr_pat_{b64url:27}",
        label="api-key",
    ),
    # -- credentials by where they stand ----------------------------------------------------------
    SecretRule(
        "url-password",
        # The password runs to the last @ before the host: it may hold an @ itself.
        r""
        + _WORD_START
        + r"[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@\[\]\"'<>]*:(?P<secret>[^\s/\"'<>]+)@(?=[A-Za-z0-9\[_])",
        "DATABASE_URL=postgres://app:{b62:8}@{b62:5}@db.internal:5432/app",
        keywords=("://",),
        windowed=True,
    ),
    SecretRule(
        "bearer-token",
        _WORD_START + r"(?:[Bb]earer|BEARER)\s+(?P<secret>[A-Za-z0-9._~+/-]{12,}=*)",
        "curl -H 'X-Auth: Bearer {b64url:40}' https://api.example.test",
        keywords=("bearer",),
        accept=_not_words,
        windowed=True,
    ),
    SecretRule(
        "authorization-header",
        _WORD_START + r"(?:proxy-)?authorization\\?[\"']?\s*[:=]\s*\\?[\"']?"
        r"(?:(?:basic|bearer|token|digest|negotiate|ntlm|apikey|api-key|key|ssws|jwt|hmac|otp"
        r"|aws4-hmac-sha256|gosdk|splunk|klaviyo-api-key|zoho-oauthtoken)\s+)?"
        r"(?P<secret>[^\s\"'`\\,${}()]{6,}(?:,\s*[A-Za-z]+=[^\s,\"'`\\]+)*)",
        'headers = {"Authorization": "Basic {b64:24}"}',
        keywords=("authorization",),
        flags=re.IGNORECASE,
        accept=_literal_value,
        windowed=True,
    ),
    SecretRule(
        "signed-url-parameter",
        r"(?i)[?&](?:x-amz-signature|x-goog-signature|x-amz-security-token|signature|access_token"
        r"|refresh_token|id_token|client_secret|api_key|apikey|token|auth|key)=(?P<secret>[^&\s\"'#<>]{8,})",
        "https://bucket.s3.amazonaws.com/a.zip?X-Amz-Expires=300&X-Amz-Signature={hex:64}",
        label="secret",
        keywords=("sig", "token", "secret", "key", "auth"),
        windowed=True,
        accept=_header_value,
    ),
    SecretRule(
        "credential-header",
        # x-api-key: ..., PRIVATE-TOKEN: ..., Ocp-Apim-Subscription-Key: ... (in a command, a log, a dict).
        r"(?i)"
        + _WORD_START
        + r"(?:x-[a-z0-9-]*(?:key|token|secret|auth|signature|password|credential)[a-z0-9-]*"
        r"|api-?key|private-token|job-token|deploy-token|ocp-apim-subscription-key|x-goog-api-key)"
        r"\\?[\"']?\s*[:=]\s*\\?[\"']?(?P<secret>[^,\\" + _SHELL_END + r"]{6,})",
        "curl -H 'x-api-key: {b62:40}' https://api.example.test",
        keywords=("key", "token", "secret", "auth", "signature", "password", "credential"),
        accept=_header_value,
        windowed=True,
    ),
    SecretRule(
        "cookie",
        r"(?im)"
        + _WORD_START
        + r"(?:set-)?cookie[\"']?\s*:\s*[\"']?(?P<secret>[^\r\n\"']*=[^\r\n\"']{6,})",
        "curl -H 'Cookie: session={b62:32}; theme=dark' https://app.example.test",
        keywords=("cookie",),
        windowed=True,
    ),
    SecretRule(
        "mysql-password",
        r""
        + _WORD_START
        + r"(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlsh|mariadb|mariadb-dump)\b"
        + _ARGS
        + r"-p(?:\"(?P<secret_dq>[^\"\n]+)\"|'(?P<secret_sq>[^'\n]+)'|(?P<secret>[^"
        + _SHELL_END
        + r"]+))",
        "mysql -u root -p{b62:12} shop < dump.sql",
        label="password",
        keywords=("mysql", "mariadb"),
        windowed=True,
    ),
    SecretRule(
        "sshpass-password",
        _WORD_START + r"sshpass\s+-p\s*" + _VALUE,
        "sshpass -p '{b62:10}!' ssh deploy@10.0.0.5",
        label="password",
        keywords=("sshpass",),
        windowed=True,
    ),
    SecretRule(
        "registry-login-password",
        r""
        + _WORD_START
        + r"(?:docker|podman|nerdctl|buildah|skopeo|helm\s+registry|oras|crane|regctl)\s+login\b"
        + _ARGS
        + r"(?:-p|--password)(?:=|\s+)"
        + _VALUE,
        "docker login -u ci -p {b62:16} registry.example.test",
        label="password",
        keywords=("login",),
        windowed=True,
    ),
    SecretRule(
        "http-client-user",
        r""
        + _WORD_START
        + r"(?:curl|http|https|xh|wget|ab|hey|httpie)\b"
        + _ARGS
        + r"(?:-u|--user|-a|--auth)(?:=|\s*)[\"']?[^\s:\"'@/]+:(?P<secret>[^@"
        + _SHELL_END
        + r"]+)",
        "curl -u admin:{b62:12} https://ci.example.test/api/json",
        label="password",
        keywords=("curl", "http", "wget", "xh ", "ab ", "hey "),
        windowed=True,
    ),
    SecretRule(
        "database-cli-password",
        _WORD_START + r"(?:redis-cli\b" + _ARGS + r"(?:-a|--pass)\s+"
        r"|(?:sqlcmd|bcp|osql|isql)\b" + _ARGS + r"-P\s*"
        r"|(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b"
        + _ARGS
        + r"(?:-p|--password)(?:=|\s+)"
        r"|(?:zip|unzip)\b" + _ARGS + r"-P\s+|7z[az]?\b" + _ARGS + r"-p"
        r"|(?:htpasswd)\b(?:\s+-\w+)*\s+-\w*b\w*(?:\s+-\w+)*\s+\S+\s+\S+\s+"
        r"|smbclient\b" + _ARGS + r"-U\s*\S+%"
        r"|(?:keytool|jarsigner)\b" + _ARGS + r"-(?:src|dest|new)?(?:store|key)pass\s+)" + _VALUE,
        "redis-cli -h cache.internal -a {b62:16} ping",
        label="password",
        keywords=("redis-cli", "sqlcmd", "bcp", "osql", "isql", "mongo", "zip", "7z", "htpasswd")
        + ("smbclient", "keytool", "jarsigner"),
        windowed=True,
    ),
    SecretRule(
        "openssl-pass-argument",
        _WORD_START + r"pass:(?P<secret>[^" + _SHELL_END + r"]+)",
        "openssl pkcs12 -export -passout pass:{b62:14} -out cert.p12",
        label="password",
        keywords=("pass:",),
        windowed=True,
    ),
    SecretRule(
        "piped-password",
        # echo SECRET | docker login --password-stdin, | sudo -S, | chpasswd (user:SECRET)
        r""
        + _WORD_START
        + r"echo\s+(?:-n\s+)?(?P<q>[\"']?)(?:[\w.-]+:)?(?P<secret>[^\s\"'|$][^\s\"'|]*)(?P=q)\s*\|\s*"
        r"(?:sudo\s+-S\b|(?:sudo\s+)?chpasswd\b|[^\n|]*--password-stdin)",
        "echo '{b62:14}' | docker login -u ci --password-stdin registry.example.test",
        label="password",
        keywords=("echo",),
        windowed=True,
    ),
    SecretRule(
        "sql-password",
        r"(?i)"
        + _WORD_START
        + r"(?:with\s+(?:encrypted\s+)?password|identified\s+by|password\s*=)\s+"
        r"(?P<q>['\"])(?P<secret>[^'\"\n]+)(?P=q)",
        "CREATE USER app IDENTIFIED BY '{b62:14}';",
        label="password",
        keywords=("password", "identified"),
        windowed=True,
    ),
    SecretRule(
        "netrc-password",
        r"(?m)" + _WORD_START + r"login\s+\S+\s+password\s+(?P<secret>\S+)",
        "machine api.example.test login ci password {b62:16}",
        label="password",
        keywords=("password",),
        windowed=True,
    ),
    SecretRule(
        "server-config-password",
        r"(?im)^[ \t]*(?:requirepass|masterauth|rpcpassword|auth_pass)[ \t]+(?P<secret>\S+)",
        "requirepass {b62:20}",
        label="password",
        keywords=("requirepass", "masterauth", "rpcpassword", "auth_pass"),
        windowed=True,
    ),
    SecretRule(
        "connection-string-password",
        # Key=value; pairs: after a ; to the next ; or the string's end, or from its start to a ;.
        r"(?i)(?:(?<=;)[ \t]*(?:password|pwd)[ \t]*=[ \t]*(?P<secret>[^;\"'\r\n]+?)[ \t]*(?=;|\"|'|\r?$)"
        r"|(?:^|(?<=[\"']))[ \t]*(?:password|pwd)[ \t]*=[ \t]*(?P<secret2>[^;\"'\r\n]+?)[ \t]*(?=;))",
        "Server=db;Database=shop;User Id=sa;Pwd={b62:8} {b62:4};",
        label="password",
        keywords=("password", "pwd"),
        flags=re.MULTILINE,
        windowed=True,
    ),
    SecretRule(
        "powershell-secure-string",
        r"ConvertTo-SecureString\s+(?:-String\s+)?(?P<q>[\"'])(?P<secret>[^\"'\n]+)(?P=q)",
        "$p = ConvertTo-SecureString '{b62:14}' -AsPlainText -Force",
        label="password",
        keywords=("convertto-securestring",),
        windowed=True,
    ),
    SecretRule(
        "kubernetes-secret-data",
        # A Secret's data: block holds every value base64-encoded, whatever its name.
        r"(?m)^(?P<indent>[ \t]*)(?:data|binaryData):[ \t]*\r?\n"
        r"(?P<secret>(?:(?P=indent)[ \t]+[\w.-]+:[ \t]*[A-Za-z0-9+/]{4,}={0,2}[ \t]*\r?(?:\n|$))+)",
        "kind: Secret\ndata:\n  username: YWRtaW4=\n  db-url: {b64:40}\n",
        label="kubernetes-secret",
        keywords=("kind: secret",),
    ),
    # -- values under secret-sounding names -------------------------------------------------------
    SecretRule(
        "env-line",
        # .env and shell lines: NAME=value at a line's start, the value to the line's end (a .env value may
        # hold ; , ( and spaces) unless shell words follow it.
        r"(?m)"
        + _LINE_START
        + r"[ \t]*(?:export[ \t]+|set[ \t]+|-[ \t]+)?(?P<name>"
        + _NAME
        + r")[ \t]*=[ \t]*"
        r"(?:\\?\"(?P<secret_dq>[^\"\n\\]*)\\?\"|'(?P<secret_sq>[^'\n\\]*)'"
        r"|(?P<secret>[^\s\"'`\\](?:(?!"
        + _NEXT_COMMAND
        + r")[^\s\"'`\\])*(?:[ \t]+(?![-./$|&<>~])[^\s=\"'`.\\]+){0,4}))"
        r"[ \t]*(?:[ \t]#[^\n\\]*)?" + _LINE_END,
        "DB_PASSWORD={b62:6};{b62:4}({b62:3} {b62:5}\n",
        label="",
        keywords=_NAMES,
        windowed=True,
        accept=_env_value,
    ),
    SecretRule(
        "yaml-line",
        # YAML and headers at a line's start: NAME: value to the line's end (a comment aside).
        r"(?m)"
        + _LINE_START
        + r"[ \t]*(?:-[ \t]+)?(?P<q1>\\?[\"']?)(?P<name>"
        + _NAME
        + r")(?P=q1)[ \t]*:[ \t]+"
        r"(?:\\?\"(?P<secret_dq>[^\"\n\\]*)\\?\"|'(?P<secret_sq>[^'\n\\]*)'"
        r"|(?P<secret>[^\s\"'#|>&*!{\[\\][^\n#\\]*?))"
        r"[ \t]*(?:[ \t]#[^\n\\]*)?" + _LINE_END,
        "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: {b62:12}\n",
        label="",
        keywords=_NAMES,
        windowed=True,
        accept=_yaml_value,
    ),
    SecretRule(
        "quoted-assignment",
        # Code and config: name = "literal", name: 'literal', "name": "literal", name => "literal".
        r"(?P<name>" + _NAME + r")(?:\\?[\"'\]]){0,2}[ \t]*(?::=|=>|==|=|:)[ \t]*(?:b|r|f)?\\?"
        r"(?:\"(?P<secret_dq>[^\"\n\\]{3,200})\"|'(?P<secret_sq>[^'\n\\]{3,200})'|`(?P<secret_bq>[^`\n\\]{3,200})`)",
        'db = connect(password="{b62:12}")',
        label="",
        keywords=_NAMES,
        windowed=True,
        accept=_literal_value,
    ),
    SecretRule(
        "escaped-assignment",
        # Inside a JSON string: \"password\": \"literal\"
        r"(?P<name>" + _NAME + r")\\\"[ \t]*(?::|=)[ \t]*\\\"(?P<secret>[^\"\\]{3,200})\\\"",
        '{"content": "{\\"api_key\\": \\"{b62:32}\\"}"}',
        label="",
        keywords=_NAMES,
        windowed=True,
        accept=_literal_value,
    ),
    SecretRule(
        "option-value",
        # --password X, --api-key=X, --client-secret X, -Password X
        r"(?<![\w-])--?(?P<name>[A-Za-z][A-Za-z0-9_-]{1,40}+)(?:=|[ \t]+)" + _VALUE,
        "./deploy.sh --client-secret {b62:24} --region eu",
        label="",
        keywords=_NAMES,
        windowed=True,
        accept=_option_value,
    ),
    SecretRule(
        "inline-assignment",
        # Inside a line: DB_PASSWORD=value in a command, a sentence, a query string (?token=value&),
        # or after an escaped newline of a JSON-encoded file ("X=1\\nDB_PASSWORD=...").
        r"(?:(?<![\w.-])|(?<=\\[nrt]))(?P<name>"
        + _NAME
        + r")=(?P<secret>(?:(?!"
        + _NEXT_COMMAND
        + r")[^\s\"'`<>{}\[\]\\&]){3,}+)",
        "ran PGPASSWORD={b62:10}; psql -h db",
        label="",
        keywords=_NAMES,
        windowed=True,
        accept=_assigned_value,
        trim=".,;:)",
    ),
    SecretRule(
        "unquoted-assignment",
        # name: value inside a line (a header in a command, a dict in a log): random-looking values only.
        r"(?<![\w-])(?P<name>[A-Za-z_][A-Za-z0-9_-]{0,60}+)[ \t]*(?::|=>|:=)[ \t]*(?P<secret>[^\s\"'`,;)(\]\[{}<>]{8,}+)",
        "logged {api_token: {b62:24}} at start",
        label="",
        keywords=_NAMES,
        windowed=True,
        accept=_code_value,
    ),
    # -- secrets a person typed ---------------------------------------------------------------------
    SecretRule(
        "password-in-prose",
        r"(?i)"
        + _WORD_START
        + r"(?:password|passwd|passphrase|pass ?word|pass ?code|pin code|pw)s?"
        r"(?:\s+(?:for|of)\s+[\w@.-]+)?"
        r"\s*(?:\bis\b|\bwas\b|\bwill be\b|\bshould be\b|\bto\b|\bas\b|=|:|->)\s*:?\s*"
        r"(?P<q>[\"'`“‘]?)(?P<secret>[^\s\"'`”’]{4,80})(?P=q)",
        "my password is {lower:6}{digits:3}!",
        label="password",
        keywords=("pass", "pw", "pin code"),
        accept=_typed_password,
        trim=".,;:!?)",
        windowed=True,
    ),
    SecretRule(
        "token-in-prose",
        r"(?i)"
        + _WORD_START
        + r"(?:api[ _-]?key|access[ _-]?key|secret[ _-]?key|token|secret|auth[ _-]?token|credentials?)"
        r"\s*(?:\bis\b|\bwas\b|=|:|->)\s*:?\s*(?P<q>[\"'`“‘]?)(?P<secret>[^\s\"'`”’]{12,200})(?P=q)",
        "the staging token is {b62:28}",
        label="secret",
        keywords=("key", "token", "secret", "credential"),
        accept=_typed_token,
        trim=".,;:!?)",
        windowed=True,
    ),
    SecretRule(
        "hex-key-in-prose",
        # A hex key is found by what names it: a hash would be named otherwise.
        r"(?i)" + _WORD_START + r"(?:key|token|secret|password|passwd|auth|credential)s?"
        r"(?:\s+(?:is|was)|\s*[:=]|\s)\s*[\"'`]?(?P<secret>[0-9a-f]{32,128})(?![0-9a-z])",
        "Twilio auth token {hex:32}",
        label="secret",
        keywords=("key", "token", "secret", "pass", "auth", "credential"),
        windowed=True,
    ),
)
