// artifact-index for OpenCode: before OpenCode compacts a session, the session's exact file
// trail (files changed and read, open errors, test status, open tasks) joins the compaction
// prompt, so the summary cannot drop it. Installed by `artifact-index install opencode`, which
// writes below the command of the artifact-index that installed it; `artifact-index uninstall
// opencode` removes this file.
//
// It never stands in the way: whatever goes wrong, the compaction goes on without it.

import { spawn } from "node:child_process";

const COMMAND = ["artifact-index"];
const TIMEOUT_MS = 60_000;
// The OpenCode running this plugin (its own binary), for `opencode export`: OpenCode need not be on the
// PATH it hands its plugins, as when it was started by its full path.
const OPENCODE = /^opencode[^/\\]*$/i.test(process.execPath.split(/[/\\]/).pop() ?? "") ? process.execPath : null;

function run(argv, input) {
  return new Promise((resolve) => {
    let out = "";
    let err = "";
    let child;
    try {
      child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      resolve({ out: "", err: String(error) });
      return;
    }
    const timer = setTimeout(() => child.kill(), TIMEOUT_MS);
    child.stdout.on("data", (chunk) => { out += chunk; });
    child.stderr.on("data", (chunk) => { err += chunk; });
    child.on("error", (error) => { clearTimeout(timer); resolve({ out: "", err: String(error) }); });
    child.on("close", () => { clearTimeout(timer); resolve({ out, err }); });
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

export const ArtifactIndexPlugin = async ({ directory }) => ({
  "experimental.session.compacting": async (input, output) => {
    const hookInput = JSON.stringify({
      hook_event_name: "PreCompact",
      session_id: input.sessionID,
      cwd: directory,
      opencode: OPENCODE,
    });
    const { out, err } = await run([...COMMAND, "hook", "--agent", "opencode"], hookInput);
    if (err.trim()) console.error(err.trim());
    if (out.trim()) output.context.push(out.trim());
  },
});
