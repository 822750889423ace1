// Batch panel: set-up (column mapping, relations, models, seed, sample, slice), Run,
// progress and export. Plain DOM; user text only through textContent. The column mapping
// form is built from the task's declared column modes (the `modes` trait:
// [{name, title, fields: [{name, help, required}]}]); nothing here knows a task.
// h(tag, "class names", text): the shared DOM helper of js/common.js, inlined here.
// @include common.js

function fmtTime(s) {
  if (s === null || s === undefined) return "—";
  s = Math.round(s);
  const m = Math.floor(s / 60);
  return m ? `${m}m ${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

function render({ model, el }) {
  const root = h("div", "mtw-batch mtw-batch__controls");
  el.appendChild(root);
  let counter = 0;
  const send = (msg) => model.send({ id: `b${++counter}`, ...msg });

  const setup = h("details", "mtw-batch__setup");
  setup.open = true;
  setup.appendChild(h("summary", "mtw-batch__setup-title", "Set-up"));
  const mapBox = h("div", "mtw-batch__mapping");
  const relBox = h("div", "mtw-batch__relations");
  const modBox = h("div", "mtw-batch__models");
  const optBox = h("div", "mtw-batch__options");
  setup.append(mapBox, relBox, modBox, optBox);

  const bar = h("div", "mtw-batch__actions");
  const runBtn = h("button", "mtw-batch__run", "Run");
  const exportBtn = h("button", "mtw-batch__export", "Export");
  const stateEl = h("span", "mtw-batch__state");
  bar.append(runBtn, exportBtn, stateEl);
  const messages = h("div", "mtw-batch__messages");
  const progress = h("div", "mtw-batch__progress");
  const track = h("div", "mtw-batch__track");
  const fill = h("div", "mtw-batch__fill");
  track.appendChild(fill);
  const stats = h("div", "mtw-batch__stats");
  const vrList = h("div", "mtw-batch__vr");
  progress.append(track, stats, vrList);
  const exported = h("div", "mtw-batch__exported");
  root.append(setup, bar, messages, progress, exported);

  // options: values, or [value, text] pairs
  function select(options, value, onChange, cls) {
    const s = h("select", cls);
    for (const o of options) {
      const [v, text] = Array.isArray(o) ? o : [o, o === "" ? "(none)" : o];
      const opt = h("option", null, text);
      opt.value = v;
      s.appendChild(opt);
    }
    s.value = value ?? "";
    s.addEventListener("change", () => onChange(s.value));
    return s;
  }

  function drawMapping() {
    mapBox.replaceChildren();
    const cols = model.get("columns") || [];
    if (!cols.length) {
      mapBox.appendChild(h("div", "mtw-batch__hint", "Inputs given directly: no columns to map."));
      return;
    }
    const modes = (model.get("modes") || []).filter((m) => m && m.name);
    if (!modes.length) {
      mapBox.appendChild(h("div", "mtw-batch__hint", "This task reads no table columns."));
      return;
    }
    const mapping = { ...(model.get("mapping") || {}) };
    const names = cols.map((c) => c.name);
    const set = (k, v) => {
      const next = { ...(model.get("mapping") || {}), [k]: v };
      model.set("mapping", next);
      model.save_changes();
    };
    const mode = modes.find((m) => m.name === mapping.mode) || modes[0];
    const row = h("div", "mtw-batch__field");
    if (modes.length > 1) {
      row.append(h("label", null, "columns given as"),
        select(modes.map((m) => [m.name, m.title || m.name]), mode.name, (v) => set("mode", v), "mtw-batch__mode"));
    } else {
      const only = h("span", "mtw-batch__mode mtw-batch__hint", mode.title || mode.name);
      only.dataset.mode = mode.name;
      row.append(h("label", null, "data"), only);
    }
    mapBox.appendChild(row);
    for (const f of mode.fields || []) {
      const r = h("div", "mtw-batch__field");
      r.dataset.field = f.name;
      const label = h("label", null, f.required === false ? `${f.name} (optional)` : f.name);
      if (f.help) label.title = f.help;
      r.append(label, select(["", ...names], mapping[f.name] || "", (v) => set(f.name, v), `mtw-batch__col mtw-batch__col--${f.name}`));
      mapBox.appendChild(r);
    }
  }

  function checks(box, title, available, chosenKey, cls) {
    box.replaceChildren(h("span", "mtw-batch__group-title", title));
    const chosen = new Set(model.get(chosenKey) || []);
    for (const name of available) {
      const lab = h("label", cls);
      const cb = document.createElement("input");
      cb.type = "checkbox";
      cb.checked = chosen.has(name);
      cb.value = name;
      cb.addEventListener("change", () => {
        const now = new Set(model.get(chosenKey) || []);
        cb.checked ? now.add(name) : now.delete(name);
        model.set(chosenKey, available.filter((n) => now.has(n)));
        model.save_changes();
      });
      lab.append(cb, document.createTextNode(" " + name));
      box.appendChild(lab);
    }
  }

  function numberField(label, key, cls) {
    const r = h("label", "mtw-batch__field");
    const inp = document.createElement("input");
    inp.type = "number";
    inp.min = "0";
    inp.className = cls;
    inp.value = String(model.get(key) ?? 0);
    inp.addEventListener("change", () => {
      const v = parseInt(inp.value, 10);
      model.set(key, Number.isFinite(v) && v >= 0 ? v : 0);
      model.save_changes();
    });
    r.append(h("span", null, label), inp);
    return r;
  }

  function drawOptions() {
    optBox.replaceChildren();
    optBox.append(numberField("seed", "seed", "mtw-batch__seed"),
      numberField("sample rows (0 = all)", "sample", "mtw-batch__sample"));
    const cols = (model.get("columns") || []).map((c) => c.name);
    if (cols.length) {
      const r = h("label", "mtw-batch__field");
      r.append(h("span", null, "slice by column"), select(["", ...cols], model.get("slice_column"), (v) => {
        model.set("slice_column", v);
        model.save_changes();
      }, "mtw-batch__slice"));
      optBox.appendChild(r);
    }
  }

  function drawSetup() {
    drawMapping();
    checks(relBox, "relations", model.get("relations_available") || [], "relations", "mtw-batch__relation");
    checks(modBox, "models", model.get("models_available") || [], "models", "mtw-batch__model");
    drawOptions();
  }

  function drawState() {
    const state = model.get("state");
    root.dataset.state = state;
    stateEl.textContent = state;
    stateEl.className = `mtw-batch__state mtw-batch__state--${state}`;
    runBtn.disabled = state === "running";
    runBtn.textContent = state === "interrupted" ? "Resume" : "Run";
  }

  function drawMessages() {
    messages.replaceChildren();
    const all = [...(model.get("messages") || [])];
    const err = model.get("error");
    if (err) all.unshift({ level: "error", text: err });
    for (const m of all) messages.appendChild(h("div", `mtw-batch__message mtw-batch__message--${m.level}`, m.text));
  }

  function drawProgress() {
    const p = model.get("progress") || {};
    if (p.sources_total === undefined) {
      progress.hidden = true;
      return;
    }
    progress.hidden = false;
    fill.style.width = `${Math.round(100 * (p.fraction || 0))}%`;
    const total = p.groups_total === null || p.groups_total === undefined ? "?" : (p.groups_exact ? "" : "~") + p.groups_total;
    stats.textContent = `groups ${p.groups_done} / ${total} · sources ${p.sources_done} / ${p.sources_total}` +
      ` · ${p.rate ?? "—"} groups/s · elapsed ${fmtTime(p.elapsed)} · ETA ${fmtTime(p.eta)}`;
    vrList.replaceChildren();
    for (const r of p.vr || []) {
      const chip = h("span", "mtw-batch__vr-item",
        `${r.relation} ${r.vr === null ? "—" : (100 * r.vr).toFixed(1) + "%"} (${r.violations}/${r.groups})`);
      vrList.appendChild(chip);
    }
    // Aggregated relations count test cases (e.g. pairs of sources), not groups: their own
    // chips, safety rather than VR, never pooled with the groups above.
    for (const a of p.aggregated || []) {
      const text = a.model === null || a.model === undefined
        ? `${a.relation}: counted at the end of the run`
        : `${a.relation} · ${a.model} safety ${a.safety === null ? "—" : (100 * a.safety).toFixed(1) + "%"}` +
          ` (${a.violations}/${a.tests} violated)`;
      vrList.appendChild(h("span", "mtw-batch__agg-item", text));
    }
  }

  function drawExported() {
    exported.replaceChildren();
    const files = model.get("exported") || [];
    if (files.length) {
      exported.appendChild(h("div", "mtw-batch__hint", `Exported ${files.length} files:`));
      for (const f of files) exported.appendChild(h("code", "mtw-batch__file", f));
    }
  }

  runBtn.addEventListener("click", () => {
    model.set("error", "");
    model.save_changes();
    send({ kind: "run" });
  });
  exportBtn.addEventListener("click", () => send({ kind: "export", what: ["results", "charts", "report"] }));
  const onMsg = (msg) => {
    if (msg && msg.kind === "error") {
      model.set("error", msg.message);
      drawMessages();
    }
  };
  model.on("msg:custom", onMsg);

  const handlers = {
    "change:columns": drawSetup, "change:mapping": drawMapping, "change:modes": drawMapping,
    "change:relations_available": drawSetup, "change:relations": drawSetup,
    "change:models_available": drawSetup, "change:models": drawSetup,
    "change:state": drawState, "change:messages": drawMessages, "change:error": drawMessages,
    "change:progress": drawProgress, "change:exported": drawExported,
  };
  for (const [ev, fn] of Object.entries(handlers)) model.on(ev, fn);
  drawSetup();
  drawState();
  drawMessages();
  drawProgress();
  drawExported();
  return () => {
    for (const [ev, fn] of Object.entries(handlers)) model.off(ev, fn);
    model.off("msg:custom", onMsg);
  };
}

export default { render };
