// Forms built from the OpenAPI schemas of the API (settings, sheets, actions, a new combat), so
// that every field the server accepts can be edited and every field error the server answers
// is shown next to its field (data-path is the field's path, as the server names it).
import { resolve } from "./api.js";
import { h, uid } from "./dom.js";
import { word } from "./i18n.js";

// schema: the object's schema; value: its current value; hints: {fieldName: [suggestions]}.
// collapse: optional groups (a combat's circumstances...) start folded.
export function buildForm(doc, schema, value, { hints = {}, labels = "field", collapse = false } = {}) {
  const ctx = { doc, hints, labels, collapse };
  const root = field(ctx, schema, value, [], null, true);
  const el = h("div", { class: "schema-form" }, h("p", { class: "form-errors", role: "alert" }), root.el);
  return {
    el,
    read: () => root.read(),
    showErrors(errors) {
      this.clearErrors();
      const orphans = [];
      for (const error of errors) {
        const target = placeFor(el, error.path);
        if (target) markInvalid(target, error.message);
        else orphans.push(`${error.path}: ${error.message}`);
      }
      el.querySelector(".form-errors").textContent = orphans.join(" · ");
      const first = el.querySelector("[aria-invalid=true]");
      if (first) first.focus();
    },
    clearErrors() {
      for (const msg of el.querySelectorAll(".field-error")) msg.remove();
      for (const input of el.querySelectorAll("[aria-invalid]")) {
        input.removeAttribute("aria-invalid");
        input.removeAttribute("aria-describedby");
      }
      el.querySelector(".form-errors").textContent = "";
    },
  };
}

// "body.stats.vit" or "body.umh.stats.vit" -> the nearest field shown for that path.
function placeFor(form, path) {
  const parts = String(path || "").split(".").filter((p) => p !== "body" && p !== "query");
  for (let skip = 0; skip <= 1; skip += 1) {
    const tail = parts.slice(skip);
    for (let n = tail.length; n > 0; n -= 1) {
      const found = form.querySelector(`[data-path="${CSS.escape(tail.slice(0, n).join("."))}"]`);
      if (found) return found;
    }
  }
  return null;
}

function markInvalid(wrapper, message) {
  for (let up = wrapper; up; up = up.parentElement) if (up.tagName === "DETAILS") up.open = true;
  const id = uid("err");
  const input = wrapper.querySelector("input, select, textarea") || wrapper;
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", id);
  wrapper.append(h("p", { class: "field-error", id }, message));
}

// The schema without its "or null" (and whether null is allowed); a $ref's own default kept.
function nonNull(ctx, schema) {
  const resolved = resolve(ctx.doc, schema);
  const s = { ...resolved, default: schema.default ?? resolved.default };
  const alts = s.anyOf || s.oneOf;
  if (!alts || s.discriminator) return { s, nullable: false };
  const rest = alts.filter((a) => resolve(ctx.doc, a).type !== "null");
  const nullable = rest.length < alts.length;
  if (rest.length === 1) return { s: { ...resolve(ctx.doc, rest[0]), default: s.default }, nullable };
  return { s, nullable, mixed: true };
}

function labelOf(ctx, name, s) {
  return name === null ? "" : word(ctx.labels, name);
}

function field(ctx, schema, value, path, name, required) {
  const { s, nullable, mixed } = nonNull(ctx, schema);
  const key = path.join(".");
  const label = labelOf(ctx, name, s);
  const help = s.description || null;
  if (s.const !== undefined) return { el: null, read: () => s.const };
  if (value === undefined) value = s.default;
  if (mixed || s.discriminator) return jsonField(key, label, help, value, nullable);
  if (s.enum) return enumField(key, label, help, s.enum, value, nullable, !required);
  if (s.type === "boolean") return boolField(key, label, help, value);
  if (s.type === "integer" || s.type === "number") {
    return numberField(key, label, help, s, value, nullable);
  }
  if (s.type === "string") return textField(ctx, key, name, label, help, value, nullable);
  if (s.type === "array") return arrayField(ctx, s, key, path, name, label, help, value, nullable);
  if (s.type === "object" && s.properties) {
    if (nullable) return optionalObject(ctx, s, key, path, label, value);
    return objectField(ctx, s, key, path, label, value, nullable, !required);
  }
  return jsonField(key, label, help, value, nullable);
}

function wrap(key, label, help, control, id) {
  return h(
    "div",
    { class: "field", "data-path": key },
    h("label", { for: id }, label),
    control,
    help ? h("small", { class: "help" }, help) : null,
  );
}

function textField(ctx, key, name, label, help, value, nullable) {
  const id = uid("f");
  const suggestions = ctx.hints[name]?.length ? ctx.hints[name] : null;
  const list = suggestions ? uid("dl") : null;
  const input = h("input", { id, type: "text", value: value ?? "", list, autocomplete: "off" });
  const el = wrap(key, label, help, input, id);
  if (list) el.append(h("datalist", { id: list }, suggestions.map((v) => h("option", { value: v }))));
  return { el, read: () => (input.value === "" ? (nullable ? null : undefined) : input.value) };
}

function numberField(key, label, help, s, value, nullable) {
  const id = uid("f");
  const input = h("input", {
    id,
    type: "number",
    step: s.type === "integer" ? "1" : "any",
    min: s.minimum,
    max: s.maximum,
    value: value ?? "",
    inputmode: "decimal",
  });
  const read = () => (input.value === "" ? (nullable ? null : undefined) : Number(input.value));
  return { el: wrap(key, label, help, input, id), read };
}

function boolField(key, label, help, value) {
  const id = uid("f");
  const input = h("input", { id, type: "checkbox", checked: Boolean(value) });
  const el = h(
    "div",
    { class: "field check", "data-path": key },
    input,
    h("label", { for: id }, label),
    help ? h("small", { class: "help" }, help) : null,
  );
  return { el, read: () => input.checked };
}

// A nullable object (a skill's area...): a checkbox says whether it is there at all.
function optionalObject(ctx, s, key, path, label, value) {
  const inner = objectField(ctx, s, key, path, label, value || {}, false);
  const id = uid("f");
  const present = h("input", { id, type: "checkbox", checked: value !== null && value !== undefined });
  const toggle = () => (inner.el.hidden = !present.checked);
  present.addEventListener("change", toggle);
  toggle();
  const el = h("div", { class: "optional" }, h("div", { class: "field check" }, present, h("label", { for: id }, label)), inner.el);
  return { el, read: () => (present.checked ? inner.read() : null) };
}

function enumField(key, label, help, options, value, nullable, omissible) {
  const id = uid("f");
  const optional = nullable || (omissible && value === undefined);
  const select = h(
    "select",
    { id },
    optional ? h("option", { value: "" }, "—") : null,
    options.map((o) => h("option", { value: o, selected: o === value }, word("enum", o))),
  );
  if (value === undefined && !optional && options.length) select.value = options[0];
  return {
    el: wrap(key, label, help, select, id),
    read: () => (select.value === "" ? (nullable ? null : undefined) : select.value),
  };
}

function jsonField(key, label, help, value, nullable) {
  const id = uid("f");
  const area = h("textarea", { id, rows: 2, spellcheck: "false", class: "json" });
  area.value = value === undefined || value === null ? "" : JSON.stringify(value);
  const read = () => {
    const raw = area.value.trim();
    if (raw === "") return nullable ? null : undefined;
    try {
      return JSON.parse(raw);
    } catch {
      return raw; // a plain string (an id) where a string is one of the choices
    }
  };
  return { el: wrap(key, label, help, area, id), read };
}

function arrayField(ctx, s, key, path, name, label, help, value, nullable) {
  const items = resolve(ctx.doc, s.items || {});
  const list = Array.isArray(value) ? value : [];
  if (s.prefixItems) return squareField(key, label, help, value, nullable, s.prefixItems);
  if (items.enum || (ctx.hints[name]?.length && (items.type === "string" || items.anyOf))) {
    return choicesField(key, label, help, items.enum || ctx.hints[name], list, nullable);
  }
  if (["string", "integer", "number"].includes(items.type)) {
    const id = uid("f");
    const input = h("input", { id, type: "text", value: list.join(", ") });
    const read = () => {
      const parts = input.value.split(",").map((p) => p.trim()).filter(Boolean);
      return items.type === "string" ? parts : parts.map(Number);
    };
    return { el: wrap(key, label, help, input, id), read };
  }
  if (items.type === "object" && items.properties) {
    return objectListField(ctx, items, key, path, label, list);
  }
  return jsonField(key, label, help, value, nullable);
}

// A tuple of numbers: a grid square [x, y] (integers) or a pair of multipliers.
function squareField(key, label, help, value, nullable, items) {
  const id = uid("f");
  const square = items.every((i) => i.type === "integer");
  const input = h("input", {
    id,
    type: "text",
    placeholder: square ? "x, y" : items.map(() => "0.5").join(", "),
    value: Array.isArray(value) ? value.join(", ") : "",
  });
  const read = () => {
    const parts = input.value.split(",").map((p) => p.trim()).filter(Boolean);
    if (!parts.length) return nullable ? null : undefined;
    return parts.map(Number);
  };
  return { el: wrap(key, label, help, input, id), read };
}

function choicesField(key, label, help, options, chosen, nullable) {
  const boxes = options.map((option) => {
    const id = uid("f");
    const box = h("input", { id, type: "checkbox", value: option, checked: chosen.includes(option) });
    return { box, el: h("span", { class: "choice" }, box, h("label", { for: id }, word("enum", option))) };
  });
  const el = h(
    "fieldset",
    { class: "field choices", "data-path": key },
    h("legend", {}, label),
    boxes.map((b) => b.el),
    help ? h("small", { class: "help" }, help) : null,
  );
  return { el, read: () => boxes.filter((b) => b.box.checked).map((b) => b.box.value) };
}

function objectField(ctx, s, key, path, label, value, nullable, optional = false) {
  const current = value && typeof value === "object" ? value : {};
  const required = new Set(s.required || []);
  const children = Object.entries(s.properties).map(([prop, sub]) => [
    prop,
    field(ctx, sub, current[prop], [...path, prop], prop, required.has(prop)),
  ]);
  const inner = children.map(([, c]) => c.el);
  let el = path.length
    ? h("fieldset", { class: "group", "data-path": key }, h("legend", {}, label), inner)
    : h("div", { class: "group root" }, inner);
  if (ctx.collapse && optional && path.length) {
    el = h("details", { class: "folded", "data-path": key }, h("summary", {}, label), el);
  }
  const read = () => {
    const out = {};
    for (const [prop, c] of children) {
      const v = c.read();
      if (v !== undefined) out[prop] = v;
    }
    return out;
  };
  return { el, read };
}

function objectListField(ctx, items, key, path, label, list) {
  const rows = [];
  const box = h("div", { class: "rows" });
  const el = h("fieldset", { class: "group list", "data-path": key }, h("legend", {}, label), box);
  const add = (itemValue) => {
    const index = rows.length;
    const sub = field(ctx, items, itemValue, [...path, String(index)], null, true);
    const row = { sub, removed: false };
    const remove = h("button", { type: "button", class: "small danger" }, word("ui", "remove"));
    const title = (itemValue && (itemValue.name || itemValue.type || itemValue.kind)) || `#${index + 1}`;
    const rowEl = h(
      "details",
      { class: "row", "data-path": [...path, String(index)].join("."), open: itemValue && Object.keys(itemValue).length ? null : true },
      h("summary", {}, title),
      sub.el,
      remove,
    );
    remove.addEventListener("click", () => {
      row.removed = true;
      rowEl.remove();
    });
    rows.push(row);
    box.append(rowEl);
  };
  list.forEach(add);
  el.append(h("button", { type: "button", class: "small", onclick: () => add({}) }, word("ui", "add")));
  return { el, read: () => rows.filter((r) => !r.removed).map((r) => r.sub.read()) };
}
