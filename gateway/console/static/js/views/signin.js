// Screen 1: sign in with a community key (moderator or frontend); it stays in this tab only.
import { api, signIn } from "../api.js";
import { clear, h } from "../dom.js";
import { t } from "../i18n.js";

export function signInView(main, ctx, done) {
  const input = h("input", {
    id: "key",
    type: "password",
    autocomplete: "off",
    spellcheck: "false",
    required: true,
  });
  const status = h("p", { class: "form-errors", role: "alert", id: "signin-error" });
  const form = h(
    "form",
    { class: "card narrow", "aria-labelledby": "signin-title" },
    h("h1", { id: "signin-title" }, t("signin.title")),
    h("p", {}, t("signin.intro")),
    h("div", { class: "field" }, h("label", { for: "key" }, t("signin.key")), input),
    h("small", { class: "help" }, t("signin.kept")),
    status,
    h("button", { type: "submit", class: "primary" }, t("signin.submit")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const scope = await signIn(input.value.trim());
      ctx.announce(t("signin.welcome", { scope: t(`scope.${scope}`) }));
      done();
    } catch (err) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", "signin-error");
      status.textContent = err.status === 401 ? t("signin.wrong") : `${t("app.failed")}: ${err.message}`;
      input.focus();
    } finally {
      button.disabled = false;
    }
  });
  clear(main, form, operatorForm(input));
  input.focus();
  return null;
}

// An operator (REFEREE_ADMIN_TOKEN) creates a community here; its moderator key is shown once
// and put in the sign-in field. The operator token is sent once and kept nowhere.
function operatorForm(keyInput) {
  const token = h("input", { id: "admin-token", type: "password", autocomplete: "off", required: true });
  const name = h("input", { id: "community-name", type: "text", required: true, maxlength: 120 });
  const status = h("p", { class: "form-errors", role: "alert" });
  const shown = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { id: "community-form" },
    h("div", { class: "field" }, h("label", { for: "admin-token" }, t("signin.admin_token")), token),
    h("div", { class: "field" }, h("label", { for: "community-name" }, t("signin.community_name")), name),
    status,
    h("button", { type: "submit" }, t("signin.create_community")),
    shown,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    try {
      const created = await api("POST", "/v1/admin/communities", { key: token.value.trim(), body: { name: name.value.trim() } });
      token.value = "";
      keyInput.value = created.api_key;
      clear(shown, h("p", { class: "help" }, t("signin.community_created", { name: created.name })), h("code", { id: "community-key" }, created.api_key));
      keyInput.focus();
    } catch (err) {
      status.textContent = err.status === 401 ? t("signin.wrong_token") : `${t("app.failed")}: ${err.message}`;
    }
  });
  return h("details", { class: "card narrow operator" }, h("summary", {}, t("signin.operator")), h("p", { class: "help" }, t("signin.operator_intro")), form);
}
