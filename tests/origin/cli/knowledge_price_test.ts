import { notASlug, SLUG_RULE } from "../../../src/wire/mod.ts";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { assertEquals, assertMatch } from "../../support/assert.ts";
import { AUTHOR, READER, svcAt, UNIT, withKnowledgeOrigin } from "../../support/knowledge_fixture.ts";
import { tempDir } from "../../support/store_fixture.ts";

Deno.test("svc price: a unit id sets the unit's price, default sends null, --trial; one change a day is exit 1", async () => {
  await withKnowledgeOrigin(async (o) => {
    const id = o.units.publish(AUTHOR, { title: UNIT.title, body: UNIT.body });
    const set = await svcAt(o, ["price", id, "0.25"]);
    assertEquals([set.code, set.stdout, set.stderr], [0, `${id}  $0.25\n`, ""]);
    const trial = await svcAt(o, ["price", id, "--trial"]);
    assertEquals(trial.stdout, `${id}  $0.25  trial sales on  (price unchanged)\n`);
    const limited = await svcAt(o, ["price", id, "default"]);
    assertEquals([limited.code, limited.stderr], [1, "error: one price change per day per listing (HTTP 429)\n"]);
    assertEquals(o.sent(`/knowledge/${id}/price`).map((s) => [s.method, s.body]), [
      ["PUT", '{"price":"0.25"}'],
      ["PUT", '{"trialSale":true}'],
      ["PUT", '{"price":null}'],
    ], "the price as given, null for default, the 429 not sent again");
    o.units.tick(86_400_000);
    const back = await svcAt(o, ["price", id, "default", "--no-trial", "--json"]);
    assertEquals(JSON.parse(back.stdout), {
      id,
      groupId: o.units.state.units.get(id)!.groupId,
      price: "$0.01",
      priceMicro: 10_000,
      default: true,
      trialSale: false,
      changed: true,
    });
    assertEquals(o.sent(`/knowledge/${id}/price`).at(-1)!.body, '{"price":null,"trialSale":false}');
    const theirs = await svcAt(o, ["price", id, "1"], { key: READER });
    assertEquals([theirs.code, theirs.stderr], [1, "error: only the author can price this unit (HTTP 403)\n"]);
  });
});

Deno.test("svc price: anything but a unit id is a dataset slug (PATCH); nothing to change exit 1; bad flags exit 2", async () => {
  await withKnowledgeOrigin(async (o) => {
    o.edits.add("cities", [AUTHOR], { access: "paid", priceMicro: 250_000 });
    const back = await svcAt(o, ["price", "cities", "default", "--trial"]);
    assertEquals([back.code, back.stdout], [0, "cities  $0.01 (default)  trial sales on\n"]);
    assertEquals(o.edits.received.map((r) => r.body), [{ price: null, trialSale: true }]);
    const limited = await svcAt(o, ["price", "cities", "0.50"]);
    assertEquals([limited.code, limited.stderr], [1, "error: one price change per day per listing (HTTP 429)\n"]);
    const nothing = await svcAt(o, ["price", "cities"]);
    assertEquals([nothing.code, nothing.stderr], [
      1,
      "error: nothing to change: give a price (0 for free, default for the platform's), --trial or --no-trial\n",
    ]);
    const usage: [string[], string][] = [
      [["price", "cities", "1", "--trial", "--no-trial"], "error: --trial and --no-trial cannot go together\n"],
      [
        ["price", "Not_A_Slug", "1"],
        `error: "Not_A_Slug" is neither a unit id nor a dataset slug: a slug is ${SLUG_RULE}\n`,
      ],
      [["price"], "error: svc price takes TARGET [PRICE|0|default]\n"],
      [["price", "cities", "1", "2"], "error: svc price takes TARGET [PRICE|0|default]\n"],
    ];
    const runs = await Promise.all(usage.map(([args]) => svcAt(o, args)));
    runs.forEach((run, i) => assertEquals([run.code, run.stderr], [2, usage[i][1]], usage[i][0].join(" ")));
    assertEquals(o.edits.received.length, 2, "nothing sent for the refused ones");
  });
});

Deno.test("svc review: 403 until read, then rated N/5; a rating outside 1-5 exit 2; svc points and svc leaderboard", async () => {
  await withKnowledgeOrigin(async (o) => {
    o.units.name(AUTHOR, "ttl-prober");
    o.units.name(READER, "reader");
    const id = o.units.publish(AUTHOR, { title: UNIT.title, body: UNIT.body, price: 0 });
    o.units.publish(READER, { title: "Another", body: "text" });
    o.units.publish(READER, { title: "And another", body: "text" });
    const early = await svcAt(o, ["review", id, "4"], { key: READER });
    assertEquals([early.code, early.stderr], [1, "error: read the unit in full before reviewing it (HTTP 403)\n"]);
    await svcAt(o, ["read", id], { key: READER });
    const rated = await svcAt(o, ["review", id, "4", "--comment", "solid numbers"], { key: READER });
    assertEquals([rated.code, rated.stdout], [0, `rated 4/5  ${id}\n`]);
    assertEquals(o.units.received.at(-1)!.body, { rating: 4, comment: "solid numbers" });
    for (const bad of ["0", "6", "4.5", "five"]) {
      const run = await svcAt(o, ["review", id, bad], { key: READER });
      assertEquals([run.code, run.stderr], [
        2,
        `error: the rating must be 1, 2, 3, 4 or 5, not ${JSON.stringify(bad)}\n`,
      ]);
    }
    const [points, json, board, boardJson, keyless] = await Promise.all([
      svcAt(o, ["points"]),
      svcAt(o, ["points", "--json"], { key: READER }),
      svcAt(o, ["leaderboard"], { key: null }),
      svcAt(o, ["leaderboard", "--json"], { key: null }),
      svcAt(o, ["points"], { key: null }),
    ]);
    assertEquals([points.code, points.stdout], [0, "ttl-prober: 10 points (1 entries)\n"]);
    assertEquals([JSON.parse(json.stdout).agentName, JSON.parse(json.stdout).balance], ["reader", 20]);
    assertEquals(
      board.stdout,
      " 1. reader                       20 pts  2 published\n 2. ttl-prober                   10 pts  1 published\n",
    );
    assertEquals(JSON.parse(boardJson.stdout)[0], { agentName: "reader", points: 20, published: 2 });
    assertEquals(keyless.code, 1);
    assertMatch(keyless.stderr, /^error: svc points needs an agent key/);
  });
});

Deno.test("svc leaderboard with no one on it says so on stderr", async () => {
  await withKnowledgeOrigin(async (o) => {
    const run = await svcAt(o, ["leaderboard"]);
    assertEquals([run.code, run.stdout, run.stderr], [0, "", "no one is on the leaderboard yet\n"]);
  });
});

Deno.test("svc edit: title, README from a file, tags split on commas, status; prints slug, status, title; archived is final", async () => {
  await withKnowledgeOrigin(async (o) => {
    const dir = await tempDir();
    try {
      o.edits.add("cities", [AUTHOR], { title: "Cities" });
      const readme = join(dir.path, "README.md");
      await writeFile(readme, "Every city of more than 1000 people.\n");
      const edited = await svcAt(o, [
        "edit",
        "cities",
        "--title",
        "World cities",
        "--readme-file",
        readme,
        "--tags",
        " geo, ,population ",
        "--status",
        "paused",
      ]);
      assertEquals([edited.code, edited.stdout, edited.stderr], [0, "cities  paused  World cities\n", ""]);
      assertEquals(o.edits.received.at(-1)!.body, {
        title: "World cities",
        tags: ["geo", "population"],
        status: "paused",
        readme: "Every city of more than 1000 people.\n",
      });
      const json = await svcAt(o, ["edit", "cities", "--status", "archived", "--json"]);
      assertEquals(JSON.parse(json.stdout), {
        slug: "cities",
        title: "World cities",
        status: "archived",
        access: "public",
        visibility: "public",
        readme: "Every city of more than 1000 people.\n",
        tags: ["geo", "population"],
      });
      const reopen = await svcAt(o, ["edit", "cities", "--status", "open"]);
      assertEquals([reopen.code, reopen.stderr], [
        1,
        "error: project is archived: it is read-only for good (HTTP 409)\n",
      ]);
      const theirs = await svcAt(o, ["edit", "cities", "--title", "Mine now"], { key: READER });
      assertEquals([theirs.code, theirs.stderr], [
        1,
        "error: only agents of the maintaining operator can edit this project (HTTP 403)\n",
      ]);
      const missing = await svcAt(o, ["edit", "towns", "--title", "Towns"]);
      assertEquals(missing.stderr, `error: project not found (HTTP 404) — asked ${o.origin.url}\n`);
      const sent = o.edits.received.length;
      const refused: [string[], number, string][] = [
        [["edit", "cities"], 1, "error: nothing to change: give --title, --readme-file, --tags or --status\n"],
        [
          ["edit", "cities", "--status", "closed"],
          2,
          'error: --status must be open, paused or archived, not "closed"\n',
        ],
        [["edit", "Cities!", "--title", "x"], 2, `error: ${notASlug("Cities!")}\n`],
        [
          ["edit", "cities", "--schema", "{}"],
          2,
          "error: unknown option --schema (svc edit --help lists the options)\n",
        ],
        [
          ["edit", "cities", "--readme-file", join(dir.path, "none.md")],
          1,
          `error: cannot read ${join(dir.path, "none.md")}: not found\n`,
        ],
      ];
      const runs = await Promise.all(refused.map(([args]) => svcAt(o, args)));
      runs.forEach((run, i) =>
        assertEquals([run.code, run.stderr], [refused[i][1], refused[i][2]], refused[i][0].join(" "))
      );
      assertEquals(o.edits.received.length, sent, "nothing was sent for them");
    } finally {
      await dir.cleanup();
    }
  });
});

Deno.test("--json of revise, retire and review prints the answer as the API gives it, indented by 2", async () => {
  await withKnowledgeOrigin(async (o) => {
    const id = o.units.publish(AUTHOR, { title: UNIT.title, body: UNIT.body, price: 0 });
    await svcAt(o, ["read", id], { key: READER });
    const [revised, reviewed] = await Promise.all([
      svcAt(o, ["revise", id, "--body", "new text", "--measured", "--json"]),
      svcAt(o, ["review", id, "5", "--json"], { key: READER }),
    ]);
    const revision = JSON.parse(revised.stdout);
    assertEquals(revised.stdout, JSON.stringify(revision, null, 2) + "\n");
    assertEquals([revision.version, revision.status, revision.provenanceKind], [2, "submitted", "own_measurement"]);
    assertEquals([JSON.parse(reviewed.stdout).rating, JSON.parse(reviewed.stdout).replaced], [5, false]);
    const retired = JSON.parse((await svcAt(o, ["retire", id, "--json"])).stdout);
    assertEquals([retired.id, retired.status, retired.versions, retired.latestId], [id, "retired", 2, id]);
  });
});
