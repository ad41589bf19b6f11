import { assert, assertEquals } from "../support/assert.ts";
import { docsScript, runsSuite, shellCommands, startsNode } from "./_commands.ts";

Deno.test("shellCommands takes sh blocks only, drops comments, keeps continued lines together", () => {
  const md = [
    "text `not this`",
    "```sh",
    "# a comment",
    "echo one",
    "",
    "echo two \\",
    "  three",
    "```",
    "```json",
    '{"not": "a command"}',
    "```",
    "```bash",
    "echo four",
    "```",
  ].join("\n");
  assertEquals(shellCommands(md), ["echo one", "echo two \\\n  three", "echo four"]);
});

Deno.test("shellCommands refuses a block left open or a continuation that never ends", () => {
  let caught = 0;
  for (const md of ["```sh\necho a\n", "```sh\necho a \\\n```\n"]) {
    try {
      shellCommands(md);
    } catch {
      caught++;
    }
  }
  assertEquals(caught, 2);
});

Deno.test("startsNode and runsSuite know the documents' forms", () => {
  assert(startsNode("npx -y deno@2.9.6 run -A cli.ts serve"));
  assert(startsNode("npx -y deno@2.9.6 run -A cli.ts serve --host 0.0.0.0"));
  assert(startsNode("npx @svc/cli serve"));
  assert(!startsNode("npx -y deno@2.9.6 run -A cli.ts query cities 'SELECT 1'"));
  assert(!startsNode("curl -fsS http://127.0.0.1:8686/projects # serve"));
  assert(runsSuite("npx -y deno@2.9.6 task test"));
  assert(!runsSuite("npx -y deno@2.9.6 task test:image"));
});

const run = async (commands: string[]) => {
  const script = docsScript(commands, { stopSeconds: 3 });
  const out = await new Deno.Command("bash", { args: ["-c", script], stdout: "piped", stderr: "piped" }).output();
  return { code: out.code, text: new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout) };
};

Deno.test("docsScript stops at the first failing command", async () => {
  assertEquals((await run(["true", "echo ok"])).code, 0);
  const failed = await run(["true", "false", "echo SHOULD-NOT-RUN"]);
  assert(failed.code !== 0);
  assert(failed.text.includes("from: false"));
  assert(!failed.text.includes("SHOULD-NOT-RUN"));
});

// A stand-in node: says it serves, and on SIGINT says it stops and exits 130, as svc serve does.
// The trap is set before the line is printed, as svc serve installs its handlers before it says it serves.
const FAKE_NODE = `bash -c 'trap "echo \\"svc node stopping (SIGINT)\\"; exit 130" INT; echo "svc node serving"; ` +
  `while true; do sleep 0.1; done' cli.ts serve`;

Deno.test("docsScript runs a node in the background and stops it with Ctrl-C", async () => {
  const ok = await run([FAKE_NODE, "echo NEXT-COMMAND-RAN"]);
  assertEquals(ok.code, 0, ok.text);
  assert(ok.text.includes("NEXT-COMMAND-RAN"));
  assert(ok.text.includes("Ctrl-C to the node"));
  const deaf = await run([FAKE_NODE.replace("exit 130", "true"), "true"]);
  assert(deaf.code !== 0, "a node that does not stop on Ctrl-C fails the run");
});
