"""Redaction: secrets become placeholders that say what they hid; everything else stays as it was."""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path

import pytest
from fake_secrets import KINDS, expand, fake_secrets, planted_text
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from artifact_index.ingestion.events import FileOperation, SessionInfo, ToolCall, ToolResult
from artifact_index.presentation.cli import main
from artifact_index.redaction import (
    DISABLE_ENVIRONMENT_VARIABLE,
    RULES,
    SecretRule,
    redact_json,
    redact_path,
    redact_text,
    redaction_disabled,
    secret_name,
    secrets_found_by,
)
from artifact_index.trail.tracker import Tracker

SECRETS = fake_secrets()
PLACEHOLDER = re.compile(r"\[REDACTED[ -]([a-z0-9-]+?)(?:-[0-9a-f]{10})?\]")


# -- the rule table ------------------------------------------------------------------------------


def test_the_table_names_each_rule_once_and_each_rule_holds_an_example() -> None:
    names = [rule.name for rule in RULES]
    assert len(names) == len(set(names))
    assert all(rule.example and re.search(r"\{\w+:\d+\}", rule.example) for rule in RULES)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.name)
def test_each_rule_alone_finds_the_secret_of_its_example_and_the_table_hides_it(
    rule: SecretRule,
) -> None:
    for seed in range(10):
        text, drawn = expand(rule.example, random.Random(seed))
        found = "".join(secrets_found_by(rule, text))
        assert all(value in found for value in drawn), (text, found)
        redacted = redact_text(text)
        assert not [value for value in drawn if value in redacted], redacted
        if not rule.names_its_label:
            assert {match.group(1) for match in PLACEHOLDER.finditer(redacted)} >= {
                rule.label or rule.name
            } or rule.name in ("twilio-auth-token",), redacted


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_every_kind_of_fake_secret_is_hidden_as_a_session_shows_it(kind: object) -> None:
    for seed in range(10):
        secret = fake_secrets(seed)[KINDS.index(kind)]  # type: ignore[arg-type]
        redacted = redact_text(secret.context)
        assert [needle for needle in secret.needles if needle in redacted] == [], redacted
        if secret.label:
            assert f"[REDACTED {secret.label}]" in redacted


def test_the_text_around_a_secret_is_kept() -> None:
    anthropic = SECRETS[0]
    assert (
        redact_text(f"before {anthropic.value} after")
        == "before [REDACTED anthropic-api-key] after"
    )
    assert (
        redact_text("DATABASE_URL=postgres://app:Hx7pQ2mZk9@db.example.test:5432/app")
        == "DATABASE_URL=postgres://app:[REDACTED url-password]@db.example.test:5432/app"
    )


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("mysql -u root -pS3cretPw shop", "S3cretPw"),
        ("curl -u admin:Zq81mXw4 https://ci", "Zq81mXw4"),
        ("sshpass -p 'Hu9!wq2' ssh deploy@h", "Hu9!wq2"),
        ("docker login -u ci -p Tr4nsp0rt registry", "Tr4nsp0rt"),
        ("docker login registry --password Tr4nsp0rt", "Tr4nsp0rt"),
        ("PGPASSWORD=Pa55word psql -h db", "Pa55word"),
        ("environment:\n  POSTGRES_PASSWORD: postgres\n", "postgres\n"),
        ('{"Authorization": "Basic dXNlcjpodW50ZXIy"}', "dXNlcjpodW50ZXIy"),
        ("curl -H 'x-api-key: abcDEF123ghi456' url", "abcDEF123ghi456"),
        ("REDIS=redis://:c4chePw@cache:6379", "c4chePw"),
        ("mongodb://admin:p@ss1@db/app", "p@ss1"),
        ("echo ZGVwbG95OmMwcnJlY3RIb3JzZQ== | base64 -d", "ZGVwbG95OmMwcnJlY3RIb3JzZQ=="),
        ("SMTP_PASSWORD=ab;cd,ef(gh ij\n", "ab;cd,ef(gh ij"),
        ("ok, my password is Sunny2024! thanks", "Sunny2024!"),
        ("the twilio auth token is 0123456789abcdef0123456789abcdef", "0123456789abcdef"),
        ("openssl pkcs12 -passout pass:Xy12zz", "Xy12zz"),
        ("Server=db;User ID=sa;Password=a b;c", "a b"),
        ("apiVersion: v1\nkind: Secret\ndata:\n  password: aHVudGVyMg==\n", "aHVudGVyMg=="),
        ('{"content": "A=1\\nDB_PASSWORD=s3cr3t-x\\nB=2"}', "s3cr3t-x"),
    ],
)
def test_passwords_are_found_by_where_they_stand(text: str, hidden: str) -> None:
    assert hidden not in redact_text(text)


def test_a_glued_long_stripe_key_goes_whole() -> None:
    key = "sk_" + "live_51" + "Ab3" * 33
    redacted = redact_text(f"x=require('stripe')('{key}')")
    assert redacted == "x=require('stripe')('[REDACTED stripe-key]')"


# Secrets on a command line with the next command glued to them: `-pSECRET&&ls`, `TOKEN=x;next`.
_GLUED_COMMANDS = (
    "mysql -u root -p{S}{sep}{cmd}",
    "PGPASSWORD={S}{sep}{cmd}",
    "export API_TOKEN={S}{sep}{cmd}",
    "cd app && DEPLOY_TOKEN={S}{sep}{cmd}",
    "curl -u admin:{S}{sep}{cmd}",
    "curl -H x-api-key:{S}{sep}{cmd}",
    "sshpass -p{S}{sep}{cmd}",
    "docker login -u ci -p {S}{sep}{cmd}",
    "redis-cli -a {S}{sep}{cmd}",
    "./deploy.sh --client-secret {S}{sep}{cmd}",
    "openssl pkcs12 -passout pass:{S}{sep}{cmd}",
    "export GITHUB_TOKEN=ghp_{S}{S}{S}{sep}{cmd}",
    "echo $(mysql -p{S}{sep}{cmd})",
    "echo `mysql -p{S}`{sep}{cmd}",
)


@pytest.mark.parametrize("template", _GLUED_COMMANDS)
def test_a_secret_glued_to_the_next_command_is_hidden_and_the_command_kept(
    template: str,
) -> None:
    rng = random.Random(template)
    for sep in ("&&", ";", "|", "||", ")", "&", "; ", ">out.txt;"):
        for cmd in ("ls", "rm -f src/app.py", "python manage.py migrate", "next"):
            secret = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(12))
            text = template.format(S=secret, sep=sep, cmd=cmd)
            once = redact_text(text)
            assert secret not in once, text
            assert cmd in once, (text, once)
            assert redact_text(once) == once


def test_a_env_value_holding_separators_is_still_hidden_whole() -> None:
    # A .env value may hold ; | & and ( itself: no command word stands after them.
    for value in ("Xk9;pQ2z,ab1(cd e", "ab|Cd7&&Ef", "s3cr3t;Q9x"):
        once = redact_text(f"SMTP_PASSWORD={value}\nSMTP_HOST=mail.example.test\n")
        assert all(part not in once for part in re.split(r"[;|&,( ]+", value) if len(part) > 2)


def test_a_private_key_cut_off_before_its_end_line_is_still_hidden() -> None:
    key = next(s for s in SECRETS if s.kind == "private-key").value
    cut = key[: len(key) // 2]
    assert redact_text(f"output:\n{cut}") == "output:\n[REDACTED private-key]"


def test_a_private_key_inside_escaped_json_or_a_numbered_file_view_is_hidden() -> None:
    key = next(s for s in SECRETS if s.kind == "private-key").value
    body = key.split("\n")[1:-1]
    escaped = json.dumps({"content": json.dumps({"private_key": key})})
    numbered = "".join(f"{n:>6}→{line}\n" for n, line in enumerate(key.split("\n"), start=3))
    middle = "".join(f"{n:>6}→{line}\n" for n, line in enumerate(body[1:], start=12))
    for shown in (escaped, numbered, middle):
        redacted = redact_text(shown)
        assert not [line for line in body[1:] if line in redacted], redacted


def test_a_token_over_two_hundred_characters_and_unnamed_random_keys_are_hidden() -> None:
    rng = random.Random(3)
    alphabet = string.ascii_letters + string.digits
    keys = ["".join(rng.choice(alphabet) for _ in range(size)) for size in (24, 32, 40, 64, 300)]
    redacted = redact_text(" ".join(f"key{n} {key}" for n, key in enumerate(keys)))
    assert [key for key in keys if key in redacted] == []


def test_nearly_every_random_key_of_letters_and_digits_is_found() -> None:
    rng = random.Random(7)
    alphabet = string.ascii_letters + string.digits
    keys = ["".join(rng.choice(alphabet) for _ in range(32)) for _ in range(2000)]
    missed = [key for key in keys if key in redact_text(f"value {key} here")]
    assert len(missed) <= 2  # under 0.1%


# -- what is no secret ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "harmless",
    [
        "src/artifact_index/ingestion/adapters/claude_code.py",
        "/home/dev/.claude/projects/-home-dev-webapp/8463c716-a2ea-4c14-9efa-87158ebd9f20/tool-results/x.txt",
        "commit 5f98664a1b2c3d4e5f60718293a4b5c6d7e8f901 (HEAD -> main)",
        "request 123e4567-e89b-12d3-a456-426614174000 done",
        "tool_use_id toolu_01KSL9QqYN9rX8NXtbyX5ngw and call_00_4ThMmhVbxCJ3BUuppYE2Sg3h",
        "OpenCode ids ses_3a5b8c9d0ffeAbCdEfGhIjKlMn msg_3a5b8c9d1ffeXyZaBcDeFgHiJk prt_3a5b8c9d2ffeQwErTyUiOpAs",
        "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT and resp_68a1b2c3d4e5f6a7b8c9d0e1",
        "ULID 01ARZ3NDEKTSV4RRFFQ69G5FAV and KSUID 2fXGJ7wYoNzqOiKnxcGvqo8d9Qj",
        "github.com/stretchr/testify v1.9.0 h1:HtqpIVDClZ4nwg75+f6Lvsy/wHu+3BoSGCbBAcpTsTg=",
        "integrity sha512-41sCUwGPhMMQIkwksEZXNWeSOMEDIGESTabcdefghijklmnopq==",
        '"node_id":"MDQ6VXNlcjMzNjk0MDA=","id":"PRRC_kwDOQyo98M6m5iFX"',
        "def test_expired_token_is_rejected_when_the_clock_skew_exceeds_the_limit():",
        "subtaskDiffCopyLabel = '✓ Copied'",
        "data = 'dGhpcyBpcyBzb21lIHRlc3QgZGF0YSBmb3IgYmFzZTY0IGRlY29kaW5n'",
        "max_tokens = 4096\ntokenizer: cl100k_base\npassword_field = 'password'",
        "password = request.form['password']\ntoken = get_token()\nAPI_KEY = os.environ['API_KEY']",
        "DB_PASSWORD=${DB_PASSWORD}\nSECRET_KEY=settings.SECRET_KEY",
        "interface Login {\n  password: string;\n  token: string | null;\n}",
        "user.password = hashedPassword;\nformat(token=token, near=near)",
        "The password is required and the token is invalid.",
        '    --- PASS: TestResolveAgentForRewind (0.00s)\n"attempt_pass_rate": 0.6',
        "summary.workerTokenDelta = {\n  token_ratio_geomean=0.8045",
        "'Authorization': `Bearer ${apiInfo.token}`",
        "apiKey: z.ZodOptional<z.ZodString>;",
        "OPENROUTER_API_KEY: str = os.getenv('OPENROUTER_API_KEY')",
        "see https://github.com/Project-MONAI/MONAI/blob/f407fcce1c32c050f327b26a16b7f7bc8a01f593/monai/losses/dice.py",
        "Project-MONAI__MONAI-4943 and django_1776_django-15368",
        "2026-01-13-other-session-id and pg-587764f78a6c7a9c and ipython-input-3-ff99badadc91",
        "/uploads/Xk3pQ9zR2mW7vL4tB8nY6cJ1/photo.jpg",
        "s3://shop-assets/Xk3pQ9zR2mW7vL4tB8nY6cJ1aB/logo.png",
        ".next/static/chunks/pages/_app-Xk3pQ9zR2mW7vL4tB8nY6c.js",
        "C:\\Users\\dev\\AppData\\Local\\Temp\\Xk3pQ9zR2mW7vL4tB8nY6cJ1\\out.log",
        '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==">',
    ],
)
def test_paths_hashes_ids_identifiers_and_test_data_are_not_secrets(harmless: str) -> None:
    assert redact_text(harmless) == harmless


def test_a_thinking_signature_and_image_data_stay_as_the_api_issued_them() -> None:
    signature = "EqQBCkYIBRgCIkB" + "x9Kq" * 80
    image = "iVBORw0KGgo" + "Qz7Lp" * 100
    message = {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "plan", "signature": signature},
            {
                "type": "image",
                "source": {"type": "base64", "media_type": "image/png", "data": image},
            },
        ],
    }
    assert redact_json(message) == message


# -- paths ---------------------------------------------------------------------------------------


def test_a_path_keeps_its_identity_only_its_secret_component_goes() -> None:
    token = "gh" + "p_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    other = "gh" + "p_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    first = redact_path(f"/srv/keys/{token}/config.json")
    second = redact_path(f"/srv/keys/{other}/config.json")
    assert first.startswith("/srv/keys/[REDACTED-github-token-") and first.endswith("]/config.json")
    assert token not in first and first != second
    assert redact_path(f"/srv/keys/{token}/config.json") == first  # stable
    assert redact_text(f"wrote /srv/keys/{token}/config.json") == f"wrote {first}"
    assert redact_path(first) == first


def test_two_paths_never_become_one_in_the_json_every_output_prints() -> None:
    rng = random.Random(5)
    tokens = [
        "hf_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(34))
        for _ in range(50)
    ]
    files = [{"path": f"uploads/{token}/photo.jpg", "status": "created"} for token in tokens]
    redacted = redact_json({"files": files})["files"]
    assert len({entry["path"] for entry in redacted}) == 50
    assert not [t for t in tokens if t in json.dumps(redacted)]


# -- names, determinism, JSON, the opt-out --------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("DB_PASSWORD", "password"),
        ("PGPASSWORD", "password"),
        ("MYSQL_PWD", "password"),
        ("apiKey", "api-key"),
        ("AWS_SECRET_ACCESS_KEY", "aws-secret-key"),
        ("GITHUB_TOKEN", "token"),
        ("csrftoken", "token"),
        ("client_secret", "secret"),
        ("max_tokens", None),
        ("password_field", None),
        ("tokenizer", None),
        ("PWD", None),
        ("PASS", None),
        ("passed", None),
        ("attempt_pass_rate", None),
        ("workerTokenDelta", None),
        ("token_detail_msg", None),
        ("password-stdin", None),
    ],
)
def test_secret_sounding_names(name: str, label: str | None) -> None:
    assert secret_name(name) == label


def test_redacting_twice_changes_nothing_and_the_same_text_always_redacts_the_same() -> None:
    once = redact_text(planted_text())
    assert redact_text(once) == once
    assert redact_text(planted_text()) == once
    assert [s.kind for s in SECRETS if any(n in once for n in s.needles)] == []


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_redaction_is_idempotent_on_any_text(text: str) -> None:
    once = redact_text(text)
    assert redact_text(once) == once


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([s.context for s in fake_secrets(4)]) | st.text(max_size=40),
            st.sampled_from([" ", "\n", "\t", " | "]),
        ),
        max_size=6,
    )
)
def test_redaction_is_idempotent_on_secrets_next_to_any_text(parts: list[tuple[str, str]]) -> None:
    # (Parts glued with no space between, a command word straight after a key, are not words a
    # session shows: there a rule's word boundary may only hold once a placeholder replaced the key.)
    text = "".join(part + space for part, space in parts)
    once = redact_text(text)
    assert redact_text(once) == once


def test_json_is_copied_with_keys_kept_and_values_under_secret_names_hidden() -> None:
    data = {
        "user": "dev",
        "password": "hunter22",
        "headers": {"Authorization": "Basic dXNlcjpwdw=="},
        "nested": [{"note": SECRETS[0].context}],
        "count": 3,
    }
    redacted = redact_json(data)
    assert redacted == {
        "user": "dev",
        "password": "[REDACTED password]",
        "headers": {"Authorization": "Basic [REDACTED authorization-header]"},
        "nested": [{"note": "export ANTHROPIC_API_KEY=[REDACTED anthropic-api-key]"}],
        "count": 3,
    }
    assert data["password"] == "hunter22"  # the input is not changed


def test_the_opt_out_leaves_secrets_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    text = planted_text()
    with redaction_disabled():
        assert redact_text(text) == text
    monkeypatch.setenv(DISABLE_ENVIRONMENT_VARIABLE, "1")
    assert redact_json({"password": "hunter22"}) == {"password": "hunter22"}
    monkeypatch.setenv(DISABLE_ENVIRONMENT_VARIABLE, "0")
    assert redact_text(text) != text


# -- the dependency it replaces ------------------------------------------------------------------

_DETECT_SECRETS_PLUGINS = (
    "aws.AWSKeyDetector",
    "azure_storage_key.AzureStorageKeyDetector",
    "discord.DiscordBotTokenDetector",
    "github_token.GitHubTokenDetector",
    "gitlab_token.GitLabTokenDetector",
    "mailchimp.MailchimpDetector",
    "npm.NpmDetector",
    "openai.OpenAIDetector",
    "pypi_token.PypiTokenDetector",
    "sendgrid.SendGridDetector",
    "slack.SlackDetector",
    "square_oauth.SquareOAuthDetector",
    "stripe.StripeDetector",
    "twilio.TwilioKeyDetector",
)


@pytest.mark.parametrize("plugin", _DETECT_SECRETS_PLUGINS)
def test_the_table_finds_what_the_detect_secrets_plugins_it_replaced_find(plugin: str) -> None:
    """detect-secrets (a test dependency now) drew these shapes; the table must find each of them."""
    module = pytest.importorskip(f"detect_secrets.plugins.{plugin.split('.')[0]}")
    detector = getattr(module, plugin.split(".")[1])
    alphabet = st.characters(codec="ascii", categories=["L", "N"], include_characters="+/=_-.:'\" ")

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data: st.DataObject) -> None:
        pattern = data.draw(st.sampled_from(list(detector.denylist)))
        sample = data.draw(st.from_regex(pattern, fullmatch=True, alphabet=alphabet))
        # Real keys are long and random: the degenerate draws of a regular expression are not keys.
        assume(len(sample) >= 24 and len(set(sample)) >= 12)
        text = f'config = "{sample}"' if plugin.startswith("aws") else f"value {sample} end"
        assert redact_text(text) != text, sample

    check()


# -- through the command line and a saved state ---------------------------------------------------


def _session_showing(text: str, path: Path) -> Path:
    records = [
        {
            "type": "user",
            "uuid": "u1",
            "sessionId": "s",
            "cwd": "/w",
            "message": {"role": "user", "content": f"set up the env:\n{text}"},
        },
        {
            "type": "assistant",
            "uuid": "a1",
            "sessionId": "s",
            "cwd": "/w",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "Bash",
                        "input": {"command": "cat .env"},
                    }
                ],
            },
        },
        {
            "type": "user",
            "uuid": "u2",
            "sessionId": "s",
            "cwd": "/w",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": text}],
            },
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_the_command_line_redacts_and_no_redact_is_the_debugging_opt_out(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    session = _session_showing(planted_text(), tmp_path / "s.jsonl")
    assert main(["tasks", str(session), "--json"]) == 0
    assert main(["show", str(session)]) == 0
    out = capsys.readouterr().out
    assert [s.kind for s in SECRETS if any(n in out for n in s.needles)] == []
    assert main(["--no-redact", "show", str(session), "--json"]) == 0
    assert SECRETS[0].value in capsys.readouterr().out


def test_a_resumed_state_holds_contents_redacted_and_later_edits_still_apply() -> None:
    line = "DB_PASSWORD=Tr0ub4dor-x9Zq"
    content = f"DEBUG=1\n{line}\nPORT=80\n"
    tracker = Tracker(format="claude-code")
    tracker.feed(SessionInfo(turn=0, cwd="/w"))
    tracker.feed(
        ToolCall(
            turn=1,
            call_id="c1",
            tool="Write",
            operations=[FileOperation(action="write", path="/w/.env", content=content)],
        )
    )
    tracker.feed(ToolResult(turn=1, call_id="c1", status="success", output="ok"))
    state = tracker.save()
    assert "Tr0ub4dor-x9Zq" not in state

    resumed = Tracker.resume(state)
    resumed.feed(
        ToolCall(
            turn=2,
            call_id="c2",
            tool="Edit",
            operations=[
                FileOperation(
                    action="edit", path="/w/.env", old=f"{line}\nPORT=80", new=f"{line}\nPORT=8080"
                )
            ],
        )
    )
    resumed.feed(ToolResult(turn=2, call_id="c2", status="success", output="ok"))
    assert resumed.content_of("/w/.env") == "DEBUG=1\nDB_PASSWORD=[REDACTED password]\nPORT=8080\n"


def test_a_path_used_as_a_key_is_redacted_as_a_path_and_field_names_stay() -> None:
    # The tracker's state keys its calls by path: a token in a folder's name reached the state file.
    token = "dp.st.prd." + "Jv9Z5SikxmvI4nRvaOiJOZsJiFbwpqnj5Kl6OYXfLiW"
    state = {"named": {f"/srv/uploads/{token}/photo.jpg": "write", "/srv/app.py": "edit"}}
    redacted = redact_json(state)
    assert token not in json.dumps(redacted)
    assert list(redacted) == ["named"] and "/srv/app.py" in redacted["named"]
    assert len(redacted["named"]) == 2
