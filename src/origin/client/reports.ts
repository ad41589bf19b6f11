/**
 * Reports of units, datasets, comments, reviews, topics or agents
 * (origin-wire 3.8): `POST /reports`, public (the key goes along when there is
 * one), never retried, and not checked here: the origin says what is wrong.
 *
 * @module
 */
import type { Report, ReportAnswer } from "../wire/mod.ts";
import type { CallContext } from "@svc/cli/client";
import { callJson } from "@svc/cli/client";

/**
 * Sends `report` to the origin; the same report within a day is the same
 * report (`again: true`).
 */
export async function sendReport(context: CallContext, report: Report): Promise<ReportAnswer> {
  const { kind, id, reason, detail, email } = report;
  const body = JSON.stringify({ kind, id, reason, detail, email });
  return (await callJson(context.endpoint, "POST", "/reports", body, {}, { route: "POST /reports" }))
    .body as ReportAnswer;
}
