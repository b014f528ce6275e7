// The new game's form on the start page: each preset offers its own house rules, and the
// extra players' fields open one by one (docs/board.md).
import { $, $$ } from "./dom.js";

export function setUpNewGame(form) {
  // Each preset offers its own house rules (Jamb: Triling, Kenta, Σ2 and its columns): only
  // the chosen preset's fields show; the server reads only those (docs/board.md).
  const showRules = (variant) => {
    for (const part of $$("[data-variants]", form)) {
      part.hidden = !part.dataset.variants.split(" ").includes(variant);
    }
  };
  // The house rules as the rules declare them (kniffel.rules.HOUSE_RULES), from the form.
  const setOptions = (options) => {
    for (const { name, widget, on } of JSON.parse(form.dataset.houseRules)) {
      if (!(name in options)) continue;
      const field = form.elements[name];
      if (widget === "check") field.checked = options[name] === on;
      else if (widget === "radio") for (const radio of field) radio.checked = radio.value === options[name];
      else field.value = options[name];
    }
  };
  for (const radio of $$('input[name="variant"]', form)) {
    radio.addEventListener("change", () => {
      setOptions(JSON.parse(radio.dataset.options));
      showRules(radio.value);
    });
    if (radio.checked) showRules(radio.value);
  }
  const extra = $$("[data-extra-player]", form).filter((li) => !$("input", li).value);
  const add = $("[data-add-player]", form);
  if (!add || extra.length === 0) return;
  extra.forEach((li) => (li.hidden = true));
  add.hidden = false;
  add.addEventListener("click", () => {
    const next = extra.shift();
    if (!next) return;
    next.hidden = false;
    $("input", next).focus();
    if (extra.length === 0) add.hidden = true;
  });
}

/** A refused import or new game is printed beside its form, often far down the page: it is
 * brought into view and given focus, so that what happened is seen and read out. */
export function showRefusal() {
  const refusal = $("#import-error, #form-error");
  if (!refusal) return;
  refusal.setAttribute("tabindex", "-1");
  refusal.scrollIntoView({ block: "center" });
  refusal.focus({ preventScroll: true });
}
