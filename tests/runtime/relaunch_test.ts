import { assert, assertEquals } from "../support/assert.ts";
import { nodePermissionFlags, relaunchCommand } from "../../src/runtime/mod.ts";

const self = { execPath: "/usr/bin/deno", mainModule: "file:///src/cli.ts", args: ["serve", "--port", "0"] };

Deno.test("relaunchCommand keeps Deno's own flags, drops every permission flag, and adds the narrowed ones", () => {
  const cmdline = [
    "deno",
    "run",
    "-A",
    "--lock=deno.dev.lock",
    "--config",
    "deno.json",
    "--allow-read",
    "--deny-net=10.0.0.1",
    "-R=/x",
    "--no-prompt",
    "--allow-import=jsr.io",
    "--inspect=127.0.0.1:9229",
    "--cached-only",
    "cli.ts",
    "serve",
    "--port",
    "0",
  ];
  assertEquals(relaunchCommand(cmdline, self, ["--allow-read=/data"]), [
    "/usr/bin/deno",
    "run",
    "--lock=deno.dev.lock",
    "--config",
    "deno.json",
    "--allow-import=jsr.io",
    "--cached-only",
    "--allow-read=/data",
    "--no-prompt",
    "file:///src/cli.ts",
    "serve",
    "--port",
    "0",
  ]);
});

Deno.test("relaunchCommand: `deno cli.ts` without run, a remote main module as given, and a command line it cannot read", () => {
  assertEquals(relaunchCommand(["deno", "cli.ts", "serve", "--port", "0"], self, []), [
    "/usr/bin/deno",
    "run",
    "--no-prompt",
    "file:///src/cli.ts",
    "serve",
    "--port",
    "0",
  ]);
  const remote = { ...self, mainModule: "https://jsr.io/@svc/cli/0.1.0/cli.ts" };
  assertEquals(
    relaunchCommand(["deno", "run", "-A", "jsr:@svc/cli/cli", "serve", "--port", "0"], remote, [])?.at(-4),
    "jsr:@svc/cli/cli",
  );
  assertEquals(relaunchCommand(["deno", "run", "-A", "cli.ts", "serve", "--port", "1"], self, []), null);
  assertEquals(relaunchCommand(["serve", "--port", "0"], self, []), null);
});

Deno.test("nodePermissionFlags names the store by each of its paths, and unshare among the programs", () => {
  const flags = nodePermissionFlags(
    { deno: "/usr/bin/deno", duckdbBinding: "/b/duckdb.node", config: null, temp: "/tmp", run: ["/usr/bin/unshare"] },
    {
      store: ["/home/u/store", "/mnt/disk/store"],
      trustFile: "/home/u/.config/svc/trust.json",
      trustWrite: false,
      bind: { host: "127.0.0.1", port: 8686 },
      calls: [],
      readOnly: true,
    },
  );
  assertEquals(flags.slice(0, 3), [
    "--allow-read=/home/u/store,/mnt/disk/store,/home/u/.config/svc/trust.json,/tmp,/dev/null",
    "--allow-write=/tmp",
    "--allow-net=127.0.0.1:8686",
  ]);
  assertEquals(flags.at(-1), "--allow-run=/usr/bin/deno,/bin/sh,/usr/bin/unshare");
});

Deno.test("runAsLauncher (where exec cannot be had): the child's exit code comes back; SIGTERM is passed on", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const child = `${dir}/child.ts`;
    await Deno.writeTextFile(
      child,
      `Deno.addSignalListener("SIGTERM", () => { console.log("child got SIGTERM"); Deno.exit(0); });
       console.log("child up");
       if (Deno.args[0] === "exit") Deno.exit(7);
       setTimeout(() => {}, 60_000);`,
    );
    const launcher = `${dir}/launcher.ts`;
    const relaunch = new URL("../../src/runtime/relaunch.ts", import.meta.url).href;
    await Deno.writeTextFile(
      launcher,
      `import { runAsLauncher } from "${relaunch}";
       Deno.exit(await runAsLauncher([Deno.execPath(), "run", "-A", "${child}", ...Deno.args], {}));`,
    );
    const run = (args: string[]) =>
      new Deno.Command(Deno.execPath(), { args: ["run", "-A", launcher, ...args], stdout: "piped", stderr: "inherit" })
        .spawn();
    const exits = await run(["exit"]).output();
    assertEquals(exits.code, 7);
    const serving = run([]);
    const reader = serving.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("child up")) out += (await reader.read()).value ?? "";
    serving.kill("SIGTERM");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
    }
    assertEquals((await serving.status).code, 0);
    assert(out.includes("child got SIGTERM"), out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
