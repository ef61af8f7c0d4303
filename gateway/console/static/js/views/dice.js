// A combat's dice: the commitment published at the start, the seed revealed at the end, and
// every roll checked here against the seed (SHA-256 and HMAC-SHA256 in the browser, the same
// computation as `python -m shared.dice verify`).
import { get } from "../api.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { diceFaces } from "./log.js";

export async function diceSection(combatId, query = {}) {
  const dice = await get(`/v1/combats/${combatId}/dice`, { query });
  const verdict = await verify(dice);
  return h(
    "div",
    { class: "dice-panel" },
    h(
      "dl",
      { class: "facts-list" },
      h("dt", {}, t("dice.commitment")),
      h("dd", {}, h("code", {}, dice.commitment || "—")),
      h("dt", {}, t("dice.seed")),
      h("dd", {}, dice.seed ? h("code", {}, dice.seed) : t("dice.hidden")),
      h("dt", {}, t("dice.status")),
      h("dd", { class: `verdict ${verdict.kind}`, "data-verdict": verdict.kind }, verdict.text),
    ),
    dice.rolls.length
      ? h("ol", { class: "rolls" }, dice.rolls.map((r) => h("li", {}, r.roller ? `${r.roller}: ` : "", diceFaces(r))))
      : h("p", { class: "empty" }, t("dice.none")),
  );
}

async function verify(dice) {
  if (!dice.commitment) return { kind: "none", text: t("dice.no_commitment") };
  if (!dice.seed) return { kind: "committed", text: t("dice.committed") };
  if (!crypto.subtle) return { kind: "unchecked", text: t("dice.unchecked") };
  const hash = await sha256(dice.seed);
  if (hash !== dice.commitment) return { kind: "bad", text: t("dice.bad_seed") };
  let bad = 0;
  for (const roll of dice.rolls) if (!(await sameDraws(dice.seed, roll))) bad += 1;
  if (bad) return { kind: "bad", text: t("dice.bad_rolls", { n: bad }) };
  return { kind: "verified", text: t("dice.verified", { n: dice.rolls.length }) };
}

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Every face of the roll is the next draw of its stream: HMAC-SHA256(seed, "stream:draw:attempt"),
// 8-byte big-endian words, rejection sampling under the largest multiple of the sides.
async function sameDraws(seed, roll) {
  const match = /^(\d+)([dk])(\d+)/.exec(roll.spec || "");
  if (!match || roll.first_draw === undefined || roll.first_draw === null) return true;
  const sides = BigInt(match[2] === "k" ? 10 : Number(match[3]));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const limit = ((1n << 64n) / sides) * sides;
  const faces = (roll.dice || []).flat();
  for (let i = 0; i < faces.length; i += 1) {
    const draw = roll.first_draw + i;
    let value = null;
    for (let attempt = 0; value === null && attempt < 50; attempt += 1) {
      const mac = new DataView(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${roll.stream}:${draw}:${attempt}`)));
      for (let offset = 0; offset < 32 && value === null; offset += 8) {
        const word = mac.getBigUint64(offset);
        if (word < limit) value = Number((word % sides) + 1n);
      }
    }
    if (value !== faces[i]) return false;
  }
  return true;
}
