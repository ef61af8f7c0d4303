// Screen 4b: the community's settings (moderators): timers, umh readings, aftermath durations
// and every other block the server has, from its schema; field errors next to each field.
import { api, get, openapi, responseSchema } from "../api.js";
import { clear, h } from "../dom.js";
import { buildForm } from "../form.js";
import { t } from "../i18n.js";
import { section, statusLine } from "./shared.js";

export async function settingsView(main, ctx) {
  document.title = t("settings.title");
  const [doc, current] = await Promise.all([openapi(), get("/v1/settings")]);
  const schema = responseSchema(doc, "/v1/settings", "get");
  const form = buildForm(doc, schema, current, { labels: "field" });
  const status = statusLine();
  const button = h("button", { type: "submit", class: "primary", id: "settings-save" }, t("settings.save"));
  const el = h("form", { id: "settings-form", novalidate: true }, form.el, button, status.el);
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    form.clearErrors();
    button.disabled = true;
    try {
      await api("PATCH", "/v1/settings", { body: form.read() });
      status.ok(t("settings.saved"));
      ctx.announce(t("settings.saved"));
    } catch (err) {
      status.fail(err);
      form.showErrors(err.fieldErrors || []);
    } finally {
      button.disabled = false;
    }
  });
  clear(main, h("h1", {}, t("settings.title")), h("p", { class: "help" }, t("settings.intro")), section(t("settings.title"), "h-settings", el));
  return null;
}
