"""Package managers, formatters, fixers, generators and project scripts: what they change."""

from __future__ import annotations

import pytest

from artifact_index.shell import analyze_command
from artifact_index.trail.build import build_index
from tests.support.paths import FIXTURES

from .helpers import ROOT, FakeContext, analyze, effects

CLAUDE_FIXTURES = FIXTURES / "claude_code"


def _ran(
    command: str, output: str | None, files: dict[str, str | None] | None = None
) -> list[tuple[str, str | None]]:
    analysis = analyze_command(
        command, ROOT, succeeded=True, context=FakeContext(dict(files or {})), output=output
    )
    return [
        (op.action, op.path.removeprefix(ROOT + "/") if op.path else None)
        for op in analysis.operations
    ]


class TestPackageManagers:
    @pytest.mark.parametrize(
        ("command", "changed"),
        [
            ("bun add zod", ["package.json", "bun.lock"]),
            ("npm install zod --save-dev", ["package.json", "package-lock.json"]),
            ("npm uninstall left-pad", ["package.json", "package-lock.json"]),
            ("pnpm add react", ["package.json", "pnpm-lock.yaml"]),
            ("yarn remove lodash", ["package.json", "yarn.lock"]),
            ("cargo add serde --features derive", ["Cargo.toml", "Cargo.lock"]),
            ("go get github.com/google/uuid@v1.6.0", ["go.mod", "go.sum"]),
            ("poetry add requests", ["pyproject.toml", "poetry.lock"]),
            ("uv add httpx", ["pyproject.toml", "uv.lock"]),
            ("uv remove httpx", ["pyproject.toml", "uv.lock"]),
            ("pipenv install flask", ["Pipfile", "Pipfile.lock"]),
            ("bundle add rspec", ["Gemfile", "Gemfile.lock"]),
            ("composer require monolog/monolog", ["composer.json", "composer.lock"]),
        ],
    )
    def test_adding_or_removing_a_package_edits_the_manifest_and_the_lock(
        self, command: str, changed: list[str]
    ) -> None:
        assert effects(analyze(command)) == [("edit", path) for path in changed]

    @pytest.mark.parametrize(
        ("command", "lock"),
        [
            ("cargo update", "Cargo.lock"),
            ("uv lock", "uv.lock"),
            ("poetry lock", "poetry.lock"),
            ("yarn upgrade", "yarn.lock"),
        ],
    )
    def test_re_resolving_edits_the_lock_only(self, command: str, lock: str) -> None:
        assert effects(analyze(command)) == [("edit", lock)]

    @pytest.mark.parametrize(
        "command",
        ["uv lock --check", "uv lock --locked", "poetry lock --check", "cargo update --locked"],
    )
    def test_checking_the_lock_changes_nothing(self, command: str) -> None:
        assert effects(analyze(command)) == []

    def test_the_lock_the_trail_knows_is_the_one_changed(self) -> None:
        assert effects(analyze("bun add zod", files={"/w/bun.lockb": None})) == [
            ("edit", "package.json"),
            ("edit", "bun.lockb"),
        ]

    def test_a_package_added_below_the_project_root_changes_the_nearest_known_manifest(
        self,
    ) -> None:
        files: dict[str, str | None] = {"/w/web/package.json": "{}", "/w/package-lock.json": "{}"}
        assert effects(analyze("cd web/src && npm i -D vitest", files=files)) == [
            ("edit", "web/package.json"),
            ("edit", "package-lock.json"),
        ]

    def test_the_tools_directory_option_names_the_project(self) -> None:
        assert effects(analyze("pnpm add react -C app")) == [
            ("edit", "app/package.json"),
            ("edit", "app/pnpm-lock.yaml"),
        ]

    def test_a_directory_option_before_the_packages_is_not_a_package(self) -> None:
        # `--prefix client` names the project: "client" is not a package installed at the root.
        assert effects(analyze("npm install --prefix client jwt-decode")) == [
            ("edit", "client/package.json"),
            ("edit", "client/package-lock.json"),
        ]

    def test_a_new_project_gets_a_new_lock_file(self) -> None:
        analysis = analyze("npm init -y && npm install express")
        assert [(op.action, op.path) for op in analysis.operations] == [
            ("write", "/w/package.json"),
            ("edit", "/w/package.json"),
            ("write", "/w/package-lock.json"),
        ]

    @pytest.mark.parametrize(
        "command", ["npm install", "pnpm install", "uv sync", "poetry install", "go mod tidy"]
    )
    def test_an_install_that_resolves_the_manifest_is_an_unknown_effect_on_the_lock(
        self, command: str
    ) -> None:
        (op,) = analyze(command).operations
        assert op.action == "unknown" and "whether" in str(op.detail)

    @pytest.mark.parametrize(
        ("install", "lock"),
        [
            ("uv sync", "uv.lock"),
            ("npm install", "package-lock.json"),
            ("pnpm i", "pnpm-lock.yaml"),
        ],
    )
    def test_resolving_a_project_this_session_created_writes_its_lock(
        self, install: str, lock: str
    ) -> None:
        manifest = "pyproject.toml" if install.startswith("uv") else "package.json"
        command = (
            f"mkdir app && printf '{{}}' > app/{manifest} && cd app && {install} 2>&1 | tail -5"
        )
        assert effects(analyze(command)) == [("write", f"app/{manifest}"), ("write", f"app/{lock}")]

    @pytest.mark.parametrize(
        "install", ["uv sync --frozen", "npm install --no-package-lock", "uv sync --locked"]
    )
    def test_an_install_told_to_keep_the_lock_stays_unknown(self, install: str) -> None:
        manifest = "pyproject.toml" if install.startswith("uv") else "package.json"
        analysis = analyze(f"printf '{{}}' > {manifest} && {install}")
        assert [op.action for op in analysis.operations] == ["write", "unknown"]

    def test_a_failed_install_of_a_new_project_claims_no_lock(self) -> None:
        analysis = analyze("printf '{}' > package.json && npm install", succeeded=False)
        assert [op.action for op in analysis.operations] == ["write"]

    @pytest.mark.parametrize(
        "command",
        [
            "npm ci",
            "npm install -g typescript",
            "npm install --no-save zod",
            "pip install -r requirements.txt",
            "pip install -e .",
            "npm test",
            "cargo build",
            "go build ./...",
        ],
    )
    def test_installs_outside_the_project_change_nothing(self, command: str) -> None:
        assert analyze(command).operations == []

    def test_a_failed_install_changed_nothing(self) -> None:
        assert analyze("bun add zod", succeeded=False).operations == []

    def test_an_install_that_says_it_saved_the_lock_edited_it(self) -> None:
        said = "bun install v1.3.9\nResolving dependencies\nSaved lockfile\n\n1 package installed\n"
        assert _ran("bun install", said, {"/w/package.json": "{}"}) == [("edit", "bun.lock")]
        assert _ran("yarn", "success Saved lockfile.\nDone in 2s.\n") == [("edit", "yarn.lock")]
        # It failed linking a dependency, but the lock was written first.
        failed = analyze_command(
            "bun add zod",
            ROOT,
            succeeded=False,
            context=FakeContext({}),
            output="error: failed linking dependency\nSaved lockfile\n",
        )
        assert [(op.action, op.path) for op in failed.operations] == [
            ("edit", "/w/package.json"),
            ("edit", "/w/bun.lock"),
        ]

    @pytest.mark.parametrize(
        ("command", "written"),
        [
            ("pip-compile requirements.in", "requirements.txt"),
            ("pip-compile pyproject.toml -o requirements/base.txt", "requirements/base.txt"),
            ("uv pip compile requirements.in -o requirements.txt", "requirements.txt"),
            ("pipreqs . --force", "requirements.txt"),
            ("pip freeze > requirements.txt", "requirements.txt"),
        ],
    )
    def test_requirements_files_written_by_tools(self, command: str, written: str) -> None:
        assert effects(analyze(command)) == [("write", written)]


class TestFormattersAndFixers:
    def test_files_the_report_names_are_edits(self) -> None:
        assert _ran(
            "black .",
            "reformatted /w/pkg/a.py\nAll done!\n1 file reformatted, 3 files left unchanged.\n",
        ) == [
            ("edit", "pkg/a.py"),
        ]
        assert _ran("gofmt -l -w .", "cmd/main.go\ninternal/store.go\n") == [
            ("edit", "cmd/main.go"),
            ("edit", "internal/store.go"),
        ]
        assert _ran("terraform fmt -recursive", "main.tf\nmodules/vpc/variables.tf\n") == [
            ("edit", "main.tf"),
            ("edit", "modules/vpc/variables.tf"),
        ]

    def test_prettier_reports_unchanged_files_which_are_left_out(self) -> None:
        assert _ran("npx prettier --write src", "src/a.ts 41ms\nsrc/b.ts 3ms (unchanged)\n") == [
            ("edit", "src/a.ts")
        ]

    @pytest.mark.parametrize(
        ("command", "output"),
        [
            ("bin/rubocop -a app/models/user.rb", "1 file inspected, no offenses detected\n"),
            ("black pkg/a.py", "All done! ✨ 🍰 ✨\n1 file left unchanged.\n"),
            # The report names what it changed: a named file it leaves out was left as it was.
            (
                "black pkg/a.py pkg/b.py",
                "reformatted /w/pkg/b.py\n1 file reformatted, 1 file left unchanged.\n",
            ),
        ],
    )
    def test_a_named_file_the_report_says_was_left_alone_is_no_edit(
        self, command: str, output: str
    ) -> None:
        assert ("edit", "pkg/a.py") not in _ran(command, output)
        assert ("edit", "app/models/user.rb") not in _ran(command, output)

    def test_oxc_tools_format_in_place_unless_told_to_check(self) -> None:
        assert _ran("pnpm exec oxfmt package.json .oxfmtrc.json", "Finished in 57ms.\n") == [
            ("edit", "package.json"),
            ("edit", ".oxfmtrc.json"),
        ]
        assert (
            _ran(
                "pnpm exec oxfmt --check src package.json",
                "All matched files use the correct format.\n",
            )
            == []
        )
        assert _ran("oxlint src", "Found 0 warnings and 0 errors.\n") == []
        assert _ran("npx oxlint --fix src/app.ts", "") == [("edit", "src/app.ts")]

    def test_a_named_file_is_an_edit_that_may_leave_it_unchanged(self) -> None:
        (op,) = analyze("eslint --fix src/app.ts").operations
        assert (op.action, op.path, op.detail) == (
            "edit",
            "/w/src/app.ts",
            "reformatted by eslint (may be unchanged)",
        )

    @pytest.mark.parametrize(
        ("command", "output", "detail"),
        [
            (
                "eslint . --fix",
                None,
                "eslint rewrites files under the project; which ones changed is not known",
            ),
            (
                "ruff check --fix .",
                "Found 3 errors (3 fixed, 0 remaining).",
                "ruff check fixed 3 file(s) under the project it does not name",
            ),
            (
                "npx @biomejs/biome check --write .",
                "Checked 14 files in 9ms. Fixed 3 files.",
                "biome check fixed 3 file(s) under the project it does not name",
            ),
            (
                "mix format",
                None,
                "mix format rewrites files under the project; which ones changed is not known",
            ),
            (
                "cargo fmt",
                None,
                "cargo fmt rewrites files under the project; which ones changed is not known",
            ),
            (
                "prettier --write 'src/**/*.ts'",
                None,
                "prettier rewrites files under src/**/*.ts; which ones changed is not known",
            ),
        ],
    )
    def test_what_is_not_named_is_an_unknown_effect_never_silence(
        self, command: str, output: str | None, detail: str
    ) -> None:
        analysis = analyze_command(
            command, ROOT, succeeded=True, context=FakeContext(), output=output
        )
        assert [(op.action, op.detail) for op in analysis.operations] == [("unknown", detail)]

    def test_a_report_of_nothing_changed_records_nothing(self) -> None:
        assert _ran("ruff format", "9 files left unchanged") == []

    @pytest.mark.parametrize(
        "command",
        [
            "prettier --check src",
            "black --check .",
            "terraform fmt -check",
            "ruff check .",
            "gofmt -l .",
            "cargo fmt --check",
            "mix format --check-formatted",
        ],
    )
    def test_checks_change_nothing(self, command: str) -> None:
        assert analyze(command).operations == []

    def test_a_fixer_that_exits_non_zero_still_fixed_what_it_could(self) -> None:
        (op,) = analyze("npx eslint --fix src", succeeded=False).operations
        assert op.action == "unknown" and "exited non-zero" in str(op.detail)
        assert analyze("prettier --write src/a.ts", succeeded=False).operations == []

    def test_python_dash_m_runs_the_formatter(self) -> None:
        assert effects(analyze("python -m black src/app.py")) == [("edit", "src/app.py")]


class TestProjectScripts:
    PACKAGE = '{"scripts": {"lint:fix": "eslint --fix src/app.ts", "build": "vite build"}}'

    def test_a_script_whose_text_is_known_is_analyzed(self) -> None:
        assert effects(analyze("npm run lint:fix", files={"/w/package.json": self.PACKAGE})) == [
            ("edit", "src/app.ts")
        ]
        assert effects(analyze("pnpm lint:fix", files={"/w/package.json": self.PACKAGE})) == [
            ("edit", "src/app.ts")
        ]

    def test_a_fixing_script_whose_text_is_unknown_is_an_unknown_effect(self) -> None:
        (op,) = analyze("yarn lint:fix").operations
        assert (op.action, op.detail) == (
            "unknown",
            "yarn lint:fix runs a project script that rewrites files; which ones is not known",
        )
        (op,) = analyze("npm run lint -- --fix").operations
        assert op.action == "unknown"

    def test_other_scripts_change_nothing(self) -> None:
        assert analyze("npm run build", files={"/w/package.json": self.PACKAGE}).operations == []
        assert analyze("npm run dev").operations == []

    def test_runs_of_the_project_are_neutral_other_scripts_may_change_anything(self) -> None:
        for command in ("npm test", "npm run build", "pnpm test:unit", "bun run dev"):
            assert analyze(command).opaque == (), command
        # Nothing is claimed, but a change seen while it ran may be its doing.
        analysis = analyze("npm run db:seed")
        assert (analysis.operations, analysis.opaque) == ([], ("npm run db:seed",))

    def test_bun_runs_a_program_file_whose_effects_come_from_its_text(self) -> None:
        script = (
            'import { writeFileSync } from "node:fs";\nwriteFileSync("out/report.md", "# r\\n");\n'
        )
        assert effects(
            analyze("bun scripts/report.ts", files={"/w/scripts/report.ts": script})
        ) == [("write", "out/report.md")]
        (op,) = analyze("bun run scripts/other.ts").operations
        assert (op.action, op.detail) == (
            "unknown",
            "runs scripts/other.ts, whose text is not known",
        )


class TestGenerators:
    CODEGEN = (
        "Generating Migrations:\n* creating priv/repo/migrations/20260504091500_add_ticket_priority.exs\n"
        "* creating priv/resource_snapshots/repo/tickets/20260504091500.json\n"
    )

    def test_a_starter_scaffolded_into_a_new_folder_makes_the_folder_the_sessions(self) -> None:
        # Its files are not named; none of them predates the session, whatever later names them.
        analysis = analyze("npm create vite@latest shop -- --template react")
        assert [(op.action, op.path) for op in analysis.operations] == [("unknown", None)]
        assert analysis.directories == (f"{ROOT}/shop",)
        assert analysis.scaffolded == (f"{ROOT}/shop",)
        in_place = analyze("pnpm create vite . --template react")
        assert (in_place.directories, in_place.scaffolded) == ((), (ROOT,))

    def test_a_create_package_a_runner_fetched_scaffolds_the_folder_it_names(self) -> None:
        analysis = analyze("npx --yes create-next-app@latest . --typescript --use-npm")
        assert [(op.action, op.path) for op in analysis.operations] == [("unknown", None)]
        assert (analysis.directories, analysis.scaffolded) == ((), (ROOT,))
        # Asked for no folder, it prompts for one: where it went is not known.
        assert analyze("bunx create-vite").scaffolded == ()

    def test_mix_generators_create_the_files_they_report(self) -> None:
        assert _ran("mix ash.codegen add_ticket_priority", self.CODEGEN) == [
            ("create", "priv/repo/migrations/20260504091500_add_ticket_priority.exs"),
            ("create", "priv/resource_snapshots/repo/tickets/20260504091500.json"),
        ]

    def test_a_path_reported_through_the_build_link_is_the_projects_priv(self) -> None:
        output = "Running codegen for AshSqlite.DataLayer...\n* creating _build/dev/lib/helpdesk/priv/repo/migrations/20260504_x.exs\n"
        assert _ran("mix ash.codegen x --yes", output) == [
            ("create", "priv/repo/migrations/20260504_x.exs")
        ]

    def test_rails_and_alembic_generators(self) -> None:
        rails = "      invoke  active_record\n      create    db/migrate/20260504_create_users.rb\n      create    app/models/user.rb\n"
        assert _ran("bin/rails generate model User", rails) == [
            ("create", "db/migrate/20260504_create_users.rb"),
            ("create", "app/models/user.rb"),
        ]
        alembic = "  Generating /w/alembic/versions/3f2a_add_users.py ...  done\n"
        assert _ran("alembic revision --autogenerate -m 'add users'", alembic) == [
            ("create", "alembic/versions/3f2a_add_users.py")
        ]

    def test_worker_types_are_written_where_the_generator_says(self) -> None:
        output = (
            "Generating runtime types...\n\n\u2728 Types written to worker-configuration.d.ts\n"
        )
        assert _ran("npx wrangler types 2>&1 | tail -20", output) == [
            ("write", "worker-configuration.d.ts")
        ]
        assert _ran("npx wrangler deploy --dry-run", "No bindings found.") == []

    def test_an_environment_pull_writes_the_file_vercel_names(self) -> None:
        pulled = "Retrieving project…\nDownloading\nCreated .env.check file  [189ms]\n"
        assert _ran("npx vercel env pull .env.check --environment production", pulled) == [
            ("create", ".env.check")
        ]
        assert _ran("vercel env pull", "Updated .env.local file  [201ms]\n") == [
            ("write", ".env.local")
        ]
        assert _ran("vercel env ls", "Created .env.check file\n") == []

    def test_a_generator_that_names_nothing_is_an_unknown_effect(self) -> None:
        (op,) = analyze("mix ash.codegen add_ticket_priority").operations
        assert op.action == "unknown" and "its output was not recorded" in str(op.detail)
        assert _ran("mix ash.codegen --check", "No changes detected") == []


# -- sessions ------------------------------------------------------------------


def test_a_session_that_adds_a_package_formats_and_fixes() -> None:
    index, _ = build_index(CLAUDE_FIXTURES / "toolchain.jsonl")
    assert {(f.path, f.status) for f in index.changed_files()} == {
        ("package.json", "modified"),
        ("bun.lock", "modified"),
        ("src/checkout-schema.ts", "created"),
        ("src/checkout.ts", "modified"),
        ("src/cart.ts", "modified"),
    }
    assert [e.detail for e in index.unknown_effects()] == [
        "biome check fixed 3 file(s) under the project it does not name",
    ]


def test_a_session_that_generates_an_ash_migration() -> None:
    index, _ = build_index(CLAUDE_FIXTURES / "ash-codegen.jsonl")
    assert {(f.path, f.status) for f in index.changed_files()} == {
        ("lib/helpdesk/support/ticket.ex", "modified"),
        ("priv/repo/migrations/20260504091500_add_ticket_priority.exs", "created"),
        ("priv/resource_snapshots/repo/tickets/20260504091500.json", "created"),
    }
    assert [e.command for e in index.unknown_effects()] == ["mix format"]


def test_a_fixing_script_that_exits_non_zero_still_ran() -> None:
    (op,) = analyze("npm run lint:fix", succeeded=False).operations
    assert op.action == "unknown"
