import { assert, assertEquals } from "../support/assert.ts";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { inPrivateView, keptTmpFolders, prepareView, privateViewsWork } from "../../src/runtime/private_view.ts";

const runtimeInTmp = keptTmpFolders([]);

Deno.test("keptTmpFolders: the folders directly in /tmp that hold the code are kept; /tmp itself, a file in it or a taken name are not", () => {
  const own = runtimeInTmp ?? [];
  assertEquals(keptTmpFolders(["/srv/svc/src/sql/worker_main.ts"]), runtimeInTmp);
  assertEquals(keptTmpFolders(["/tmp/ci/main/src/sql/worker_main.ts"]), [...new Set([...own, "ci"])].sort());
  assertEquals(keptTmpFolders(["/tmp/worker_main.ts"]), null, "a file directly in /tmp cannot be bound back");
  assertEquals(keptTmpFolders(["/tmp"]), null);
  assertEquals(keptTmpFolders(["/tmp/store/src/worker.ts"]), null, "the view's own names are taken");
  assertEquals(keptTmpFolders(["/tmpfoo/x.ts"]), runtimeInTmp, "only /tmp itself is replaced");
});

Deno.test("a child in a private view finds code kept from /tmp at its place, its mounts under /tmp, and nothing else of the host's /tmp", async () => {
  if (!(await privateViewsWork([]))) {
    // Only where user namespaces are refused (then workers run without a view, as docs/security.md says).
    const probe = await new Deno.Command("unshare", { args: ["--user", "--map-root-user", "--mount", "true"] })
      .output().then((o) => o.success, () => false);
    assert(!probe || process.platform !== "linux", "user namespaces work here, so views must");
    return;
  }
  const code = await mkdtemp("/tmp/svc-kept-");
  const base = await mkdtemp("/tmp/svc-view-");
  const data = await mkdtemp("/tmp/svc-data-");
  const secret = await mkdtemp("/tmp/svc-secret-");
  try {
    await writeFile(join(code, "hello.sh"), "echo kept");
    await writeFile(join(data, "x"), "data");
    await prepareView(base);
    await mkdir(join(base, "unused"), { recursive: true });
    const keep = keptTmpFolders([join(code, "hello.sh")])!;
    const script =
      `sh ${code}/hello.sh; cat /tmp/store/x; echo; ls /tmp | sort | tr '\\n' ' '; test -e ${secret} && echo leaked || true`;
    const [cmd, ...args] = inPrivateView(["/bin/sh", "-c", script], { base, mounts: { store: data }, keep });
    const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert(out.success, new TextDecoder().decode(out.stderr));
    const [kept, stored, listing] = text.split("\n");
    assertEquals([kept, stored], ["kept", "data"]);
    assertEquals(listing.trim().split(" ").sort(), [...keep, "store"].sort());
    assert(!text.includes("leaked"), "another folder of the host's /tmp is not in view");
  } finally {
    for (const dir of [code, base, data, secret]) await rm(dir, { recursive: true, force: true });
  }
});
