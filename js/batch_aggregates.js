// Batch panel: the aggregated relations (pairwise systematicity, three-way transitivity).
// One section per relation and model (the `sections` trait, built in Python): the counts
// and safety, a table of safety per slice (a click shows that slice's worst sources), the
// worst sources (the paper's Table 2; a click opens the source in the Explorer) and a few
// example cases. Their counts never enter the VR chips or charts of the per-group
// relations. Plain DOM; user text only through textContent. Nothing here knows a relation.
// h(tag, "class names", text): the shared DOM helper of js/common.js, inlined here.
// @include common.js

const COUNTS = [
  ["tests", "tests"],
  ["satisfied", "satisfied"],
  ["violations", "violations"],
  ["not_applicable", "not applicable"],
  ["errors", "errors"],
];

function pct(x) {
  return x === null || x === undefined ? "—" : `${(100 * x).toFixed(1)}%`;
}

function num(x) {
  return x === null || x === undefined ? "—" : Number(x).toLocaleString("en-US");
}

function score(x) {
  return x === null || x === undefined ? "" : Number(x).toFixed(3);
}

// A safety cell: the number and a bar as wide as the share (drawn by CSS).
function safetyCell(value) {
  const td = h("td", "mtw-batch__agg-safety");
  const bar = h("span", "mtw-batch__agg-bar");
  const fill = h("span", "mtw-batch__agg-fill");
  fill.style.width = value === null || value === undefined ? "0" : `${Math.round(1000 * value) / 10}%`;
  bar.appendChild(fill);
  td.append(bar, h("span", "mtw-batch__agg-pct", pct(value)));
  return td;
}

function render({ model, el }) {
  const root = h("div", "mtw-batch mtw-batch__aggregates");
  el.appendChild(root);
  let counter = 0;
  const send = (msg) => model.send({ id: `a${++counter}`, ...msg });
  const errorEl = h("div", "mtw-batch__message mtw-batch__message--error");
  const pendingEl = h("div", "mtw-batch__agg-pending");
  const body = h("div", "mtw-batch__agg-sections");
  root.append(errorEl, pendingEl, body);

  function shownSlice(section) {
    const wanted = (model.get("shown") || {})[section.key];
    const slices = section.slices || [];
    return slices.find((s) => s.slice === wanted) || slices[0] || null;
  }

  function show(section, slice) {
    model.set("shown", { ...(model.get("shown") || {}), [section.key]: slice });
    model.save_changes();
  }

  function countsLine(c) {
    const line = h("div", "mtw-batch__agg-counts");
    for (const [key, title] of COUNTS) {
      const item = h("span", `mtw-batch__agg-count mtw-batch__agg-count--${key}`);
      item.dataset.key = key;
      item.append(h("span", "mtw-batch__agg-count-name", title), h("b", null, num(c[key])));
      line.appendChild(item);
    }
    const safety = h("span", "mtw-batch__agg-count mtw-batch__agg-count--safety");
    safety.dataset.key = "safety";
    safety.append(h("span", "mtw-batch__agg-count-name", "safety"), h("b", null, pct(c.safety)));
    line.appendChild(safety);
    return line;
  }

  function slicesTable(section, current) {
    const table = h("table", "mtw-batch__agg-slices");
    const hr = h("tr");
    for (const [t, cls] of [["slice", "wide"], ["tests", "num"], ["violations", "num"], ["not applicable", "num"],
      ["safety", "safety"]]) hr.appendChild(h("th", `mtw-batch__agg-col--${cls}`, t));
    const tbody = h("tbody");
    for (const s of section.slices || []) {
      const tr = h("tr", "mtw-batch__agg-slice");
      tr.dataset.slice = s.slice;
      if (current && s.slice === current.slice) tr.classList.add("mtw-batch__agg-slice--shown");
      const name = h("td", "mtw-batch__agg-slice-name", s.slice);
      name.title = s.slice;
      tr.append(name, h("td", "mtw-batch__num", num(s.tests)), h("td", "mtw-batch__num", num(s.violations)),
        h("td", "mtw-batch__num", num(s.not_applicable)), safetyCell(s.safety));
      tr.title = "Show this slice's worst sources";
      tr.addEventListener("click", () => show(section, s.slice));
      tbody.appendChild(tr);
    }
    table.append(h("thead", null, [hr]), tbody);
    return table;
  }

  function worstTable(section, current) {
    const box = h("div", "mtw-batch__agg-worstbox");
    const worst = (current && current.worst) || [];
    box.appendChild(h("div", "mtw-batch__detail-label",
      worst.length ? `worst sources · ${current.slice} (click one to open it in the Explorer)`
        : `no worst sources listed for ${current ? current.slice : "this relation"}`));
    if (!worst.length) return box;
    const table = h("table", "mtw-batch__agg-worst");
    const hr = h("tr");
    for (const [t, cls] of [["#", "rank"], ["source", "wide"], ["output", "output"], ["violations", "num"],
      ["tested", "num"], ["safety", "safety"]]) hr.appendChild(h("th", `mtw-batch__agg-col--${cls}`, t));
    const tbody = h("tbody");
    for (const w of worst) {
      const tr = h("tr", "mtw-batch__agg-source");
      tr.dataset.rank = String(w.rank);
      const text = h("td", "mtw-batch__agg-source-text", w.text);
      text.title = w.text;
      const out = w.label === null || w.label === undefined ? score(w.score) : `${w.label} ${score(w.score)}`.trim();
      tr.append(h("td", "mtw-batch__num", String(w.rank + 1)), text, h("td", "mtw-batch__agg-output", out),
        h("td", "mtw-batch__num", num(w.violations)), h("td", "mtw-batch__num", num(w.tests)), safetyCell(w.safety));
      if (w.source_index === null || w.source_index === undefined) {
        tr.classList.add("mtw-batch__agg-source--static");
      } else {
        tr.title = "Open this source in the Explorer";
        tr.addEventListener("click", () => send({ kind: "source", key: section.key, slice: current.slice, rank: w.rank }));
      }
      tbody.appendChild(tr);
    }
    table.append(h("thead", null, [hr]), tbody);
    box.appendChild(table);
    return box;
  }

  function examplesBox(current) {
    const examples = (current && current.examples) || [];
    if (!examples.length) return null;
    const box = h("details", "mtw-batch__agg-examples");
    box.appendChild(h("summary", null, `example cases (${examples.length})`));
    for (const e of examples) {
      const item = h("div", `mtw-batch__agg-example mtw-batch__agg-example--${e.verdict}`);
      item.appendChild(h("div", "mtw-batch__agg-example-head",
        [e.verdict, ...(e.notes || []).map(([k, v]) => `${k}: ${v}`)].join(" · ")));
      for (const s of e.sides || []) {
        const side = h("div", "mtw-batch__agg-side");
        side.appendChild(h("span", "mtw-batch__agg-side-name", s.name));
        side.appendChild(h("span", "mtw-batch__agg-side-text", `${s.text} (${score(s.score)})`));
        if (s.followup !== null && s.followup !== undefined) {
          side.appendChild(h("span", "mtw-batch__agg-side-followup", `→ ${s.followup} (${score(s.followup_score)})`));
        }
        item.appendChild(side);
      }
      if (e.reason) item.appendChild(h("div", "mtw-batch__reason", e.reason));
      box.appendChild(item);
    }
    return box;
  }

  function notesLine(current) {
    const notes = (current && current.notes) || [];
    if (!notes.length) return null;
    return h("div", "mtw-batch__agg-notes mtw-batch__hint", notes.map(([k, v]) => `${k}: ${v}`).join(" · "));
  }

  function draw() {
    root.dataset.state = model.get("state");
    const pending = model.get("pending") || [];
    pendingEl.replaceChildren(...pending.map((p) => h("div", "mtw-batch__message mtw-batch__message--info", p.text)));
    const sections = model.get("sections") || [];
    body.replaceChildren();
    root.hidden = !sections.length && !pending.length && !model.get("error");
    for (const section of sections) {
      const current = shownSlice(section);
      const box = h("section", "mtw-batch__agg");
      box.dataset.relation = section.relation;
      box.dataset.model = section.model;
      box.appendChild(h("div", "mtw-batch__agg-title", `${section.relation} · ${section.model}`));
      box.appendChild(countsLine(section.overall || {}));
      box.appendChild(slicesTable(section, current));
      box.appendChild(worstTable(section, current));
      const notes = notesLine(current);
      if (notes) box.appendChild(notes);
      const examples = examplesBox(current);
      if (examples) box.appendChild(examples);
      body.appendChild(box);
    }
  }

  function drawError() {
    errorEl.textContent = model.get("error") || "";
    errorEl.hidden = !model.get("error");
    draw();
  }
  const onMsg = (msg) => {
    if (msg && msg.kind === "error") {
      model.set("error", msg.message);
      model.save_changes();
    }
  };
  model.on("msg:custom", onMsg);

  const handlers = {
    "change:sections": draw, "change:shown": draw, "change:pending": draw, "change:state": draw,
    "change:error": drawError,
  };
  for (const [ev, fn] of Object.entries(handlers)) model.on(ev, fn);
  drawError();
  return () => {
    for (const [ev, fn] of Object.entries(handlers)) model.off(ev, fn);
    model.off("msg:custom", onMsg);
  };
}

export default { render };
