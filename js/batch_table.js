// Batch panel: the paged table of groups and the detail of one row (word diff, both
// outputs, "Open in Explorer"). Only the shown page is in the model; user text goes
// through textContent only. The columns come from Python as data (the `columns` trait,
// [{key, title}]: the generic ones and the task's), and a task's addition to the detail
// arrives as generic display blocks (`detail.extra`): nothing here knows a task.
const VERDICTS = ["violation", "all", "pass", "not_applicable", "error"];

// h(tag, "class names", text): the shared DOM helper of js/common.js, inlined here.
// @include common.js

function render({ model, el }) {
  const root = h("div", "mtw-batch mtw-batch__tableview");
  el.appendChild(root);
  let counter = 0;
  const send = (msg) => model.send({ id: `t${++counter}`, ...msg });

  const head = h("div", "mtw-batch__tablebar");
  const verdict = h("select", "mtw-batch__verdict");
  for (const v of VERDICTS) {
    const o = h("option", null, v === "all" ? "all verdicts" : v);
    o.value = v;
    verdict.appendChild(o);
  }
  verdict.addEventListener("change", () => {
    model.set("verdict", verdict.value);
    model.save_changes();
  });
  const filter = h("span", "mtw-batch__filter");
  const clear = h("button", "mtw-batch__clear", "Clear selection");
  clear.addEventListener("click", () => send({ kind: "clear_selection" }));
  const count = h("span", "mtw-batch__count");
  head.append(h("span", null, "show"), verdict, filter, clear, count);

  const table = h("table", "mtw-batch__table");
  const thead = h("thead");
  let columns = [];
  let columnsKey = null;
  function drawHead() {
    const next = (model.get("columns") || []).filter((c) => c && c.key);
    const key = JSON.stringify(next);
    if (key === columnsKey) return;
    columnsKey = key;
    columns = next;
    const hr = h("tr");
    for (const c of columns) hr.appendChild(h("th", null, c.title ?? c.key));
    thead.replaceChildren(hr);
  }
  drawHead();
  const tbody = h("tbody", "mtw-batch__body");
  table.append(thead, tbody);

  const pager = h("div", "mtw-batch__pager");
  const prev = h("button", "mtw-batch__prev", "‹ prev");
  const pageEl = h("span", "mtw-batch__page");
  const next = h("button", "mtw-batch__next", "next ›");
  pager.append(prev, pageEl, next);
  const goto = (delta) => {
    model.set("page", Math.max(0, model.get("page") + delta));
    model.save_changes();
  };
  prev.addEventListener("click", () => goto(-1));
  next.addEventListener("click", () => goto(1));

  const errorEl = h("div", "mtw-batch__message mtw-batch__message--error");
  const detail = h("div", "mtw-batch__detail");
  root.append(head, errorEl, table, pager, detail);

  function drawState() {
    root.dataset.state = model.get("state");
  }

  function drawRows() {
    tbody.replaceChildren();
    const selected = model.get("selected");
    const rows = model.get("rows") || [];
    drawHead();
    for (const r of rows) {
      const tr = h("tr", `mtw-batch__row mtw-batch__row--${r.verdict}`);
      tr.dataset.i = String(r.i);
      if (r.i === selected) tr.classList.add("mtw-batch__row--selected");
      for (const { key } of columns) {
        const td = h("td", `mtw-batch__cell mtw-batch__cell--${key}`, r[key]);
        td.title = r[key] ?? "";
        tr.appendChild(td);
      }
      tr.addEventListener("click", () => {
        model.set("selected", r.i === model.get("selected") ? -1 : r.i);
        model.save_changes();
      });
      tbody.appendChild(tr);
    }
    const total = model.get("total");
    const size = model.get("page_size");
    const pages = Math.max(1, Math.ceil(total / size));
    const page = model.get("page");
    pageEl.textContent = `page ${page + 1} / ${pages}`;
    prev.disabled = page <= 0;
    next.disabled = page + 1 >= pages;
    count.textContent = `${total} rows`;
    if (!total) tbody.appendChild(h("tr", "mtw-batch__empty")).appendChild(h("td", null,
      model.get("state") === "running" ? "Results appear here when the run finishes." : "No rows match."));
  }

  function drawFilter() {
    const f = model.get("filter");
    filter.textContent = f ? `selected in chart: ${f}` : "";
    clear.hidden = !f;
    verdict.value = model.get("verdict");
  }

  function diffLine(parts) {
    const line = h("div", "mtw-batch__diff");
    for (const [op, text] of parts || []) line.appendChild(h("span", `mtw-batch__tok mtw-batch__tok--${op}`, text));
    return line;
  }

  function output(title, p) {
    const box = h("div", "mtw-batch__output");
    box.appendChild(h("div", "mtw-batch__output-title", title));
    box.appendChild(h("div", "mtw-batch__label", p && p.label ? p.label : "—"));
    for (const [label, score] of (p && p.scores) || []) {
      box.appendChild(h("div", "mtw-batch__score", `${label}: ${Number(score).toFixed(3)}`));
    }
    return box;
  }

  // A text with marked spans: [[piece, label], ...], label "" between spans.
  function markedLine(parts, cls) {
    const line = h("div", `mtw-batch__ents ${cls || ""}`.trim());
    for (const [text, label] of parts || []) {
      if (!label) {
        line.appendChild(document.createTextNode(text));
        continue;
      }
      const mark = h("mark", "mtw-batch__ent");
      mark.dataset.label = label;
      mark.append(h("span", "mtw-batch__ent-text", text), h("span", "mtw-batch__ent-label", label));
      line.appendChild(mark);
    }
    return line;
  }

  // A task's addition to the detail: {cls, replaces_outputs, blocks: [{type, ...}]}.
  function extraBox(extra) {
    const box = h("div", `mtw-batch__extra ${extra.cls || ""}`.trim());
    for (const b of extra.blocks || []) {
      if (b.type === "label") {
        box.appendChild(h("div", "mtw-batch__detail-label", b.text));
      } else if (b.type === "marked") {
        box.appendChild(markedLine(b.parts, b.cls));
      } else if (b.type === "list") {
        const list = h("ul", b.cls || null);
        for (const item of b.items || []) {
          const li = h("li", b.item_cls || null);
          for (const [cls, text] of item) li.appendChild(cls ? h("span", cls, text) : document.createTextNode(text));
          list.appendChild(li);
        }
        box.appendChild(list);
      } else if (b.text !== undefined) {
        box.appendChild(h("div", "mtw-batch__note", b.text));
      }
    }
    return box;
  }

  function drawDetail() {
    detail.replaceChildren();
    const d = model.get("detail") || {};
    if (d.i === undefined) {
      detail.hidden = true;
      return;
    }
    detail.hidden = false;
    detail.appendChild(h("div", "mtw-batch__detail-title", `${d.relation} · ${d.model} · ${d.verdict} · ${d.group}`));
    detail.appendChild(h("div", "mtw-batch__detail-label", "source"));
    detail.appendChild(diffLine(d.source_diff));
    for (const s of d.other_sources || []) detail.appendChild(h("div", "mtw-batch__diff", s));
    detail.appendChild(h("div", "mtw-batch__detail-label", "follow-up"));
    detail.appendChild(diffLine(d.followup_diff));
    if (d.note) detail.appendChild(h("div", "mtw-batch__note", d.note));
    if (d.extra) detail.appendChild(extraBox(d.extra));
    if (!(d.extra && d.extra.replaces_outputs)) {
      const outs = h("div", "mtw-batch__outputs");
      outs.append(output("source output", d.source_output), output("follow-up output", d.followup_output));
      detail.appendChild(outs);
    }
    detail.appendChild(h("div", "mtw-batch__reason", d.reason));
    const open = h("button", "mtw-batch__open-explorer", "Open in Explorer");
    open.addEventListener("click", () => send({ kind: "explorer", i: d.i }));
    detail.appendChild(open);
    drawRows();
  }

  function drawError() {
    errorEl.textContent = model.get("error") || "";
    errorEl.hidden = !model.get("error");
  }
  const onMsg = (msg) => {
    if (msg && msg.kind === "error") {
      model.set("error", msg.message);
      model.save_changes();
    }
  };
  model.on("msg:custom", onMsg);

  const handlers = {
    "change:rows": drawRows, "change:total": drawRows, "change:page": drawRows, "change:state": drawState,
    "change:filter": drawFilter, "change:verdict": drawFilter, "change:detail": drawDetail,
    "change:error": drawError, "change:columns": drawRows,
  };
  for (const [ev, fn] of Object.entries(handlers)) model.on(ev, fn);
  drawState();
  drawRows();
  drawFilter();
  drawDetail();
  drawError();
  return () => {
    for (const [ev, fn] of Object.entries(handlers)) model.off(ev, fn);
    model.off("msg:custom", onMsg);
  };
}

export default { render };
