import {
  AuthError,
  ConflictError,
  KeyRequiredError,
  NotFoundError,
  RateLimitError,
  ValidationError,
  ValueError,
} from "../../../mod.ts";
import { assert, assertEquals, assertRejects } from "../../support/assert.ts";
import { AUTHOR, READER, withKnowledgeOrigin } from "../../support/knowledge_fixture.ts";
import { beyondProbe } from "../../support/origin.ts";

Deno.test("update: PATCH with only what is given, tags replaced whole, the maintainer's key; the answer as the API gives it", async () => {
  await withKnowledgeOrigin(async ({ client, edits, sent }) => {
    edits.add("cities", [AUTHOR], { title: "Cities", tags: ["geo"] });
    const answer = await client().update("cities", { title: "World cities", tags: ["geo", "population"] });
    const [patch] = sent("/projects/cities");
    assertEquals([patch.method, patch.headers.authorization, JSON.parse(patch.body)], [
      "PATCH",
      `Bearer ${AUTHOR}`,
      { title: "World cities", tags: ["geo", "population"] },
    ]);
    assertEquals(answer, {
      slug: "cities",
      title: "World cities",
      status: "open",
      access: "public",
      visibility: "public",
      readme: "What this dataset holds, in a few words.",
      tags: ["geo", "population"],
    });
    await client().update("cities", { readme: "A README of twenty or more characters.", tags: [], title: undefined });
    assertEquals(edits.received.at(-1)!.body, { readme: "A README of twenty or more characters.", tags: [] });
    const theirs = await assertRejects(() => client(READER).update("cities", { status: "paused" }));
    assert(theirs instanceof AuthError && theirs.status === 403);
    assert((await assertRejects(() => client().update("towns", { status: "paused" }))) instanceof NotFoundError);
    const short = await assertRejects(() => client().update("cities", { title: "ab" }));
    assert(short instanceof ValidationError);
    assertEquals(String(short), "title must be 4-140 characters (HTTP 400)");
  });
});

Deno.test("update refuses before sending when nothing is given (null is not a change but for price); no key", async () => {
  await withKnowledgeOrigin(async ({ client, edits, origin }) => {
    edits.add("cities", [AUTHOR]);
    for (const changes of [{}, { title: undefined, status: undefined }, { title: null, trialSale: null }]) {
      const e = await assertRejects(
        () => client().update("cities", changes as Record<string, never>),
        /^nothing to change: give title, readme, tags, status, price or trialSale$/,
      );
      assert(e instanceof ValueError);
    }
    assert(
      (await assertRejects(() => client(null).update("cities", { status: "paused" }))) instanceof KeyRequiredError,
    );
    assertEquals(beyondProbe(origin.seen).length, 0, "nothing but the node probe was sent");
  });
});

Deno.test("update: price sent whenever passed, null too (the default); one change a day; archived is final", async () => {
  await withKnowledgeOrigin(async ({ client, edits }) => {
    edits.add("prices", [AUTHOR], { access: "paid", priceMicro: 250_000 });
    const back = await client().update("prices", { price: null });
    assertEquals(edits.received.at(-1)!.body, { price: null });
    assertEquals([back.price, back.priceMicro, back.default, back.changed, back.trialSale], [
      "$0.01",
      10_000,
      true,
      true,
      false,
    ]);
    const limited = await assertRejects(() => client().update("prices", { price: "0.30" }));
    assert(limited instanceof RateLimitError);
    assertEquals(limited.retryAfter, 86_400);
    assertEquals(edits.received.length, 2, "the 429 was not sent again");
    const trial = await client().update("prices", { trialSale: true, status: "paused" });
    assertEquals([trial.trialSale, trial.changed, trial.status], [true, false, "paused"]);
    edits.now += 86_400_000;
    assertEquals((await client().update("prices", { price: "0.30" })).price, "$0.30");

    edits.add("plain", [AUTHOR]);
    const noPrice = await client().update("plain", { title: "Still plain" });
    assertEquals("price" in noPrice, false, "the price state only when price or trialSale was given");
    await client().update("plain", { status: "archived" });
    const reopen = await assertRejects(() => client().update("plain", { status: "open" }));
    assert(reopen instanceof ConflictError);
    assertEquals(String(reopen), "project is archived: it is read-only for good (HTTP 409)");
  });
});

Deno.test("the test origin refuses a PATCH of schema, access or visibility (fixed at creation), and an unknown field", async () => {
  await withKnowledgeOrigin(async ({ origin, edits }) => {
    edits.add("cities", [AUTHOR]);
    for (
      const [body, error] of [
        [{ visibility: "private" }, "visibility is fixed at creation: schema, access and visibility cannot change"],
        [{ access: "paid" }, "access is fixed at creation: schema, access and visibility cannot change"],
        [{ schemaDef: { fields: [] } }, "schemaDef is fixed at creation: schema, access and visibility cannot change"],
        [{ colour: "red" }, "unknown field colour"],
      ] as const
    ) {
      const res = await fetch(`${origin.url}/projects/cities`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${AUTHOR}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assertEquals([res.status, await res.json()], [400, { error }]);
    }
  });
});
