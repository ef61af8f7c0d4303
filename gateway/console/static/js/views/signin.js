// Screen 1: sign in with a community key (moderator or frontend); it stays in this tab only.
import { signIn } from "../api.js";
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
  clear(main, form);
  input.focus();
  return null;
}
