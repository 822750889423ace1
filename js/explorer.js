// Explorer front end: renders the render state the kernel computes (the `_`-prefixed
// traits) and forwards user actions as messages {kind, id, ...}. No computation here: a
// saved notebook re-renders from the traits alone. User text is only ever set with
// textContent, never innerHTML.
//
// The view is made of components looked up by the names the task's Explorer parts give
// (mtwidgets/core/views.py): MARK_VIEWS[_input.mark_view] draws the input box and its
// marking, PREDICTION_VIEWS[model.view] each model's predictions and
// EXTRA_VIEWS[model.extra.view] a model's extra component. No task is named here.

// @include common.js

const cls = (part) => `mtw-explorer__${part}`;

// A labelled span's colour comes from the kernel's palette (one per label) through a CSS
// variable; the label is always printed too, so colour is never the only cue.
function labelStyle(colors, label) {
  const color = label && colors ? colors[label] : null;
  return color && /^#[0-9a-fA-F]{3,8}$/.test(color) ? `--mtw-label: ${color}` : undefined;
}

// The chosen relation's diagram (mtwidgets/core/diagram.py: an SVG whose texts the kernel
// escaped) parsed as XML, never as HTML, and kept only if it is an <svg> that parsed
// cleanly; elements outside the drawing's own vocabulary (scripts, styles, foreign HTML)
// and any event-handler or link attribute are dropped before it joins the page.
const SVG_NS = "http://www.w3.org/2000/svg";
const DIAGRAM_ELEMENTS = new Set(["svg", "g", "title", "desc", "circle", "ellipse", "rect", "line", "path", "polygon", "polyline", "text", "tspan"]);

function diagramNode(source) {
  if (!source) return null;
  const doc = new DOMParser().parseFromString(source, "image/svg+xml");
  const root = doc.documentElement;
  if (doc.getElementsByTagName("parsererror").length || root.namespaceURI !== SVG_NS || root.localName !== "svg") return null;
  for (const el of [root, ...root.querySelectorAll("*")]) {
    if (el.namespaceURI !== SVG_NS || !DIAGRAM_ELEMENTS.has(el.localName)) {
      el.remove();
      continue;
    }
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on") || name.includes("href")) el.removeAttribute(attr.name);
    }
  }
  return document.importNode(root, true);
}

function entityPieces(pieces, colors) {
  return (pieces || []).map((p) => {
    if (!p.label && !p.suspicious) return document.createTextNode(p.text);
    const flags = [p.suspicious ? "suspicious" : "", p.changed ? "changed by repair" : "", p.wrong ? "not in the gold" : p.wrong === false ? "matches the gold" : ""].filter(Boolean);
    return h("span", {
      class: cls("ent"), "data-label": p.label || "none", "data-suspicious": p.suspicious ? "1" : undefined,
      "data-changed": p.changed ? "1" : undefined, "data-wrong": p.wrong === undefined ? undefined : p.wrong ? "1" : "0",
      style: labelStyle(colors, p.label), title: `${p.label || "nothing"}${flags.length ? ` (${flags.join(", ")})` : ""}`,
    }, [
      document.createTextNode(p.text),
      h("span", { class: cls("tag"), text: `${p.suspicious ? "⚠ " : ""}${p.label || "none"}${p.wrong ? " ✗" : ""}` }),
    ]);
  });
}

function entLine(title, pieces, side, colors) {
  return h("div", { class: cls("entline"), "data-side": side }, [h("span", { class: cls("label"), text: `${title}: ` }), ...entityPieces(pieces, colors)]);
}

function button(action, label, aria, onclick) {
  return h("button", { type: "button", class: cls("button"), "data-action": action, "aria-label": aria, text: label, onclick });
}

function isEditable(target) {
  return target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
}

const SIDES = [["source", "source"], ["followup", "follow-up"]];

// -- text boxes: one text, or one box per field ---------------------------------------------
const ONE_TEXT = {
  key: () => "one",
  build: (ctx) => [ctx.text, ctx.useText],
  update(ctx, state) {
    if (document.activeElement !== ctx.text) ctx.text.value = state.text || "";
  },
};

// -- a word to replace: a strip of the kernel's tokens under a text box ----------------------
// Parts that mark one word to replace (the text tasks; mtwidgets/core/views.py WordMarking)
// give a box's field a role; its strip lists the kernel's tokens (jieba's words for Chinese,
// never split here). A click marks a word; a click on the marked word unmarks it (so do
// Clear, Escape and c). A box without a role gets no strip.
function wordStrip(ctx, state, role, title, toks) {
  const m = (state.marks || {})[role];
  return h("div", { class: cls("wordstrip"), "data-role": role, role: "group", "aria-label": `Words of the ${title}: click one to mark it to replace` },
    toks.flatMap((t) => {
      const on = !!m && m.start < t.end && t.start < m.end;
      const act = () => (on ? ctx.send("clear", { role }) : ctx.send("mark", { role, start: t.start, end: t.end }));
      const node = h("span", {
        class: cls("token"), "data-i": t.i, "data-role": on ? role : undefined, "data-marked": on ? "1" : undefined,
        tabindex: "0", role: "button", "aria-pressed": on ? "true" : "false",
        "aria-label": on ? `${t.text} (marked to replace; click to unmark)` : `${t.text} (click to mark it to replace)`,
        text: t.text, onclick: act,
        onkeydown: (event) => {
          if (event.key !== "Enter" && event.key !== " ") return;
          event.preventDefault();
          event.stopPropagation();
          act();
        },
      });
      return t.ws ? [node, document.createTextNode(t.ws)] : [node];
    }));
}

function stripSlot(ctx, name) {
  const slot = h("div", { class: cls("wordslot"), "data-field": name });
  ctx.strips[name] = slot;
  return slot;
}

function fillStrip(ctx, state, name, role, title, toks) {
  const slot = ctx.strips && ctx.strips[name];
  if (slot) slot.replaceChildren(...(role && toks && toks.length ? [wordStrip(ctx, state, role, title, toks)] : []));
}

// One text box with its word strip (the tokens and the role are the input's own).
const ONE_TEXT_WORDS = {
  key: () => "one-words",
  build(ctx) {
    ctx.strips = {};
    return [h("div", { class: cls("fields") }, [ctx.text, stripSlot(ctx, "one")]), ctx.useText];
  },
  update(ctx, state) {
    ONE_TEXT.update(ctx, state);
    const f = (state.fields || [])[0] || {};
    fillStrip(ctx, state, "one", (state.roles || [])[0], f.title || "text", state.tokens);
  },
};

function fieldBoxes(tag) {
  return {
    key: (state) => `${tag}:${(state.fields || []).map((f) => f.name).join(",")}`,
    build(ctx, state) {
      ctx.fieldBoxes = {};
      ctx.strips = {};
      const rows = (state.fields || []).flatMap((f) => {
        const box = h(tag, {
          class: `${cls("text")} ${cls("field")}`, "data-field": f.name, "aria-label": f.title,
          placeholder: f.title, ...(tag === "textarea" ? { rows: "2" } : { type: "text" }),
        });
        ctx.fieldBoxes[f.name] = box;
        return [h("label", { class: cls("fieldrow") }, [h("span", { class: cls("fieldname"), text: `${f.title}: ` }), box]), stripSlot(ctx, f.name)];
      });
      const use = button("set-text", "Use texts", "Use these texts as the input", () =>
        ctx.send("set_text", { texts: Object.fromEntries(Object.entries(ctx.fieldBoxes).map(([k, b]) => [k, b.value])) }));
      return [h("div", { class: cls("fields") }, rows), use];
    },
    update(ctx, state) {
      for (const f of state.fields || []) {
        const box = ctx.fieldBoxes[f.name];
        if (box && document.activeElement !== box) box.value = f.text || "";
        fillStrip(ctx, state, f.name, f.role, f.title, f.tokens);
      }
    },
  };
}

// -- marking ---------------------------------------------------------------------------------
function modeButton(ctx, role) {
  return h("button", {
    type: "button", class: `${cls("button")} ${cls("mode")}`, "data-action": `mode-${role}`, "data-role": role,
    "aria-label": `Mark the ${role} (key ${role[0]})`, text: `${role[0].toUpperCase()}${role.slice(1)}`,
    onclick: () => ctx.setMode(role),
  });
}

function roleTools(ctx, state, extra = []) {
  return [
    ...(state.roles || []).map((role) => modeButton(ctx, role)),
    ...extra,
    button("clear", "Clear", "Clear the marks (Escape or c)", () => ctx.clearMarks()),
  ];
}

function suggestionButtons(ctx, state, payload) {
  return (state.suggestions || []).map((s) =>
    h("button", {
      type: "button", class: `${cls("button")} ${cls("suggestion")}`, "aria-label": `Mark ${s.text} (${s.label})`,
      text: `${s.text} · ${s.label}`,
      onclick: () => {
        if (!ctx.mode) return;
        const role = ctx.mode;
        ctx.send("mark", { role, start: s.start, end: s.end, ...payload(s) });
        ctx.advanceMode(role);
      },
    }),
  );
}

// Roles over tokens (e.g. a head and a tail): one span per role, each with a type.
const ROLE_MARKING = {
  texts: ONE_TEXT,
  marking: true,
  tools: (ctx, state) => roleTools(ctx, state),
  markKeys: (state) => state.roles || [],
  tokenMark: (state, key) => ({ role: key }),
  wordMark: (state, w) => ({ role: w.role }),
  markPayload: () => ({}),
  marks(ctx, state) {
    const spans = state.marks || {};
    return (state.roles || []).map((role) => {
      const m = spans[role];
      const select = h("select", { class: cls("type"), "data-role": role, "aria-label": `Entity type of the ${role}`, disabled: !m });
      select.append(
        h("option", { value: "", selected: !m || !m.label, text: m && m.inferred ? `auto (${m.inferred})` : "auto" }),
        ...(state.types || []).map((t) => h("option", { value: t, selected: !!m && m.label === t, text: t })),
      );
      select.addEventListener("change", () => ctx.send("set_type", { role, label: select.value }));
      return h("span", { class: cls("mark"), "data-role": role }, [
        h("span", { class: cls("markname"), text: `${role}: ` }),
        h("span", { class: cls("marktext"), text: m ? m.text : "—" }),
        select,
      ]);
    });
  },
  suggestions: (ctx, state) => suggestionButtons(ctx, state, () => ({})),
};

// Any number of labelled spans (e.g. gold entities), keyed by "start:end", shown as chips.
const SPAN_MARKING = {
  ...ROLE_MARKING,
  tools(ctx, state) {
    const chosen = ctx.newLabel.value;
    ctx.newLabel.replaceChildren(
      h("option", { value: "", text: "new entity label: auto (spaCy)" }),
      ...(state.types || []).map((t) => h("option", { value: t, selected: t === chosen, text: `new entity label: ${t}` })),
    );
    return roleTools(ctx, state, [ctx.newLabel]);
  },
  markKeys: (state) => {
    const spans = state.marks || {};
    return Object.keys(spans).filter((k) => spans[k]).sort((a, b) => spans[a].start - spans[b].start);
  },
  tokenMark: (state, key) => (key ? { role: (state.roles || [])[0], label: state.marks[key].label } : {}),
  wordMark: (state, w) => (w.role ? { role: (state.roles || [])[0], label: w.label } : {}),
  markPayload: (ctx) => (ctx.newLabel.value ? { label: ctx.newLabel.value } : {}),
  marks(ctx, state) {
    const spans = state.marks || {};
    return SPAN_MARKING.markKeys(state).map((key) => {
      const m = spans[key];
      const select = h("select", { class: cls("type"), "data-key": key, "aria-label": `Label of the gold entity ${m.text}` });
      select.append(...(state.types || []).map((t) => h("option", { value: t, selected: m.label === t, text: t })));
      select.addEventListener("change", () => ctx.send("set_type", { role: key, label: select.value }));
      return h("span", { class: cls("chip"), "data-key": key, "data-label": m.label, style: labelStyle(state.colors, m.label) }, [
        h("span", { class: cls("marktext"), text: m.text }),
        select,
        h("button", {
          type: "button", class: `${cls("button")} ${cls("remove")}`, "data-action": "remove-entity", "data-key": key,
          "aria-label": `Remove the gold entity ${m.text}`, text: "×", onclick: () => ctx.send("clear", { role: key }),
        }),
      ]);
    });
  },
  suggestions: (ctx, state) => suggestionButtons(ctx, state, (s) => ({ label: s.label })),
};

// Typed text only: nothing to mark.
const NO_MARKING = {
  texts: ONE_TEXT,
  marking: false,
  tools: () => [],
  markKeys: () => [],
  tokenMark: () => ({}),
  wordMark: () => ({}),
  markPayload: () => ({}),
  marks: () => [],
  suggestions: () => [],
};

// One word to replace, clicked in the strip under a text box (or nothing, without roles):
// a Clear button beside the hint, and the marked word shown in the source's words.
const WORD_MARKING = {
  ...NO_MARKING,
  tools(ctx, state) {
    if (!(state.roles || []).length) return [];
    const clear = button("clear", "Clear", "Unmark the word to replace (Escape or c)", () => ctx.clearMarks());
    clear.disabled = !Object.values(state.marks || {}).some(Boolean);
    return [clear];
  },
  wordMark: (state, w) => ({ role: w.role || undefined }),
};

const MARK_VIEWS = {
  "head-tail": ROLE_MARKING,
  spans: SPAN_MARKING,
  text: { ...WORD_MARKING, texts: ONE_TEXT_WORDS },
  "text-pair": { ...WORD_MARKING, texts: fieldBoxes("textarea") },
  "word-pair": { ...NO_MARKING, texts: fieldBoxes("input") },
};

function markView(state) {
  return MARK_VIEWS[state.mark_view] || ((state.roles || []).length ? ROLE_MARKING : NO_MARKING);
}

// -- predictions -------------------------------------------------------------------------------
function predictionTitle(title, preds, text) {
  return h("div", { class: cls("label"), text: `${title}: ${preds.map(text).join(" | ") || "—"}` });
}

function scoreBars(preds, title) {
  return h("div", { class: cls("side") }, [
    predictionTitle(title, preds, (p) => p.label),
    ...preds.flatMap((p) =>
      (p.top || []).map(([label, score]) =>
        h("div", { class: cls("bar") }, [
          h("span", { class: cls("barlabel"), text: label }),
          h("span", { class: cls("bartrack") }, [
            h("span", { class: cls("barfill"), style: `width: ${Math.max(0, Math.min(1, Number(score))) * 100}%` }),
          ]),
          h("span", { class: cls("barvalue"), text: Number(score).toFixed(2) }),
        ]),
      ),
    ),
  ]);
}

function fmtValue(v) {
  const x = Number(v);
  return Number.isFinite(x) ? (Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(3)) : String(v);
}

function bandScale(bands, value) {
  if (!bands.length) return null;
  const lo = Math.min(...bands.map((b) => Number(b.low)));
  const hi = Math.max(...bands.map((b) => Number(b.high)));
  const at = (x) => `${Math.max(0, Math.min(1, (Number(x) - lo) / (hi - lo || 1))) * 100}%`;
  return h("div", { class: cls("bands"), "aria-hidden": "true" }, [
    ...bands.map((b) => h("span", {
      class: cls("band"), "data-band": b.name, title: `${b.name}: ${b.low} to ${b.high}`,
      style: `left: ${at(b.low)}; width: calc(${at(b.high)} - ${at(b.low)})`,
    }, b.name)),
    h("span", { class: cls("bandmarker"), style: `left: ${at(value)}` }),
  ]);
}

function textWords(segs) {
  return (segs || []).map((w) => {
    const tag = w.op === "ins" ? "ins" : w.op === "del" ? "del" : "span";
    return h(tag, { class: cls("word") }, [document.createTextNode(w.text + (w.ws || ""))]);
  });
}

function sides(draw) {
  return (ctx, m) => h("div", { class: cls("sides") }, SIDES.map(([key, title]) => draw(ctx, m, m[key] || [], title, key)));
}

const PREDICTION_VIEWS = {
  "label-scores": sides((ctx, m, preds, title) => scoreBars(preds, title)),
  spans: sides((ctx, m, preds, title, key) =>
    h("div", { class: cls("side") }, preds.length
      ? preds.map((p) => entLine(title, p.spans || [{ text: "(no spans)" }], key, ctx.colors()))
      : [predictionTitle(title, [], () => "")])),
  "number-bands": sides((ctx, m, preds, title) =>
    h("div", { class: cls("side") }, [
      predictionTitle(title, preds, (p) => (p.value === undefined ? "—" : `${fmtValue(p.value)}${p.band ? ` (${p.band})` : ""}`)),
      ...preds.map((p) => h("div", { class: cls("number"), "data-band": p.band || undefined }, [
        h("span", { class: cls("value"), text: p.value === undefined ? "—" : fmtValue(p.value) }),
        p.band ? h("span", { class: cls("bandname"), text: p.band }) : null,
        p.value === undefined ? null : bandScale(m.bands || [], p.value),
      ])),
    ])),
  "text-diff": (ctx, m) => h("div", { class: cls("textpreds") }, SIDES.flatMap(([key, title]) =>
    (m[key] || []).map((p) => h("div", { class: cls("textpred"), "data-side": key }, [
      h("span", { class: cls("label"), text: `${title}: ` }),
      ...(p.diff ? textWords(p.diff) : [document.createTextNode(p.text ?? "—")]),
    ])))),
};

// -- extra per-model components ------------------------------------------------------------------
function entityInspector(ctx, view) {
  const colors = ctx.colors();
  const sus = view.suspicious || [];
  const repair = view.repair;
  const judged = (s) => s.source_category === null || s.source_category === undefined
    ? `suggests ${s.suggests}`
    : `against gold: source ${s.source_category}, follow-up ${s.followup_category ?? "unknown"}`;
  return h("div", { class: cls("inspector") }, [
    entLine("source", view.source, "source", colors),
    entLine("follow-up", view.followup, "followup", colors),
    sus.length
      ? h("ul", { class: cls("suspicious"), "aria-label": "Suspicious entities" }, sus.map((s) =>
          h("li", { class: cls("suspect") }, [
            h("span", { class: cls("suspecttext"), text: `⚠ "${s.text}"` }),
            document.createTextNode(`: ${s.source} in the source, ${s.followup} in the follow-up · ${judged(s)}`),
          ])))
      : null,
    repair
      ? h("div", { class: cls("repair"), "data-status": repair.status }, repair.status === "done"
          ? [
              h("div", { class: cls("repairtitle"), text: "Repaired (TIN relabeling)" }),
              entLine("source", repair.source, "source", colors),
              entLine("follow-up", repair.followup, "followup", colors),
              h("ul", { class: cls("relabels") }, (repair.relabels || []).map((r) =>
                h("li", { class: cls("relabel"), text: r.decided
                  ? `${r.side} "${r.entity}" → ${r.label} (votes ${r.votes.map(([k, v]) => `${k} ${v}`).join(", ")}; ${r.mutants} mutants)`
                  : `${r.side} "${r.entity}": unchanged (no similar entity passed the filters)` }))),
            ]
          : [h("div", { class: cls("repairtitle"), text: repair.message || repair.status })])
      : null,
  ]);
}

const EXTRA_VIEWS = {
  "entity-inspector": entityInspector,
};

function modelCard(ctx, m) {
  const extra = m.extra && EXTRA_VIEWS[m.extra.view] ? EXTRA_VIEWS[m.extra.view](ctx, m.extra.data || {}) : null;
  const prediction = PREDICTION_VIEWS[m.view] || PREDICTION_VIEWS["label-scores"];
  return h("div", { class: cls("model"), "data-model": m.name, "data-view": m.view || "label-scores" }, [
    h("div", { class: cls("modelhead") }, [
      h("span", { class: cls("modelname"), text: m.name }),
      h("span", { class: cls("verdict"), "data-verdict": m.verdict, text: m.verdict.replace("_", " ") }),
    ]),
    h("div", { class: cls("reason"), text: m.reason }),
    h("div", { class: cls("expected"), text: `expected: ${m.expected || "—"}` }),
    extra && m.extra.replaces ? null : prediction(ctx, m),
    extra,
  ]);
}

// -- a multi-source relation's case (pairwise systematicity: x1, x2) -----------------------------------
// The kernel (mtwidgets/widgets/_explorer_multi.py) sends _case: the case's sources, the
// transformation picker, the follow-ups diffed against their sources and one card per model
// with the value read from each input, the premise, the hypothesis and the verdict. Nothing
// here names a relation: titles and texts are the kernel's.
const CASE_VERDICTS = { pass: "satisfied", violation: "violation", not_applicable: "not applicable", error: "error" };

function caseValue(v) {
  const x = v.value === null || v.value === undefined ? null : Number(v.value);
  return h("div", { class: cls("casevalue"), "data-title": v.title, title: (v.top || []).map(([k, s]) => `${k} ${Number(s).toFixed(3)}`).join(", ") || undefined }, [
    h("span", { class: cls("casevaluetitle"), text: v.title }),
    h("span", { class: cls("casenum"), text: x === null ? "—" : fmtValue(x) }),
    x === null ? null : h("span", { class: cls("bartrack") }, [
      h("span", { class: cls("barfill"), style: `width: ${Math.max(0, Math.min(1, x)) * 100}%` }),
    ]),
    h("span", { class: cls("caselabel"), text: v.label ?? "" }),
  ]);
}

function caseSide(side) {
  // true / false in words and one colour: a premise that is false is no failure (the verdict says which is)
  const holds = side.holds === true ? "true" : side.holds === false ? "false" : "unknown";
  return h("div", { class: cls("caseside"), "data-side": side.title, "data-holds": side.holds === null || side.holds === undefined ? "" : side.holds ? "1" : "0" }, [
    h("span", { class: cls("casesidetitle"), text: `${side.title}: ` }),
    h("span", { class: cls("casesidetext"), text: side.text || "—" }),
    h("span", { class: cls("caseholds"), text: ` · ${holds}` }),
  ]);
}

function caseCard(m, columns) {
  const n = Math.max(1, columns);
  return h("div", { class: cls("casemodel"), "data-model": m.name, "data-verdict": m.verdict }, [
    h("div", { class: cls("modelhead") }, [
      h("span", { class: cls("modelname"), text: m.name }),
      h("span", { class: cls("verdict"), "data-verdict": m.verdict, text: CASE_VERDICTS[m.verdict] || m.verdict }),
    ]),
    h("div", { class: cls("casevalues"), style: `grid-template-columns: repeat(${n}, minmax(0, 1fr))` }, (m.values || []).map(caseValue)),
    caseSide(m.premise || {}),
    caseSide(m.hypothesis || {}),
    h("div", { class: cls("reason"), text: m.reason || "" }),
  ]);
}

// -- the widget ------------------------------------------------------------------------------------
function render({ model, el }) {
  const root = h("div", { class: "mtw-explorer", "data-busy": "0" });
  el.append(root);
  const pending = new Set();
  let nextId = 1;
  let drag = null; // {from, to} token indices while dragging
  const inputState = () => model.get("_input") || {};

  const ctx = {
    mode: null, // the role the next click marks
    send(kind, payload = {}) {
      const id = nextId++;
      pending.add(id);
      root.dataset.busy = "1";
      model.send({ kind, id, ...payload });
      return id;
    },
    setMode(role) {
      ctx.mode = role;
      for (const b of modeButtons.querySelectorAll("button[data-role]")) {
        b.setAttribute("aria-pressed", b.dataset.role === ctx.mode ? "true" : "false");
      }
      root.dataset.mode = ctx.mode || "";
    },
    advanceMode(role) {
      const roles = inputState().roles || [];
      const next = roles[roles.indexOf(role) + 1];
      if (next) ctx.setMode(next); // after the head, the tail
    },
    clearMarks() {
      ctx.send("clear");
      ctx.setMode((inputState().roles || [])[0] || null);
    },
    colors: () => inputState().colors || {},
  };
  const send = ctx.send;

  // -- layout ------------------------------------------------------------------------
  const error = h("div", { class: cls("error"), role: "alert", hidden: true });
  const rowInfo = h("span", { class: cls("rowinfo") });
  const search = h("input", { type: "search", class: cls("search"), placeholder: "filter rows", "aria-label": "Filter rows" });
  const rows = h("select", { class: cls("rows"), "aria-label": "Pick a row of the data" });
  ctx.text = h("textarea", { class: cls("text"), rows: "2", "aria-label": "Sentence" });
  ctx.useText = button("set-text", "Use text", "Use this text as the input", () => send("set_text", { text: ctx.text.value }));
  ctx.newLabel = h("select", { class: cls("newlabel"), "aria-label": "Label of new gold entities" });
  const textRow = h("div", { class: cls("row") });
  const modeButtons = h("div", { class: cls("modes"), role: "group", "aria-label": "Marking mode" });
  const tokens = h("div", { class: cls("tokens"), "aria-label": "Tokens: click or drag to mark" });
  const marks = h("div", { class: cls("marks") });
  const suggestions = h("div", { class: cls("suggestions") });
  const todo = h("div", { class: cls("todo") });
  const relation = h("select", { class: cls("relation"), "aria-label": "Metamorphic relation" });
  const relInfo = h("div", { class: cls("relinfo") });
  const diagramBox = h("div", { class: cls("diagrambox") });
  // Open at first; a reader who folds it away keeps it folded (the box is never rebuilt).
  const diagram = h("details", { class: cls("diagram"), open: true }, [
    h("summary", { text: "Diagram" }),
    diagramBox,
  ]);
  const sources = h("div", { class: cls("sources") });
  const followup = h("div", { class: cls("followup"), "aria-live": "polite" });
  const note = h("div", { class: cls("note") });
  const counter = h("span", { class: cls("counter") });
  const reshuffle = button("reshuffle", "Reshuffle", "Reshuffle the candidates", () => send("reshuffle"));
  const edit = h("textarea", { class: cls("edit"), rows: "2", "aria-label": "Edit the follow-up" });
  const saveButton = button("save", "Save to suite", "Save this group to the suite", () => send("save"));
  const models = h("div", { class: cls("models") });
  const caseBox = h("section", { class: cls("case"), "aria-label": "Case", hidden: true });
  const caseSources = h("div", { class: cls("casesources") });
  const caseOption = h("select", { class: cls("caseoption"), "aria-label": "Transformation applied to every source" });
  const caseFollowups = h("div", { class: cls("casefollowups"), "aria-live": "polite" });
  const caseExpected = h("div", { class: cls("expected") });
  const caseLegend = h("div", { class: cls("caselegend") });
  const caseModels = h("div", { class: cls("casemodels") });
  const caseSave = button("case-save", "Save to suite", "Save this case to the suite", () => send("save"));
  caseBox.append(
    caseSources,
    h("div", { class: cls("row") }, [h("label", { class: cls("caseoptionlabel") }, [h("span", { text: "Transformation T: " }), caseOption]), caseSave]),
    caseFollowups,
    caseExpected,
    caseLegend,
    caseModels,
  );
  const followupBox = h("section", { class: cls("followupbox"), "aria-label": "Follow-up" });

  root.append(
    error,
    h("section", { class: cls("input"), "aria-label": "Input" }, [
      h("div", { class: cls("row") }, [
        button("prev-row", "‹", "Previous row", () => stepRow(-1)),
        rows,
        button("next-row", "›", "Next row", () => stepRow(1)),
        search,
        rowInfo,
      ]),
      textRow,
      h("div", { class: cls("row") }, [modeButtons, todo]),
      tokens,
      marks,
      suggestions,
    ]),
    h("section", { class: cls("relationbox"), "aria-label": "Relation" }, [relation, relInfo, diagram]),
    caseBox,
    followupBox,
    models,
  );
  followupBox.append(
    sources,
    followup,
    note,
    h("div", { class: cls("row") }, [
      button("prev-candidate", "‹", "Previous candidate", () => send("candidate", { step: -1 })),
      counter,
      button("next-candidate", "›", "Next candidate", () => send("candidate", { step: 1 })),
      reshuffle,
    ]),
    h("div", { class: cls("row") }, [
      edit,
      button("apply-edit", "Apply edit", "Use the edited follow-up", () => send("edit_followup", { text: edit.value })),
      saveButton,
    ]),
  );

  // -- rows --------------------------------------------------------------------------------
  function stepRow(step) {
    const state = inputState();
    const n = state.n_rows || 0;
    if (!n) return;
    send("row", { index: (((state.row || 0) + step) % n + n) % n });
  }
  rows.addEventListener("change", () => send("row", { index: Number(rows.value) }));
  search.addEventListener("input", () => renderRows());

  let builtFrom = null; // the _rows list the options were built from (unfiltered)
  function renderRows() {
    const all = model.get("_rows") || [];
    const needle = search.value.trim().toLowerCase();
    const current = inputState().row;
    if (!needle && all === builtFrom) {
      // Same rows, no filter: moving the selection is enough (rebuilding up to 2,000
      // options on every edit cost more than the rest of the view's update).
      rows.value = current === undefined || current === null ? "" : String(current);
      return;
    }
    builtFrom = needle ? null : all;
    rows.replaceChildren(
      ...all
        .filter((r) => !needle || r.text.toLowerCase().includes(needle) || r.i === current)
        .map((r) => h("option", { value: r.i, selected: r.i === current, text: `${r.i}: ${r.text}` })),
    );
  }

  // -- token marking (click, drag, keyboard) ----------------------------------------------
  function markTokens(from, to) {
    const state = inputState();
    const toks = state.tokens || [];
    const a = toks[Math.min(from, to)];
    const b = toks[Math.max(from, to)];
    if (!a || !b || !ctx.mode) return;
    const role = ctx.mode;
    send("mark", { role, start: a.start, end: b.end, ...markView(state).markPayload(ctx) });
    ctx.advanceMode(role);
  }

  function tokenIndex(target) {
    const node = target && target.closest ? target.closest(`.${cls("token")}`) : null;
    return node ? Number(node.dataset.i) : null;
  }

  function showDrag() {
    for (const t of tokens.querySelectorAll(`.${cls("token")}`)) {
      const i = Number(t.dataset.i);
      t.classList.toggle("is-dragging", !!drag && i >= Math.min(drag.from, drag.to) && i <= Math.max(drag.from, drag.to));
    }
  }

  tokens.addEventListener("mousedown", (event) => {
    const i = tokenIndex(event.target);
    if (i === null || !markView(inputState()).marking) return;
    event.preventDefault();
    drag = { from: i, to: i };
    showDrag();
  });
  tokens.addEventListener("mouseover", (event) => {
    const i = tokenIndex(event.target);
    if (drag && i !== null && i !== drag.to) {
      drag.to = i;
      showDrag();
    }
  });
  const onMouseUp = () => {
    if (!drag) return;
    const { from, to } = drag;
    drag = null;
    showDrag();
    markTokens(from, to);
  };
  window.addEventListener("mouseup", onMouseUp);
  tokens.addEventListener("keydown", (event) => {
    const i = tokenIndex(event.target);
    if (i !== null && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      event.stopPropagation();
      markTokens(i, i);
    }
  });
  root.addEventListener("keydown", (event) => {
    if (isEditable(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    const roles = inputState().roles || [];
    const role = key.length === 1 ? roles.find((r) => r[0].toLowerCase() === key) : undefined;
    if (role) {
      ctx.setMode(role);
      event.preventDefault();
    } else if (roles.length && (key === "Escape" || key === "c")) {
      ctx.clearMarks();
      event.preventDefault();
    }
  });

  // -- input -----------------------------------------------------------------------------
  let textsKey = null;
  function renderInput() {
    const state = inputState();
    const view = markView(state);
    const roles = state.roles || [];
    const colors = state.colors || {};
    const key = `${state.mark_view}|${view.texts.key(state)}`;
    if (key !== textsKey) {
      textsKey = key;
      textRow.replaceChildren(...view.texts.build(ctx, state));
    }
    view.texts.update(ctx, state);
    root.dataset.markView = state.mark_view || "";
    rowInfo.textContent = !state.n_rows ? "" : state.custom
      ? `own input (data: ${state.n_rows} rows)`
      : `row ${state.row + 1} of ${state.n_rows}`;
    modeButtons.replaceChildren(...view.tools(ctx, state));
    if (!roles.includes(ctx.mode)) ctx.mode = roles[0] || null;
    ctx.setMode(ctx.mode);
    const spans = state.marks || {};
    const keys = view.markKeys(state);
    tokens.hidden = !view.marking;
    tokens.replaceChildren(
      ...(view.marking ? state.tokens || [] : []).flatMap((t) => {
        const found = keys.find((r) => spans[r] && spans[r].start < t.end && t.start < spans[r].end);
        const { role, label } = view.tokenMark(state, found);
        const node = h("span", {
          class: cls("token"), "data-i": t.i, "data-role": role, "data-label": label, style: labelStyle(colors, label),
          tabindex: "0", role: "button", "aria-label": role ? `${t.text} (${label || role})` : t.text, text: t.text,
        });
        return t.ws ? [node, document.createTextNode(t.ws)] : [node];
      }),
    );
    marks.replaceChildren(...view.marks(ctx, state));
    suggestions.replaceChildren(...view.suggestions(ctx, state));
    todo.textContent = state.todo || "";
    renderRows();
  }

  // -- relation ------------------------------------------------------------------------
  relation.addEventListener("change", () => send("relation", { name: relation.value }));

  function renderRelations() {
    const list = model.get("_relations") || [];
    const current = (model.get("_followup") || {}).relation;
    relation.replaceChildren(
      ...list.map((r) =>
        h("option", {
          value: r.name, selected: r.name === current, disabled: !r.enabled && r.name !== current,
          title: r.reason || (r.checked === false ? `${r.description} (whether it applies here is checked when chosen)` : r.description),
          text: r.enabled ? `${r.name} · ${r.category}` : `${r.name} · not applicable: ${r.reason}`,
        }),
      ),
    );
    const info = list.find((r) => r.name === current);
    relInfo.replaceChildren(
      ...(info
        ? [
            h("div", { class: cls("description"), text: info.description }),
            h("div", { class: cls("expected"), text: `Expected output: ${info.expected}` }),
            h("div", { class: cls("paper"), text: info.paper }),
          ]
        : []),
    );
  }

  function renderDiagram() {
    const node = diagramNode(model.get("_diagram"));
    diagramBox.replaceChildren(...(node ? [node] : []));
    diagram.hidden = !node;
  }

  // -- follow-up -------------------------------------------------------------------------
  function words(list, replaced = null) {
    const state = inputState();
    const view = markView(state);
    return list.map((w, k) => {
      if (w.field !== undefined) {
        return h("span", { class: cls("fieldname"), "data-first": k === 0 ? "1" : undefined, text: `${w.field}: ` });
      }
      const tag = w.op === "ins" ? "ins" : w.op === "del" ? "del" : "span";
      const { role, label } = view.wordMark(state, w);
      const marked = replaced && replaced.has(k);
      return h(tag, {
        class: cls("word"), "data-role": role, "data-label": label, style: labelStyle(state.colors, label),
        "data-replaced": marked ? "1" : undefined, title: marked ? "replaced in the follow-up" : undefined,
      }, [document.createTextNode(w.text + (w.ws || ""))]);
    });
  }

  // The source's words the follow-up replaces: the follow-up's diff lists every source word
  // in order (kept or struck out, field markers included) with the inserted ones between,
  // so walking it past the insertions pairs each of its entries with one source word.
  function replacedWords(source, followup) {
    const out = new Set();
    if (!source || !followup) return out;
    let k = 0;
    for (const w of followup) {
      if (w.op === "ins" && w.field === undefined) continue;
      if (k >= source.length) break;
      if (w.op === "del") out.add(k);
      k += 1;
    }
    return out;
  }

  function renderFollowup() {
    const state = model.get("_followup") || {};
    const srcs = state.sources || [];
    const several = (inputState().fields || []).length > 1;
    const fus = state.followups || [];
    sources.replaceChildren(
      ...(srcs.length > 1 || several
        ? srcs.map((s, k) => h("div", { class: cls("source") }, [
            h("span", { class: cls("label"), text: srcs.length > 1 ? `source ${k + 1}: ` : "source: " }),
            ...words(s, srcs.length === 1 ? replacedWords(s, fus[0]) : null),
          ]))
        : []),
    );
    followup.replaceChildren(
      ...(fus.length
        ? fus.map((f) => h("div", {}, words(f)))
        : [h("span", { class: cls("empty"), text: state.not_applicable || "no follow-up yet" })]),
    );
    note.textContent = state.note ? `${state.edited ? "edited · " : ""}${state.note}` : "";
    const n = state.n_candidates || 0;
    counter.textContent = n ? `candidate ${state.candidate + 1} of ${n}` : "no candidates";
    reshuffle.textContent = `Reshuffle (seed ${state.seed ?? 0})`;
    if (document.activeElement !== edit) edit.value = (state.texts || [])[0] || "";
    renderRelations();
  }

  // -- a multi-source relation's case ------------------------------------------------------
  // One box per source: x1 is the input above (shown, not edited here); every other source
  // has a row picker ("auto" follows x1), ‹ › to step its row, and a text box read as the
  // user types (after a pause) or on Enter / Use text.
  const caseCtx = { built: null, rowsFrom: null, boxes: {}, pickers: {} };
  const TYPE_PAUSE_MS = 300;
  let typing = null;

  function sendPartnerText(slot, text) {
    clearTimeout(typing);
    typing = null;
    send("partner_text", { slot, text });
  }

  function partnerRows(picker) {
    picker.replaceChildren(
      h("option", { value: "auto", text: "auto: the row after x1's" }),
      h("option", { value: "typed", disabled: true, text: "typed text" }),
      ...(model.get("_rows") || []).map((r) => h("option", { value: r.i, text: `${r.i}: ${r.text}` })),
    );
  }

  function partnerBox(src) {
    const slot = src.slot;
    const picker = h("select", { class: cls("caserows"), "data-slot": slot, "aria-label": `Pick the row of ${src.title}` });
    partnerRows(picker);
    picker.addEventListener("change", () =>
      picker.value === "auto" ? send("partner_auto", { slot }) : send("partner_row", { slot, index: Number(picker.value) }));
    const box = h("textarea", { class: cls("casetext"), "data-slot": slot, rows: "2", "aria-label": `Text of ${src.title}` });
    box.addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(() => sendPartnerText(slot, box.value), TYPE_PAUSE_MS);
    });
    box.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        sendPartnerText(slot, box.value);
      }
    });
    const step = (d) => {
      const entry = ((model.get("_case") || {}).sources || []).find((e) => e.slot === slot) || {};
      const n = (model.get("_rows") || []).length || inputState().n_rows || 0;
      if (!n) return;
      const from = entry.row ?? inputState().row ?? 0;
      send("partner_row", { slot, index: (((from + d) % n) + n) % n });
    };
    caseCtx.boxes[slot] = box;
    caseCtx.pickers[slot] = picker;
    return h("div", { class: cls("casesource"), "data-slot": slot }, [
      h("div", { class: cls("row") }, [
        h("span", { class: cls("casetitle"), text: src.title }),
        button(`prev-partner-${slot}`, "‹", `Previous row for ${src.title}`, () => step(-1)),
        picker,
        button(`next-partner-${slot}`, "›", `Next row for ${src.title}`, () => step(1)),
      ]),
      h("div", { class: cls("row") }, [
        box,
        button(`partner-text-${slot}`, "Use text", `Use this text as ${src.title}`, () => sendPartnerText(slot, box.value)),
      ]),
      h("div", { class: cls("todo"), "data-slot": slot }),
    ]);
  }

  function ownBox(src) {
    return h("div", { class: cls("casesource"), "data-slot": src.slot }, [
      h("span", { class: cls("casetitle"), text: src.title }),
      h("span", { class: cls("caseown"), "data-slot": src.slot }),
      h("span", { class: cls("casehint"), text: " (the input above)" }),
    ]);
  }

  function renderCaseSources(state) {
    const list = state.sources || [];
    const key = list.map((s) => `${s.slot}:${s.title}`).join("|");
    if (key !== caseCtx.built) {
      caseCtx.built = key;
      caseCtx.boxes = {};
      caseCtx.pickers = {};
      caseCtx.rowsFrom = model.get("_rows");
      caseSources.replaceChildren(...list.map((s) => (s.slot === 0 ? ownBox(s) : partnerBox(s))));
    } else if (caseCtx.rowsFrom !== model.get("_rows")) {
      caseCtx.rowsFrom = model.get("_rows");
      Object.values(caseCtx.pickers).forEach(partnerRows);
    }
    for (const s of list) {
      if (s.slot === 0) {
        const own = caseSources.querySelector(`.${cls("caseown")}[data-slot="0"]`);
        if (own) own.textContent = s.text || s.todo || "—";
        continue;
      }
      const box = caseCtx.boxes[s.slot];
      const picker = caseCtx.pickers[s.slot];
      if (box && document.activeElement !== box && !(typing && box.value !== s.text)) box.value = s.text || "";
      if (picker) picker.value = s.auto ? "auto" : s.row === null || s.row === undefined ? "typed" : String(s.row);
      const todo = caseSources.querySelector(`.${cls("todo")}[data-slot="${s.slot}"]`);
      if (todo) todo.textContent = s.todo || (s.auto ? "follows x1 (the row after it); pick a row or type a text to keep x2 fixed" : "");
    }
  }

  function renderCase() {
    const state = model.get("_case") || {};
    const active = !!state.active;
    caseBox.hidden = !active;
    followupBox.hidden = active;
    models.hidden = active;
    root.dataset.case = active ? "1" : "0";
    if (!active) return;
    renderCaseSources(state);
    caseOption.replaceChildren(
      ...(state.options || []).map((o) => h("option", {
        value: o.key, selected: o.key === state.option, title: o.reason || undefined,
        text: o.enabled ? o.label : `${o.label} · not applicable: ${o.reason}`,
      })),
    );
    caseOption.value = state.option || "";
    const titles = state.titles || {};
    caseFollowups.replaceChildren(
      ...((state.followups || []).length
        ? state.followups.map((f) => h("div", { class: cls("casefollowup") }, [
            h("span", { class: cls("label"), text: `${f.title}: ` }),
            ...words(f.words || []),
          ]))
        : [h("span", { class: cls("empty"), text: state.not_applicable || "no follow-ups yet" })]),
    );
    caseExpected.textContent = state.expected ? `Expected: ${state.expected}` : "";
    caseLegend.textContent = titles.value ? `Values: ${titles.value}` : "";
    const columns = (titles.sources || []).length;
    caseModels.replaceChildren(...(state.models || []).map((m) => caseCard(m, columns)));
  }
  caseOption.addEventListener("change", () => send("case_option", { option: caseOption.value }));

  // x1 is typed in the input box; with a case shown it is read as the user types too.
  ctx.text.addEventListener("input", () => {
    if (!(model.get("_case") || {}).active) return;
    clearTimeout(typing);
    typing = setTimeout(() => {
      typing = null;
      if (ctx.text.value.trim()) send("set_text", { text: ctx.text.value });
    }, TYPE_PAUSE_MS);
  });

  // -- models ----------------------------------------------------------------------------
  function renderModels() {
    models.replaceChildren(...(model.get("_models") || []).map((m) => modelCard(ctx, m)));
  }

  function renderError() {
    const e = model.get("_error") || {};
    error.hidden = !e.message;
    error.replaceChildren(
      ...(e.message
        ? [
            h("div", { class: cls("errormessage"), text: e.message }),
            h("div", { class: cls("errorhint"), text: e.hint || "" }),
            h("button", { type: "button", class: cls("button"), "data-action": "dismiss", "aria-label": "Dismiss the error", text: "Dismiss", onclick: () => { error.hidden = true; } }),
          ]
        : []),
    );
  }

  function showLocalError(message) {
    error.hidden = false;
    error.replaceChildren(
      h("div", { class: cls("errormessage"), text: message }),
      h("div", { class: cls("errorhint"), text: "The rest of the widget keeps working; fix the value and try again." }),
    );
  }

  function onCustom(msg) {
    if (!msg || msg.id === undefined || !pending.has(msg.id)) return;
    // The kernel sends the state update before the reply; the widget manager applies
    // updates asynchronously, so settle after pending promise work (a macrotask) before
    // declaring the reply rendered.
    setTimeout(() => {
      if (msg.kind === "error" && !(model.get("_error") || {}).message) showLocalError(msg.message);
      pending.delete(msg.id);
      if (pending.size === 0) root.dataset.busy = "0";
    }, 0);
  }

  const handlers = {
    "change:_input": renderInput,
    "change:_relations": renderRelations,
    "change:_diagram": renderDiagram,
    "change:_followup": renderFollowup,
    "change:_models": renderModels,
    "change:_error": renderError,
    "change:_case": renderCase,
    "change:_rows": () => { renderRows(); if ((model.get("_case") || {}).active) renderCase(); },
    "change:_saved": () => {
      saveButton.textContent = `Save to suite (${model.get("_saved") || 0})`;
      caseSave.textContent = `Save to suite (${model.get("_saved") || 0})`;
    },
    "msg:custom": onCustom,
  };
  for (const [event, fn] of Object.entries(handlers)) model.on(event, fn);
  renderInput();
  renderDiagram();
  renderFollowup();
  renderModels();
  renderCase();
  renderError();
  handlers["change:_saved"]();

  return () => {
    for (const [event, fn] of Object.entries(handlers)) model.off(event, fn);
    window.removeEventListener("mouseup", onMouseUp);
  };
}

export default { render };
