import { assertEquals } from "../support/assert.ts";
import { mkdir, rename, symlink } from "node:fs/promises";
import { join } from "node:path";
import { tempDir } from "../support/store_fixture.ts";
import { LOOK_STANDS_MS, recentLooks } from "../../src/store/_recent_looks.ts";
import { wroteToStore } from "../../src/store/_writes_seen.ts";

/** A look that counts how often it ran and answers that count. */
function counted() {
  let runs = 0;
  return { look: () => Promise.resolve(++runs), runs: () => runs };
}

/** Runs `fn` over a new temporary folder, removed after. */
async function inTempDir(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  try {
    await fn(dir.path);
  } finally {
    await dir.cleanup();
  }
}

Deno.test("a look stands until the project's folder changes, this process writes, or its time is up", async () => {
  await inTempDir(async (root) => {
    let now = 0;
    const looks = recentLooks(root, () => now);
    const project = join(root, "notes");
    await mkdir(project);
    const { look, runs } = counted();
    assertEquals(await looks.of("project", "notes", look), 1);
    assertEquals(await looks.of("project", "notes", look), 1, "kept");
    assertEquals(runs(), 1);

    // A version committed: a folder renamed into the project's.
    await mkdir(join(root, ".v1.tmp"));
    await new Promise((r) => setTimeout(r, 5)); // the folder's time moves by whole milliseconds
    await rename(join(root, ".v1.tmp"), join(project, "v1"));
    assertEquals(await looks.of("project", "notes", look), 2, "the folder changed");
    assertEquals(await looks.of("project", "notes", look), 2);

    wroteToStore(root);
    assertEquals(await looks.of("project", "notes", look), 3, "this process wrote to a store");

    now += LOOK_STANDS_MS - 1;
    assertEquals(await looks.of("project", "notes", look), 3, "still standing");
    now += 1;
    assertEquals(await looks.of("project", "notes", look), 4, "its time is up");

    assertEquals(await looks.of("latest", "notes", look), 5, "each kind of look is its own");
    assertEquals(await looks.of("project", "other", look), 6, "and each project's");
  });
});

Deno.test("a project's folder swapped for a link to it, or taken away, is looked at again", async () => {
  await inTempDir(async (root) => {
    const looks = recentLooks(root, () => 0);
    const real = join(root, "real");
    await mkdir(real);
    await rename(real, join(root, "notes"));
    const { look } = counted();
    assertEquals(await looks.of("project", "notes", look), 1);
    await rename(join(root, "notes"), real);
    assertEquals(await looks.of("project", "notes", look), 2, "gone");
    await symlink(real, join(root, "notes"));
    assertEquals(await looks.of("project", "notes", look), 3, "a link, though to the same folder");
    assertEquals(await looks.of("project", "notes", look), 3);
  });
});

Deno.test("looks at slugs that name no project are kept too, but not without bound", async () => {
  await inTempDir(async (root) => {
    const looks = recentLooks(root, () => 0);
    const { look, runs } = counted();
    await looks.of("project", "nobody-0", look);
    await looks.of("project", "nobody-0", look);
    assertEquals(runs(), 1, "a slug that names nothing is kept");
    for (let i = 1; i <= 1024; i++) await looks.of("project", `nobody-${i}`, look);
    assertEquals(runs(), 1025);
    await looks.of("project", "nobody-0", look);
    assertEquals(runs(), 1026, "the oldest went to make room");
  });
});
